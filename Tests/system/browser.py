"""Real Chromium through WebDriver, at a phone size (or a desktop size where a test asks), for the browser suite."""
import json
import os

import pytest
import requests
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from conftest import account_email
from fresh_element import FreshElement

# Like a person, scroll what you are about to tap to the middle of the screen first: the sticky
# header and the phone's tab bar cover the edges.
_click = WebElement.click


def _centred_click(self):
    self.parent.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", self)
    _click(self)


WebElement.click = _centred_click

ARTIFACTS = os.environ.get("FORKCAST_ARTIFACTS", os.path.join(os.path.dirname(__file__), "..", "..", "artifacts"))
SCREENSHOTS = os.path.join(ARTIFACTS, "screenshots")
SIZES = {"phone": (390, 844), "desktop": (1280, 900), "layout": (1440, 900)}


def chromium_paths():
    # Debian's chromium-headless-shell: the same Chromium without the browser's windows and
    # services around the page. It took half the CPU of `chromium --headless=new` over the same
    # tests (51 against 88-108 CPU-s, 2026-12-04), and the browser suite is CPU-bound on two cores.
    # The binary itself: /usr/bin's script runs it without exec, so quitting ended only the script
    # and left every browser running.
    binary = "/usr/lib/chromium/chromium-headless-shell"
    binary = binary if os.path.exists(binary) else None
    driver = next((p for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(p)), None)
    return binary, driver


def make_driver(size="phone", javascript=True):
    binary, driver_path = chromium_paths()
    if not binary or not driver_path:
        pytest.fail("chromium-headless-shell and chromium-driver are not installed (scripts/test.sh installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    width, height = SIZES[size]
    for arg in ["--headless", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--lang=en-US", "--force-device-scale-factor=1"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver._web_element_cls = FreshElement
    if not javascript:
        # The shell reads no profile preferences: scripts are turned off for the page instead.
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    if size == "phone":
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.size_name = size
    driver.implicitly_wait(0)
    return driver


def wait_for(driver, condition, timeout=10, message=""):
    # Parts of pages are swapped in place, and a form's answer replaces the whole page, so an element
    # read mid-swap may go stale: read again. Chromium reports some of those reads not as stale but as
    # "Node with given id does not belong to the document"; that one is read again too, anything else fails.
    def check(d):
        try:
            return condition(d)
        except WebDriverException as error:
            if "does not belong to the document" in (error.msg or ""):
                return False
            raise
    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(
        check, message)


def click_suggestion(driver, selector, text, timeout=10):
    """Clicks the first element of `selector` whose text holds `text`. Suggestions are drawn again as
    each answer to the typing arrives, so one read a moment ago may be gone: it is found again."""
    def click(d):
        for element in d.find_elements(By.CSS_SELECTOR, selector):
            if text in element.text:
                element.click()
                return True
        return False
    wait_for(driver, click, timeout, f"a suggestion holding {text!r}")


def css(driver, selector):
    element = driver.find_element(By.CSS_SELECTOR, selector)
    if isinstance(element, FreshElement) and not isinstance(driver, WebElement):
        element.selector = selector
    return element


def all_css(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def screenshot(driver, name):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.join(SCREENSHOTS, f"{driver.size_name}-{name}.png")
    # Full-page capture so the artifact shows everything a person would scroll through.
    scroll = driver.execute_script("return window.scrollY")
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    height = int(min(metrics["cssContentSize"]["height"], 4000))
    width = SIZES[driver.size_name][0]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": max(height, SIZES[driver.size_name][1]), "deviceScaleFactor": 1,
                            "mobile": driver.size_name == "phone"})
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": SIZES[driver.size_name][1], "deviceScaleFactor": 1,
                            "mobile": driver.size_name == "phone"})
    driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
    return path


def set_dark(driver, dark):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def axe_check(driver, page_name):
    """Runs axe-core on the page; fails on serious or critical violations."""
    scroll = driver.execute_script("return window.scrollY")
    axe = Axe(driver)
    axe.inject()
    # axe-core runs as an async script: on the largest page (the API reference) on a loaded two-core
    # machine it took longer than Selenium's 30 s default (CI, 2026-11-27).
    driver.set_script_timeout(180)
    try:
        results = axe.run()
    finally:
        driver.set_script_timeout(30)
    driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
    os.makedirs(os.path.join(ARTIFACTS, "axe"), exist_ok=True)
    with open(os.path.join(ARTIFACTS, "axe", f"{driver.size_name}-{page_name}.json"), "w") as f:
        json.dump(results["violations"], f, indent=1)
    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, f"{page_name}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in bad)
    return results


