"""In real Chromium, on a server with no network: a new person finds "Carrots, raw" in the food
catalogue from the plate, logs 150 g in as many taps as one of their own foods, and Today's
Nutrients view shows its nutrients; nutrient targets change on Goals; the week view shows
which nutrients are persistently under or over."""
import datetime

import pytest
from selenium.webdriver.support.ui import Select

from browser import SIZES, all_css, api_session, axe_check, css, screenshot, set_viewport, sign_in, wait_for
from test_web_daily import Taps


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own."""
    return shared_server


def nutrient_row(driver, key):
    return css(driver, f"#nutrients li[data-nutrient='{key}']")


def test_a_catalogue_food_is_logged_from_the_plate_like_your_own(driver, server):
    s = api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    assert "Nothing logged yet" in css(driver, "#nutrients").text
    taps = Taps()
    taps.tap(css(driver, "#group-lunch a[href^='/diary/add']"))
    wait_for(driver, lambda d: "/diary/add" in d.current_url)
    field = css(driver, "#ingredient-food-1")
    taps.tap(field)
    field.send_keys("carrot")
    wait_for(driver, lambda d: any("Carrots, raw" in o.text for o in all_css(d, "#ingredient-rows .suggestion")),
             message="the catalogue's carrots are offered on a fresh account")
    suggestion = next(o for o in all_css(driver, "#ingredient-rows .suggestion") if "Carrots, raw" in o.text)
    assert "USDA" in suggestion.text, "a catalogue food is marked as such"
    screenshot(driver, "plate-catalogue")
    axe_check(driver, "plate-catalogue")
    taps.tap(suggestion)
    wait_for(driver, lambda d: d.find_element("css selector", "#ingredient-rows [name=ingredientFoodId]").get_attribute("value") != "",
             message="the chosen catalogue food becomes one of yours")
    # Its usual portion (1 portion, 128 g) is shown in grams; a tap on the amount and 150 typed over it is 150 g.
    assert css(driver, "#ingredient-qty-1").get_attribute("value") == "128"
    taps.tap(css(driver, "#ingredient-qty-1"))
    css(driver, "#ingredient-qty-1").send_keys("150")
    assert Select(css(driver, "#ingredient-unit-1")).first_selected_option.get_attribute("value") == "g", "the row says grams"
    wait_for(driver, lambda d: "62 kcal" in css(d, "#plate-totals").text, message="live totals: 150 g is 61.5 kcal")
    taps.tap(css(driver, "#plate-form button[type=submit]"))
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    assert taps.count <= 5, f"logging 150 g of a catalogue food took {taps.count} taps"
    assert "Carrots, raw" in css(driver, "#group-lunch").text

    # Today's Nutrients view.
    assert "4.2 g" in nutrient_row(driver, "fiber").text and "/ 28 g" in nutrient_row(driver, "fiber").text
    assert "1252.5 µg" in nutrient_row(driver, "vitaminA").text and "139 %" in nutrient_row(driver, "vitaminA").text
    assert "103.5 mg" in nutrient_row(driver, "sodium").text and "/ 2300 mg" in nutrient_row(driver, "sodium").text
    assert "low" in nutrient_row(driver, "fiber").text, "15 % of the fibre target is flagged"
    screenshot(driver, "today-nutrients")
    axe_check(driver, "today-nutrients")
    day = s.get(server.url("/api/v1/diary")).json()
    assert day["totals"]["energyKcal"] == 61.5 and day["totals"]["carbohydrates"] == 14.37
    assert day["totals"]["fiber"] == 4.2 and day["totals"]["vitaminA"] == 1252.5 and day["totals"]["sodium"] == 103.5
    foods = s.get(server.url("/api/v1/foods")).json()
    assert [f["source"] for f in foods["items"]] == ["usda"], "adopted once"

    # Editing the adopted food on the Foods page keeps its minerals and vitamins.
    food = foods["items"][0]
    driver.get(server.url(f"/foods/{food['id']}/edit"))
    assert css(driver, "#micro-fields").get_attribute("open") is not None, "a food with vitamins shows them"
    assert css(driver, "#field-vitaminA").get_attribute("value") == "835"
    name = css(driver, "#field-name")
    name.clear()
    name.send_keys("Carrots, raw (garden)")
    css(driver, "#food-form button[type=submit]").click()
    wait_for(driver, lambda d: "/edit" not in d.current_url)
    edited = s.get(server.url(f"/api/v1/foods/{food['id']}")).json()
    assert edited["name"] == "Carrots, raw (garden)" and edited["per100"]["vitaminA"] == 835 and edited["catalogId"] == food["catalogId"]
    driver.get(server.url("/diary"))

    # A quick add knows no micronutrients: the view says so instead of counting it as zero.
    r = s.post(server.url("/api/v1/diary/entries"), json={"quickAdd": {"energyKcal": 90}, "name": "Biscuit", "mealType": "snack"})
    assert r.status_code == 201, r.text
    driver.refresh()
    assert "not known for 1 entry" in nutrient_row(driver, "fiber").text
    # The nutrient's page: where it came from, the entry that does not say, and foods rich in it.
    nutrient_row(driver, "fiber").find_element("css selector", ".n-name a").click()
    wait_for(driver, lambda d: "/diary/nutrients/fiber" in d.current_url)
    assert "Carrots, raw — 4.2 g" in css(driver, "#nutrient-from").text, "the entry as it was logged"
    assert "Biscuit" in css(driver, "#nutrient-silent").text, "the quick add that says nothing of fibre is named"
    assert "Carrots, raw (garden)" in css(driver, "#nutrient-yours").text, "your foods rich in it"
    catalogue = css(driver, "#nutrient-catalogue").text
    assert catalogue.count("\n") >= 4 and " g in " in catalogue, catalogue
    screenshot(driver, "nutrient-fibre")
    axe_check(driver, "nutrient-fibre")


def test_targets_change_on_goals_and_the_week_shows_what_is_persistently_low(driver, server):
    s = api_session(server)
    today = datetime.date.fromisoformat(s.get(server.url("/api/v1/plan")).json()["today"])
    food = s.post(server.url("/api/v1/foods"), json={"name": "Salted crackers", "per100": {"energyKcal": 430, "sodium": 900, "fiber": 2}}).json()
    for back in range(5):
        day = (today - datetime.timedelta(days=back)).isoformat()
        r = s.post(server.url("/api/v1/diary/entries"), json={"foodId": food["id"], "quantity": 300, "unit": "g", "mealType": "snack", "date": day})
        assert r.status_code == 201, r.text
    sign_in(driver, server)
    driver.get(server.url("/goals"))
    css(driver, "#targets-details summary").click()
    field = css(driver, "#field-target-sodium")
    assert field.get_attribute("value") == "2300"
    field.clear()
    field.send_keys("1500")
    css(driver, "#targets-form button[type=submit]").click()
    wait_for(driver, lambda d: "Saved your nutrient targets" in d.page_source)
    assert "Changed: Sodium 1500 mg" in css(driver, "#targets-title").find_element("xpath", "..").text
    assert css(driver, "#field-target-sodium").get_attribute("value") == "1500"
    screenshot(driver, "goals-targets")
    axe_check(driver, "goals-targets")
    goals = s.get(server.url("/api/v1/goals")).json()
    assert goals["targets"]["sodium"] == 1500 and goals["targets"]["fiber"] == 28
    # With a body profile the targets are the reference intakes for the person's sex and age.
    born = (today.replace(year=today.year - 36) - datetime.timedelta(days=30)).isoformat()
    r = s.put(server.url("/api/v1/body-profile"), json={"sex": "female", "birthDate": born, "heightCm": 168, "weightKg": 64,
                                                        "activityLevel": "light", "aim": "maintain"})
    assert r.status_code == 200, r.text
    goals = s.get(server.url("/api/v1/goals")).json()
    assert (goals["targets"]["vitaminA"], goals["targets"]["iron"], goals["targets"]["fiber"]) == (700, 18, 25), goals["targets"]
    assert goals["targets"]["sodium"] == 1500, "the person's own target stays"
    driver.refresh()
    assert "reference intake 700 µg" in css(driver, "#field-target-vitaminA").find_element("xpath", "..").get_attribute("textContent")

    driver.get(server.url("/diary"))
    assert "/ 1500 mg" in nutrient_row(driver, "sodium").text and "high" in nutrient_row(driver, "sodium").text
    css(driver, "#nutrients a[href^='/diary/nutrients']").click()
    wait_for(driver, lambda d: "/diary/nutrients" in d.current_url)
    persistent = css(driver, "#persistent").text
    assert "Sodium: over target on 4 of 4 days" in persistent, f"today, not over yet, is left out: {persistent}"
    assert "Fibre: under target on 4 of 4 days" in persistent, persistent
    screenshot(driver, "nutrients-week")
    axe_check(driver, "nutrients-week")
    # At 360 px the days scroll sideways under the nutrient's name, which stays in view; the
    # scroller says it scrolls (its hint class draws a shadow on the side that has more).
    set_viewport(driver, 360)
    scroller = css(driver, ".table-scroll.scroll-hint")
    assert driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth + 40", scroller)
    def place(selector):  # where the element is drawn, read without scrolling anything into view
        return driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.right]", selector)
    name, day = ".nutrient-week tbody tr:first-child th[scope=row]", ".nutrient-week tbody tr:first-child td:last-child"
    driver.execute_script("arguments[0].scrollLeft = 0", scroller)
    name_at, day_at = place(name), place(day)
    assert day_at[0] > 360, "the last day starts out of view"
    driver.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", scroller)
    wait_for(driver, lambda d: place(day)[1] <= 360)
    assert abs(place(name)[0] - name_at[0]) < 1, "the nutrient's name stays where it was"
    assert place(day)[0] >= place(name)[1] - 1, "the last day is beside the name, not under it"
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 360
    screenshot(driver, "nutrients-week-360-scrolled")
    set_viewport(driver, *SIZES[driver.size_name])
    # A bad target is a problem next to its field and changes nothing.
    driver.get(server.url("/goals"))
    css(driver, "#targets-details summary").click()
    field = css(driver, "#field-target-iron")
    field.clear()
    field.send_keys("-4")
    css(driver, "#targets-form button[type=submit]").click()
    wait_for(driver, lambda d: css(d, "#field-target-iron").get_attribute("aria-invalid") == "true")
    assert s.get(server.url("/api/v1/goals")).json()["targets"]["iron"] == 18
