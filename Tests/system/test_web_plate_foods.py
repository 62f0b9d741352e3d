"""The plate's foods, in real Chromium: a new food created on the plate, the catalogue's and Open
Food Facts' answers, a refused plate's matches, the usual-food chips."""
import datetime

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import (all_css, api_session, axe_check, click_suggestion, create_food, css, entries_of,
                     mark_page, page_was_not_reloaded, screenshot, sign_in, Taps, wait_for)
from fake_openfoodfacts import FakeOpenFoodFacts


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own. A test that needs other
    settings, an owner or a server it can stop starts its own (start_server)."""
    return shared_server


def test_a_first_log_of_a_new_food_is_created_on_the_plate_in_at_most_six_taps(driver, server):
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    taps = Taps()
    taps.tap(css(driver, "#group-lunch a[href^='/diary/add']"))
    wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
    mark_page(driver)
    field = css(driver, "#ingredient-food-1")
    taps.tap(field)
    field.send_keys("Oat milk <barista> “édition”")
    create = lambda d: next((b for b in all_css(d, "#ingredient-rows [data-action=create]")), None)
    wait_for(driver, create, message="an unknown name offers Create in place")
    assert all_css(driver, "#ingredient-rows [data-action=openfoodfacts]"), "and a search of Open Food Facts"
    # The list's keys: down into it, up back to the field (the list stays open).
    field.send_keys(Keys.ARROW_DOWN)
    assert driver.switch_to.active_element.get_attribute("data-action") in ("openfoodfacts", "create")
    driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
    assert driver.switch_to.active_element.get_attribute("id") == "ingredient-food-1" and create(driver).is_displayed()
    screenshot(driver, "plate-create-offered")
    taps.tap(create(driver))
    wait_for(driver, lambda d: css(d, "#create-food-dialog").get_attribute("open") is not None)
    assert css(driver, "#create-food-name").get_attribute("value") == "Oat milk <barista> “édition”"
    assert driver.switch_to.active_element.get_attribute("id") == "create-food-energy"
    # The server's rules decide: an implausible number is refused in the dialog, nothing is created.
    css(driver, "#create-food-energy").send_keys("1e308")
    taps_before = taps.count
    css(driver, "#create-food-dialog [type=submit]").click()
    wait_for(driver, lambda d: css(d, "#create-food-problem").is_displayed(), message="a refused food says why")
    assert s.get(server.url("/api/v1/foods")).json()["items"] == []
    css(driver, "#create-food-energy").clear()
    css(driver, "#create-food-energy").send_keys("46")
    css(driver, "#create-food-protein").send_keys("1,2")  # read as typed, by the Foods page's rules
    Select = __import__("selenium.webdriver.support.ui", fromlist=["Select"]).Select
    Select(css(driver, "#create-food-basis")).select_by_value("ml")
    css(driver, "#create-food-servingSize").send_keys("250")
    screenshot(driver, "plate-create-dialog")
    axe_check(driver, "plate-create-dialog")
    taps.count = taps_before
    taps.tap(css(driver, "#create-food-dialog [type=submit]"))
    wait_for(driver, lambda d: css(d, "#create-food-dialog").get_attribute("open") is None)
    wait_for(driver, lambda d: css(d, "#ingredient-rows [name=ingredientFoodId]").get_attribute("value") != "", message="the row holds the new food")
    wait_for(driver, lambda d: "115 kcal" in css(d, "#plate-totals").text, message="its usual portion (250 ml) counted")
    assert page_was_not_reloaded(driver), "the plate was never left"
    taps.tap(css(driver, "#plate-form button[type=submit]"))
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    assert taps.count <= 6, f"a first log of a new food took {taps.count} taps"
    lunch = entries_of(s, server, today, "lunch")
    assert [(e["name"], e["quantity"], e["unit"]) for e in lunch] == [("Oat milk <barista> “édition”", 250, "ml")], "its serving, as the row showed it"
    foods = s.get(server.url("/api/v1/foods")).json()["items"]
    assert [(f["name"], f["basis"], f["per100"]["protein"]) for f in foods] == [("Oat milk <barista> “édition”", "ml", 1.2)]


HOLD_CATALOGUE = """
// The catalogue's answer is held until the test lets it go: the list is then redrawn after the
// person has already found the actions that the answer about their own foods offered.
const real = window.fetch;
window.__catalogueHeld = 0;
let release;
const held = new Promise((resolve) => { release = resolve; });
window.__releaseCatalogue = () => release();
window.fetch = (url, options) => {
  if (String(url).includes("/api/v1/foods/catalog")) {
    window.__catalogueHeld += 1;
    return held.then(() => real(url, options));
  }
  return real(url, options);
};
"""


def test_an_action_found_before_the_catalogue_answers_is_still_the_one_tapped(driver, server):
    # "carr" is none of this person's foods, and the catalogue has carrots: its answer redraws the
    # list with them after the person has found Create. The button found first is the one tapped.
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/diary/add?mealType=lunch"))
    driver.execute_script(HOLD_CATALOGUE)
    field = css(driver, "#ingredient-food-1")
    field.send_keys("carr")
    create = wait_for(driver, lambda d: next(iter(all_css(d, "#ingredient-rows [data-action=create]")), None),
                      message="the answer about your own foods offers Create")
    wait_for(driver, lambda d: d.execute_script("return window.__catalogueHeld") == 1, message="the catalogue was asked")
    assert not all_css(driver, "#ingredient-rows .suggestion[data-catalog]"), "its answer is still held"
    driver.execute_script("window.__releaseCatalogue()")
    wait_for(driver, lambda d: any("Carrots, raw" in b.text for b in all_css(d, "#ingredient-rows .suggestion[data-catalog]")),
             message="the catalogue's answer redrew the list")
    assert create.is_displayed() and create.get_attribute("data-action") == "create", "the Create found before is still shown"
    create.click()
    wait_for(driver, lambda d: css(d, "#create-food-dialog").get_attribute("open") is not None,
             message="tapping the Create found before the redraw opens the dialog")
    assert css(driver, "#create-food-name").get_attribute("value") == "carr"


def test_a_refused_plate_offers_the_matches_and_keeps_what_was_typed(driver, server):
    s = api_session(server)
    create_food(s, server, name="Oat drink, light", basis="ml", per100={"energyKcal": 61})
    create_food(s, server, name="Oat drink, barista", basis="ml", per100={"energyKcal": 59})
    sign_in(driver, server)
    driver.get(server.url("/diary/add?mealType=breakfast"))
    field = css(driver, "#ingredient-food-1")
    field.send_keys("oat drink")
    css(driver, "#field-quick\\.energyKcal").send_keys("30")
    # Logged without picking: two foods match "oat drink" and none is called that.
    css(driver, "#field-quick\\.energyKcal").click()
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "create it" in d.find_element(By.ID, "plate-form").text, message="the refusal says what to do")
    # Read inside the wait: the suggestions are drawn again as answers arrive (a read went stale in CI).
    names = wait_for(driver, lambda d: texts if len(texts := [b.text for b in all_css(d, "#ingredient-rows .suggestion")]) >= 3 else False,
                     message="the matches are offered at once")
    assert any("Oat drink, light" in n for n in names) and any("Oat drink, barista" in n for n in names) and any("Create “oat drink”" in n for n in names), names
    assert css(driver, "#field-quick\\.energyKcal").get_attribute("value") == "30", "the plate is kept"
    screenshot(driver, "plate-refused-matches")
    click_suggestion(driver, "#ingredient-rows .suggestion", "Oat drink, light")
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    assert "Oat drink, light" in css(driver, "#group-breakfast").text


@pytest.fixture
def off():
    with FakeOpenFoodFacts() as fake:
        yield fake


def test_open_food_facts_is_searched_from_the_plate(driver, start_server, off):
    server = start_server(FORKCAST_OPENFOODFACTS_URL=off.url, FORKCAST_CONTACT="tests@example.com")
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/diary/add?mealType=snack"))
    css(driver, "#ingredient-food-1").send_keys("fanta")
    wait_for(driver, lambda d: all_css(d, "#ingredient-rows [data-action=openfoodfacts]"))
    assert not [p for p, _ in off.requests if p.startswith("/cgi/search.pl")], "Open Food Facts is asked only when chosen"
    def choose_open_food_facts(d):
        # The list may be redrawn as the catalogue answers: the action is tapped on the list shown.
        try:
            css(d, "#ingredient-rows [data-action=openfoodfacts]").click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    wait_for(driver, choose_open_food_facts)
    wait_for(driver, lambda d: any("Fanta Orange" in b.text for b in all_css(d, "#ingredient-rows .suggestion[data-off]")), timeout=25,
             message="the real search answer's product is offered in place")
    assert len([p for p, _ in off.requests if p.startswith("/cgi/search.pl")]) == 1, "asked once"
    assert all_css(driver, "#ingredient-rows [data-action=create]"), "create stays offered"
    # The real search answer's product (57045443) has no product page in the fixtures: choosing it
    # asks Open Food Facts for it by barcode and says it was not found; the plate stays.
    next(b for b in all_css(driver, "#ingredient-rows .suggestion[data-off]") if "Fanta Orange" in b.text).click()
    wait_for(driver, lambda d: any(p.startswith("/api/v2/product/57045443") for p, _ in off.requests), message="imported by barcode")
    wait_for(driver, lambda d: "57045443" in css(d, "#announcer").text or "not" in css(d, "#announcer").text.lower())
    assert "/diary/add" in driver.current_url
    # The failure shows under the row, where the person is looking (not only to a screen reader).
    wait_for(driver, lambda d: "could not be added" in css(d, "#ingredient-food-1-problem").text, message="the failure on the row")
    assert css(driver, "#ingredient-food-1").get_attribute("aria-describedby") == "ingredient-food-1-problem"

    # Open Food Facts out of reach: said on the row too.
    # (A second server on the same data, with Open Food Facts at a closed port: the same account,
    # signed in already, as cookies are per host.)
    unreachable = start_server(FORKCAST_OPENFOODFACTS_URL="http://127.0.0.1:9", FORKCAST_CONTACT="tests@example.com")
    driver.get(unreachable.url("/diary/add?mealType=snack"))
    css(driver, "#ingredient-food-1").send_keys("fanta")
    wait_for(driver, choose_open_food_facts)
    wait_for(driver, lambda d: d.find_elements(By.ID, "ingredient-food-1-problem") and css(d, "#ingredient-food-1-problem").text.strip(),
             timeout=25, message="Open Food Facts out of reach, said on the row")


def test_usual_food_chips_follow_the_meal_type(driver, server):
    s = api_session(server)
    today = datetime.date.fromisoformat(s.get(server.url("/api/v1/plan")).json()["today"])
    yogurt = create_food(s, server, name="Yogurt, Greek, plain, nonfat", per100={"energyKcal": 59})
    cheeses = [create_food(s, server, name=n, per100={"energyKcal": 400}) for n in ["Cheddar", "Feta", "Brie", "Gouda", "Edam", "Comté"]]
    for back in range(1, 22):
        day = (today - datetime.timedelta(days=back)).isoformat()
        if back != 7:  # 20 of 21 days, yesterday too
            s.post(server.url("/api/v1/diary/entries"), json={"foodId": yogurt["id"], "quantity": 170, "unit": "g", "mealType": "breakfast", "loggedAt": day + "T07:00:00Z"})
        for cheese in cheeses:  # more often, and later each day, at lunch and dinner
            for meal, hour in [("lunch", 12), ("dinner", 19)]:
                r = s.post(server.url("/api/v1/diary/entries"), json={"foodId": cheese["id"], "quantity": 30, "unit": "g", "mealType": meal, "loggedAt": f"{day}T{hour}:00:00Z"})
                assert r.status_code == 201, r.text
    sign_in(driver, server)
    driver.get(server.url("/diary/add?mealType=breakfast"))
    chips = [c.get_attribute("data-food-id").lower() for c in all_css(driver, ".food-chip")]
    assert chips[0] == yogurt["id"].lower(), "Breakfast leads with what breakfast is"
    # Choosing another meal type on the plate brings that meal's usual foods.
    from selenium.webdriver.support.ui import Select
    Select(css(driver, "#field-mealType")).select_by_value("lunch")
    chip_ids = lambda d: d.execute_script("return [...document.querySelectorAll('.food-chip')].slice(0, 6).map(c => c.dataset.foodId.toLowerCase())")
    wait_for(driver, lambda d: set(chip_ids(d)) == {c["id"].lower() for c in cheeses},
             message="the chips follow the meal type")
    driver.get(server.url("/diary/add?mealType=lunch"))
    chips = [c.get_attribute("data-food-id").lower() for c in all_css(driver, ".food-chip")]
    assert set(chips[:6]) == {c["id"].lower() for c in cheeses}, "Lunch leads with lunch's foods"
