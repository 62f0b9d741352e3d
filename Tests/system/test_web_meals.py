"""The meal library, the meal form and filters, as a person uses them in Chromium."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser import (all_css, api_session, axe_check, create_meal, css, mark_page, page_was_not_reloaded,
                     screenshot, sign_in, wait_for)


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own."""
    return shared_server


def card_titles(driver):
    return driver.execute_script("return [...document.querySelectorAll('#meal-list .meal-title')].map(e => e.textContent.trim())")


def test_add_edit_and_delete_a_meal(driver, server):
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/meals"))
    screenshot(driver, "meals-empty")
    axe_check(driver, "meals-empty")
    css(driver, "a[href='/meals/new']").click()
    wait_for(driver, lambda d: d.current_url.endswith("/meals/new"))

    # Description is required: the error sits next to the field and the rest of the input stays.
    css(driver, "#field-primaryProtein").send_keys("Chicken")
    css(driver, "#field-newComponents").send_keys("Garlic, Onion, Coriander")
    css(driver, "#field-newComponents").send_keys(Keys.ENTER)
    wait_for(driver, lambda d: len(all_css(d, "#component-chips .chip")) == 3)
    css(driver, "#meal-form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "field-description-error"))
    assert "required" in css(driver, "#field-description-error").text
    assert css(driver, "#field-primaryProtein").get_attribute("value") == "Chicken"
    assert [c.text.replace("×", "").strip() for c in all_css(driver, "#component-chips .chip")] == ["Garlic", "Onion", "Coriander"]
    assert driver.switch_to.active_element.get_attribute("id") == "field-description"
    screenshot(driver, "meal-form-errors")
    axe_check(driver, "meal-form-errors")

    # Chips can be removed before saving.
    css(driver, "#component-chips .chip:nth-child(3) .chip-remove").click()
    css(driver, "#field-description").send_keys("Chicken curry")
    css(driver, "#field-primaryCarb").send_keys("Rice")
    screenshot(driver, "meal-form")
    css(driver, "#meal-form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.split("#")[0].endswith("/meals"))
    assert card_titles(driver) == ["Chicken curry"]
    card = css(driver, "#meal-list .meal")
    assert "Chicken" in card.text and "Rice" in card.text and "Garlic" in card.text and "Onion" in card.text
    assert "Coriander" not in card.text
    assert "Added “Chicken curry”" in css(driver, ".flash").text

    # Edit: the form starts with the meal's values.
    css(driver, "#meal-list a[href$='/edit']").click()
    wait_for(driver, lambda d: d.current_url.endswith("/edit"))
    assert css(driver, "#field-description").get_attribute("value") == "Chicken curry"
    css(driver, "#field-description").clear()
    css(driver, "#field-description").send_keys("Chicken korma")
    css(driver, "#meal-form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.split("#")[0].endswith("/meals"))
    assert card_titles(driver) == ["Chicken korma"]

    # Delete asks first; cancelling keeps the meal, confirming removes it in place.
    mark_page(driver)
    css(driver, "[data-delete-meal]").click()
    wait_for(driver, lambda d: css(d, "#delete-dialog").get_attribute("open") is not None)
    assert "Chicken korma" in css(driver, "#delete-text").text
    screenshot(driver, "meal-delete-dialog")
    css(driver, "#delete-dialog [data-close]").click()
    assert card_titles(driver) == ["Chicken korma"]
    css(driver, "[data-delete-meal]").click()
    wait_for(driver, lambda d: css(d, "#delete-dialog").get_attribute("open") is not None)
    css(driver, "#delete-dialog button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "empty-library"))
    assert page_was_not_reloaded(driver)
    assert "Deleted" in css(driver, "#announcer").text


def test_suggestions_come_from_existing_values(driver, server):
    s = api_session(server)
    create_meal(s, server, "Curry", "Chicken", "Rice", ["Garlic"])
    create_meal(s, server, "Stew", "Beef", "Potatoes", ["Carrot"])
    sign_in(driver, server)
    driver.get(server.url("/meals/new"))
    proteins = [o.get_attribute("value") for o in all_css(driver, "#protein-options option")]
    carbs = [o.get_attribute("value") for o in all_css(driver, "#carb-options option")]
    assert proteins == ["Beef", "Chicken"] and carbs == ["Potatoes", "Rice"]
    assert css(driver, "#field-primaryProtein").get_attribute("list") == "protein-options"


def test_filters_update_in_place_and_live_in_the_url(driver, server):
    s = api_session(server)
    create_meal(s, server, "Chicken curry", "Chicken", "Rice", ["Garlic", "Onion"])
    create_meal(s, server, "Bolognese", "Beef", "Pasta", ["Garlic", "Tomato"])
    create_meal(s, server, "Chicken salad", "Chicken", None, ["Lettuce"])
    sign_in(driver, server)
    driver.get(server.url("/meals"))
    screenshot(driver, "meals")
    results = axe_check(driver, "meals")
    # Each card's title is a heading one level under the page's (no h3 straight under the h1).
    assert not [v for v in results["violations"] if v["id"] == "heading-order"], "headings skip a level"
    assert card_titles(driver) == ["Bolognese", "Chicken curry", "Chicken salad"]
    mark_page(driver)

    css(driver, "#more-filters summary").click()  # the filters fold into one control
    Select(css(driver, "#filter-protein")).select_by_visible_text("Chicken")
    wait_for(driver, lambda d: card_titles(d) == ["Chicken curry", "Chicken salad"])
    assert "protein=Chicken" in driver.current_url
    assert "2 of 3 meals match" in css(driver, "#meal-count").text

    css(driver, "#meal-filters input[value='Garlic']").click()
    wait_for(driver, lambda d: card_titles(d) == ["Chicken curry"])
    css(driver, "#meal-filters input[value='Onion']").click()
    wait_for(driver, lambda d: "component=Onion" in d.current_url)
    assert card_titles(driver) == ["Chicken curry"]
    css(driver, "#meal-filters input[value='Tomato']").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "no-match"))
    assert "No meals match" in css(driver, "#no-match").text
    assert page_was_not_reloaded(driver), "filters change the list without a page load"
    screenshot(driver, "meals-no-match")
    axe_check(driver, "meals-no-match")

    # The back button returns to the previous filter.
    driver.back()
    wait_for(driver, lambda d: card_titles(d) == ["Chicken curry"] and "Tomato" not in d.current_url)
    assert not css(driver, "#meal-filters input[value='Tomato']").is_selected()

    # A reload keeps the filter: it lives in the URL.
    driver.refresh()
    wait_for(driver, lambda d: card_titles(d) == ["Chicken curry"])
    assert css(driver, "#meal-filters input[value='Garlic']").is_selected()
    assert Select(css(driver, "#filter-protein")).first_selected_option.text == "Chicken"

    # Clear filters brings every meal back.
    css(driver, "#meal-filters [data-clear-filters]").click()
    wait_for(driver, lambda d: card_titles(d) == ["Bolognese", "Chicken curry", "Chicken salad"])
    assert driver.current_url.endswith("/meals")

    # Text search as you type.
    css(driver, "#filter-q").send_keys("bolo")
    wait_for(driver, lambda d: card_titles(d) == ["Bolognese"])
    assert "1 of 3 meals match" in css(driver, "#announcer").text


def test_planned_meals_are_last_grey_and_italic(driver, server):
    s = api_session(server)
    apple = create_meal(s, server, "Apple pie")
    create_meal(s, server, "Bagel")
    create_meal(s, server, "Curry")
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    assert s.post(server.url("/api/v1/plan/assignments"), json={"mealId": apple["id"], "date": today}).status_code == 201
    sign_in(driver, server)
    driver.get(server.url("/meals"))
    assert card_titles(driver) == ["Bagel", "Curry", "Apple pie"]
    planned = css(driver, f"#meal-{apple['id'].upper()}")
    other = all_css(driver, "#meal-list .meal")[0]
    assert "planned" in planned.get_attribute("class")
    assert planned.value_of_css_property("font-style") == "italic"
    assert other.value_of_css_property("font-style") == "normal"
    assert planned.value_of_css_property("background-color") != other.value_of_css_property("background-color")
    r, g, b = [int(x) for x in planned.value_of_css_property("background-color").split("(")[1].split(")")[0].split(",")[:3]]
    assert abs(r - g) < 12 and abs(g - b) < 12 and 200 < r < 250, "a light grey"
    screenshot(driver, "meals-planned")
