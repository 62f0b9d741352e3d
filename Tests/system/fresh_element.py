"""An element found by a selector is found again by it when the page redrew it in between.

Pages swap parts of themselves in place: the day after a delete or Undo, a live list on another
device's change. A person looks again and sees the new row; a held WebDriver element goes stale.
Only elements `css()` found by a page-wide selector are found again, once per read; if the selector
no longer matches, the read fails as it would have."""
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement


class FreshElement(WebElement):
    selector = None

    def _again(self, read):
        try:
            return read()
        except StaleElementReferenceException:
            if self.selector is None:
                raise
            self._id = self.parent.find_element(By.CSS_SELECTOR, self.selector).id
            return read()

    # Reads through WebDriver's element commands.
    def _execute(self, command, params=None):
        return self._again(lambda: WebElement._execute(self, command, params))

    # Reads WebDriver answers with a script given the element.
    def is_displayed(self):
        return self._again(lambda: WebElement.is_displayed(self))

    def get_attribute(self, name):
        return self._again(lambda: WebElement.get_attribute(self, name))

    def click(self):
        return self._again(lambda: WebElement.click(self))
