"""In the browser: the food library, Open Food Facts (against a local stand-in), meal
ingredients with live totals, and the planner's daily and weekly totals."""
import pytest
import requests
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser import (SIZES, all_css, api_session, axe_check, css, mark_page, page_was_not_reloaded, screenshot, set_dark,
                     set_viewport, sign_in, wait_for, create_food)
from fake_openfoodfacts import FakeOpenFoodFacts


@pytest.fixture
def off():
    with FakeOpenFoodFacts() as fake:
        yield fake


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own (those that talk to the Open
    Food Facts stand-in start their own)."""
    return shared_server


def food_names(driver):
    return driver.execute_script("return [...document.querySelectorAll('#food-list .food-name')].map(e => e.textContent.trim())")


def test_add_a_food_with_errors_shown_and_input_kept(driver, server):
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/foods"))
    assert "No foods yet" in css(driver, "#empty-foods").text
    screenshot(driver, "foods-empty")
    axe_check(driver, "foods-empty")
    css(driver, "a[href='/foods/new']").click()
    wait_for(driver, lambda d: d.current_url.endswith("/foods/new"))
    # Side by side (on a wide screen; a phone stacks them), a field's hint sits under its input:
    # "Serving size" and "Serving name" (which has a hint) line up.
    set_viewport(driver, *SIZES["desktop"])
    size, label = css(driver, "#field-servingSize"), css(driver, "#field-servingLabel")
    assert size.rect["x"] != label.rect["x"], ("side by side on a wide screen", size.rect, label.rect)
    assert size.rect["y"] == label.rect["y"], (size.rect, label.rect)
    assert css(driver, "#field-servingLabel-hint").rect["y"] > label.rect["y"], "the hint under the input"
    set_viewport(driver, *SIZES["phone"])
    css(driver, "#field-protein").send_keys("-3")
    css(driver, "#field-fat").send_keys("abc")
    css(driver, "#field-barcode").send_keys("5449000011527")
    css(driver, "#food-form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "field-name-error"))
    assert "required" in css(driver, "#field-name-error").text
    assert "number" in css(driver, "#field-fat-error").text
    assert css(driver, "#field-barcode").get_attribute("value") == "5449000011527"
    screenshot(driver, "food-form-errors")
    axe_check(driver, "food-form-errors")

    css(driver, "#field-name").send_keys("Orange juice")
    Select(css(driver, "#field-basis")).select_by_value("ml")
    for field, value in [("protein", "0.7"), ("fat", "0.2"), ("carbohydrates", "10")]:
        css(driver, f"#field-{field}").clear()
        css(driver, f"#field-{field}").send_keys(value)
    css(driver, "#field-energy").send_keys("188")
    Select(css(driver, "#field-energyUnit")).select_by_value("kJ")
    css(driver, "#field-servingSize").send_keys("250")
    css(driver, "#field-servingLabel").send_keys("1 glass")
    css(driver, "#field-priceAmount").send_keys("2,50")
    css(driver, "#field-pricePackageSize").send_keys("1000")
    css(driver, "input[name=icon][value=drink]").click()
    screenshot(driver, "food-form")
    css(driver, "#food-form button[type=submit]").click()
    # The form posts to /foods too, so wait for the list itself, and only if it never comes read what
    # the form said (read at once, the old page's errors went stale as the new page loaded).
    try:
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#food-list .food"))
    except TimeoutException:
        said = " ".join(e.text for e in all_css(driver, ".field-error, .form-error"))
        raise AssertionError("the food was not saved: " + said)
    card = css(driver, "#food-list .food")
    assert "Orange juice" in card.text and "45 kcal" in card.text and "per 100 ml" in card.text, card.text
    assert "1 glass (250 ml)" in card.text
    assert "€0.25 / 100 ml" in card.text
    assert card.find_element(By.CSS_SELECTOR, "img").get_attribute("src").endswith("/icons/food/drink.svg")


def test_search_as_you_type_and_grid_view(driver, server):
    s = api_session(server)
    for name, icon in [("Greek yogurt", "milk"), ("Oat milk", "milk"), ("Whole milk", "milk"), ("Rye bread", "bread"), ("Peanuts", "nut")]:
        create_food(s, server, name=name, icon=icon, per100={"energyKcal": 100, "protein": 5, "carbohydrates": 10, "fat": 4})
    sign_in(driver, server)
    driver.get(server.url("/foods"))
    screenshot(driver, "foods")
    results = axe_check(driver, "foods")
    # Each card's title is a heading one level under the page's (no h3 straight under the h1).
    assert not [v for v in results["violations"] if v["id"] == "heading-order"], "headings skip a level"
    mark_page(driver)
    css(driver, "#food-q").send_keys("milk")
    wait_for(driver, lambda d: food_names(d) == ["Oat milk", "Whole milk"])
    css(driver, "#food-q").send_keys("x")
    wait_for(driver, lambda d: d.find_elements(By.ID, "no-food-match"))
    assert page_was_not_reloaded(driver)
    # Search matches the start of any word of the name or brand.
    css(driver, "#food-q").send_keys(Keys.CONTROL, "a")
    css(driver, "#food-q").send_keys("yog")
    wait_for(driver, lambda d: food_names(d) == ["Greek yogurt"])
    css(driver, "#food-q").send_keys(Keys.CONTROL, "a")
    css(driver, "#food-q").send_keys(Keys.BACKSPACE)
    wait_for(driver, lambda d: len(food_names(d)) == 5)

    css(driver, "input[name=view][value=grid]").click()
    wait_for(driver, lambda d: "grid" in css(d, "#food-list").get_attribute("class"))
    screenshot(driver, "foods-grid")
    driver.get(server.url("/foods"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#food-list.grid"), message="the grid choice is remembered")


def test_open_food_facts_search_and_import(driver, start_server, off):
    server = start_server(FORKCAST_OPENFOODFACTS_URL=off.url, FORKCAST_CONTACT="tests@example.com")
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/foods"))
    css(driver, "#off-q").send_keys("fanta")
    css(driver, "#off-form button").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#off-list .picker-item"))
    assert "Fanta Orange" in css(driver, "#off-list").text
    screenshot(driver, "foods-openfoodfacts-results")
    axe_check(driver, "foods-openfoodfacts-results")

    # By barcode: the product comes with its nutrition (kJ only in the original) and serving.
    css(driver, "#off-q").clear()
    css(driver, "#off-q").send_keys("5449000011527")
    css(driver, "#off-form button").click()
    wait_for(driver, lambda d: "27 kcal" in css(d, "#off-results").text)
    css(driver, "#off-list button[type=submit]").click()
    wait_for(driver, lambda d: "/edit" in d.current_url)
    assert "from Open Food Facts" in css(driver, ".flash").text
    assert css(driver, "#field-name").get_attribute("value") == "Fanta Orange"
    css(driver, "#field-name").clear()
    css(driver, "#field-name").send_keys("Fanta (can)")
    css(driver, "#food-form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.split("#")[0].endswith("/foods"))
    card = css(driver, "#food-list .food")
    assert "Fanta (can)" in card.text and "Open Food Facts" in card.text and "330 ml" in card.text
    assert all(ua == "Forkcast/0.3.0 (tests@example.com)" for _, ua in off.requests)
    assert any("fields=" in path for path, _ in off.requests if "/product/" in path)


def test_fill_the_form_from_a_barcode(driver, start_server, off):
    server = start_server(FORKCAST_OPENFOODFACTS_URL=off.url)
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/foods/new"))
    css(driver, "#field-barcode").send_keys("737628064502")
    css(driver, "[data-lookup-barcode]").click()
    wait_for(driver, lambda d: "Filled in" in css(d, "#barcode-status").text)
    assert css(driver, "#field-name").get_attribute("value").startswith("Thai peanut noodle kit")
    assert css(driver, "#field-energy").get_attribute("value") == "385"
    assert css(driver, "#field-servingSize").get_attribute("value") == "52"
    css(driver, "#food-form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.split("#")[0].endswith("/foods"))
    assert "Thai peanut" in css(driver, "#food-list").text


def test_offline_open_food_facts_says_so_and_local_foods_still_work(driver, server):
    s = api_session(server)
    create_food(s, server, name="Rice", per100={"energyKcal": 130, "protein": 2.7, "carbohydrates": 28, "fat": 0.3})
    sign_in(driver, server)
    driver.get(server.url("/foods"))
    css(driver, "#off-q").send_keys("rice")
    css(driver, "#off-form button").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "off-unavailable"), timeout=20)
    assert "cannot be reached" in css(driver, "#off-unavailable").text
    css(driver, "#food-q").send_keys("ric")
    wait_for(driver, lambda d: food_names(d) == ["Rice"])


def test_meal_ingredients_have_live_totals_and_the_planner_adds_them_up(driver, server):
    s = api_session(server)
    create_food(s, server, name="Rolled oats", per100={"energyKcal": 372, "protein": 13, "carbohydrates": 60, "fat": 7},
                price={"amount": 2, "per": "package", "packageSize": 1000}, icon="grain")
    create_food(s, server, name="Whole milk", basis="ml", per100={"energyKcal": 64, "protein": 3.4, "carbohydrates": 4.8, "fat": 3.6},
                serving={"size": 250, "label": "1 glass"}, price={"amount": 1, "per": "package", "packageSize": 1000}, icon="milk")
    sign_in(driver, server)
    driver.get(server.url("/meals/new"))
    css(driver, "#field-description").send_keys("Porridge")
    css(driver, "#field-servings").clear()
    css(driver, "#field-servings").send_keys("2")
    css(driver, "#ingredient-food-1").send_keys("Rolled oats")
    css(driver, "#ingredient-qty-1").send_keys("100")
    css(driver, "#ingredient-food-2").send_keys("Whole milk")
    css(driver, "#ingredient-qty-2").send_keys("1.6")
    Select(css(driver, "#ingredient-unit-2")).select_by_value("serving")
    wait_for(driver, lambda d: "314 kcal" in css(d, "#meal-totals").text, message="live totals")
    text = css(driver, "#meal-totals").text
    assert "P 13 g" in text and "€0.30" in text and "628 kcal" in text, text
    screenshot(driver, "meal-form-ingredients")
    axe_check(driver, "meal-form-ingredients")
    css(driver, "[data-add-ingredient]").click()
    assert len(all_css(driver, "[data-ingredient-row]")) == 4
    css(driver, "#meal-form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.split("#")[0].endswith("/meals"))
    card = css(driver, "#meal-list .meal")
    assert "314 kcal" in card.text and "€0.30" in card.text

    meal = s.get(server.url("/api/v1/meals")).json()["items"][0]
    assert [i["food"]["name"] for i in meal["ingredients"]] == ["Rolled oats", "Whole milk"]
    driver.get(server.url("/plan?start=2026-11-23"))
    mark_page(driver)
    css(driver, "#day-2026-11-23 [data-pick-day]").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picker-results [data-pick-form]"))
    css(driver, "#picker-results button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "day-2026-11-23-totals"))
    assert "314 kcal" in css(driver, "#day-2026-11-23-totals").text
    wait_for(driver, lambda d: d.find_elements(By.ID, "week-totals") and "314 kcal" in css(d, "#week-totals").text)
    assert page_was_not_reloaded(driver)
    screenshot(driver, "planner-totals")
    axe_check(driver, "planner-totals")
    set_dark(driver, True)
    screenshot(driver, "planner-totals-dark")
    axe_check(driver, "planner-totals-dark")


def test_a_meal_without_ingredients_takes_typed_nutrition_without_javascript(server):
    """The no-JavaScript form: ingredients by name, or nutrition typed in."""
    s = api_session(server)
    create_food(s, server, name="Eggs", per100={"energyKcal": 143, "protein": 12.6, "carbohydrates": 0.7, "fat": 9.5},
                serving={"size": 50, "label": "1 egg"})
    web = requests.Session()
    page = web.get(server.url("/login")).text
    token = page.split('name="_csrf" value="')[1].split('"')[0]
    web.post(server.url("/login"), data={"_csrf": token, "email": server.email, "password": "correct horse"})
    token = web.get(server.url("/meals")).text.split('name="csrf-token" content="')[1].split('"')[0]  # a new session, a new token
    r = web.post(server.url("/meals"), data=[("_csrf", token), ("description", "Omelette"), ("servings", "1"),
                                              ("ingredientFood", "eggs"), ("ingredientFoodId", ""), ("ingredientQuantity", "3"),
                                              ("ingredientUnit", "serving")])
    assert r.status_code == 200 and "Omelette" in r.text, r.status_code
    r = web.post(server.url("/meals"), data=[("_csrf", token), ("description", "Pizza"), ("nutrition.energyKcal", "850"),
                                              ("ingredientFood", "Unknown food"), ("ingredientQuantity", "1"), ("ingredientUnit", "g")])
    assert r.status_code == 422 and "No food called" in r.text
    r = web.post(server.url("/meals"), data=[("_csrf", token), ("description", "Pizza"), ("nutrition.energyKcal", "850")])
    assert r.status_code == 200
    meals = {m["description"]: m for m in s.get(server.url("/api/v1/meals")).json()["items"]}
    assert meals["Omelette"]["perServing"]["energyKcal"] == 214.5
    assert meals["Pizza"]["perServing"]["energyKcal"] == 850