def sign_in(driver, server, email=None, password="correct horse"):
    email = account_email(server, email)
    driver.get(server.url("/login"))
    css(driver, "#field-email").send_keys(email)
    css(driver, "#field-password").send_keys(password)
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: "/login" not in d.current_url, message="sign-in did not leave the login page")


def as_someone_else(driver, server):
    """Forgets who is signed in, as another browser would be. The page is left first (for a quiet
    one of the same site), so nothing it still has under way (the live-updates stream, a probe) can
    answer with the session cookie again after it was deleted."""
    driver.get(server.url("/healthz"))
    driver.delete_all_cookies()


def mark_page(driver):
    """Sets a flag that only survives as long as no full page load happens."""
    driver.execute_script("window.__noReload = true")


def page_was_not_reloaded(driver):
    return driver.execute_script("return window.__noReload === true")


PHOTOS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "Tests", "Fixtures", "photos")
PHOTO = os.path.join(PHOTOS, "photo.jpg")


def upload_photo(s, server, path=PHOTO, content_type="image/jpeg"):
    with open(path, "rb") as f:
        r = s.post(server.url("/api/v1/photos"), data=f.read(), headers={"Content-Type": content_type})
    assert r.status_code == 201, r.text
    return r.json()


def api_session(server, email=None, password="correct horse", time_zone=None):
    body = {"email": account_email(server, email), "password": password}
    if time_zone:
        body["timeZone"] = time_zone
    r = requests.post(server.url("/api/v1/auth/register"), json=body)
    assert r.status_code == 201, r.text
    s = requests.Session()
    s.headers["Authorization"] = "Bearer " + r.json()["token"]
    return s


def create_meal(session, server, description, protein=None, carb=None, components=()):
    r = session.post(server.url("/api/v1/meals"), json={"description": description, "primaryProtein": protein,
                                                         "primaryCarb": carb, "otherComponents": list(components)})
    assert r.status_code == 201, r.text
    return r.json()


def create_food(session, server, **body):
    r = session.post(server.url("/api/v1/foods"), json=body)
    assert r.status_code == 201, r.text
    return r.json()


def entries_of(session, server, date, meal_type):
    day = session.get(server.url(f"/api/v1/diary?date={date}")).json()
    return next((g["entries"] for g in day["entries"] if g["mealType"] == meal_type), [])


def browser_errors(driver):
    """Severe console messages (script errors), ignoring failed loads the test caused on purpose."""
    try:
        logs = driver.get_log("browser")
    except Exception:
        return []
    return [e for e in logs if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]
            and "net::ERR_CONNECTION_REFUSED" not in e["message"]]


# Helpers for sweeping one driver through many viewport sizes (test_layout_sweep.py).
PHONE_BREAKPOINT = 700


def set_viewport(driver, width, height=900):
    """Emulates a device `width` CSS px wide: a touch phone below 700 px, a desktop from there."""
    mobile = width < PHONE_BREAKPOINT
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})
    driver.viewport = (width, height)


def screenshot_file(driver, path, max_height=4000):
    """Full-page capture to `path` at the viewport set_viewport chose, which it restores afterwards."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    width, height = getattr(driver, "viewport", SIZES[driver.size_name])
    scroll = driver.execute_script("return window.scrollY")
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    full = int(min(metrics["cssContentSize"]["height"], max_height))
    mobile = width < PHONE_BREAKPOINT
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": max(full, height), "deviceScaleFactor": 1, "mobile": mobile})
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
    return path


def axe_violations(driver, impacts=("serious", "critical"), context=None, rules=None):
    """axe-core's violations of the given impacts on the current page, without asserting. `context`
    is axe's include/exclude (e.g. {"exclude": [["li:nth-child(n+21)"]]} to skip long repeats);
    `rules`, when given, are the only rules run (ids such as "color-contrast")."""
    scroll = driver.execute_script("return window.scrollY")
    axe = Axe(driver)
    axe.inject()
    if rules is None:
        results = axe.run(context=context)
    else:
        results = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(arguments[0] || document, {runOnly: {type: 'rule', values: arguments[1]}})"
            ".then(done, e => done({violations: [{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]}));",
            context, list(rules))
    driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
    return [v for v in results["violations"] if v.get("impact") in impacts]


class Taps:
    """Counts what a person taps (clicks), so the everyday tasks can be held to a number;
    `count_only` is for what send_keys stands in for (the OS camera)."""

    def __init__(self):
        self.count = 0

    def tap(self, element):
        self.count += 1
        element.click()

    def count_only(self):
        self.count += 1
