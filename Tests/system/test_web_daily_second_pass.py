"""Daily use (second pass), in real Chromium: pages kept for offline use, a meal found among two
hundred by typing, a plate row's units and the question about a slip, small things a person notices."""
import datetime

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import (all_css, api_session, axe_check, click_suggestion, create_food, create_meal, css,
                     entries_of, make_driver, screenshot, sign_in, upload_photo, wait_for)
from conftest import Server, base_env
from offline_pages import kept_for_offline


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own. A test that needs other
    settings, an owner or a server it can stop starts its own (start_server)."""
    return shared_server


def test_offline_pages_say_they_are_saved_copies_or_not_available(data_dir):
    server = Server(base_env(data_dir), data_dir).start()
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = datetime.date.fromisoformat(s.get(server.url("/api/v1/plan")).json()["today"])
        other_day = (today - datetime.timedelta(days=3)).isoformat()
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary", "/history", "/diary/add?mealType=lunch"])
        wait_for(driver, lambda d: "Synced" in css(d, "#sync-status").text or css(d, "#sync-status").get_attribute("hidden") is not None)
        server.go_offline()
        # A page seen before: its saved copy, saying so and from when.
        driver.get(server.url("/history"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "saved-copy"))
        assert "copy saved on this device" in css(driver, "#saved-copy").text
        # The pill does not say Synced while Forkcast cannot be reached.
        wait_for(driver, lambda d: "Offline" in css(d, "#sync-status").text, message="the pill says offline")
        assert "Synced" not in css(driver, "#sync-status").text.split("·")[0]
        screenshot(driver, "offline-saved-copy")
        # The longer pill wraps inside the header on a phone instead of being cut or widening the page.
        for width in (390, 360):
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            fits = driver.execute_script("""
                const pill = document.getElementById('sync-status').getBoundingClientRect();
                const page = document.documentElement;
                return [pill.left, pill.right, page.clientWidth, page.scrollWidth];""")
            assert fits[0] >= 0 and fits[1] <= fits[2] + 0.5 and fits[3] <= fits[2] + 1, f"the offline pill fits at {width} px: {fits}"
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        # A day never opened is not shown as another day's page.
        driver.get(server.url(f"/diary?date={other_day}"))
        assert "has not been opened on this device" in css(driver, "main").text
        assert not driver.find_elements(By.ID, "meal-groups")
        # The plate for another meal: the form saved on this device, said so.
        driver.get(server.url("/diary/add?mealType=dinner"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
        assert "form as saved on this device" in css(driver, "#saved-copy").text
        server.start()
        driver.get(server.url("/history"))
        assert not driver.find_elements(By.ID, "saved-copy"), "online: the page itself"
    finally:
        driver.quit()
        server.stop()


def test_offline_today_opens_today_and_the_planner_this_week(data_dir):
    """The last day and week looked at are other ones: offline, the Today and Planner tabs still
    open on today and this week (the copies kept of them), and a copy of another day says which."""
    server = Server(base_env(data_dir), data_dir).start()
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = datetime.date.fromisoformat(s.get(server.url("/api/v1/plan")).json()["today"])
        other_day = today - datetime.timedelta(days=7)
        next_week = (today + datetime.timedelta(days=7)).isoformat()
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary", "/plan", f"/diary?date={other_day.isoformat()}", f"/plan?start={next_week}"])
        server.go_offline()
        css(driver, "nav.tabs a[href='/diary']").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "saved-copy"))
        assert css(driver, "meta[name=forkcast-days]").get_attribute("content") == f"{today.isoformat()}/{today.isoformat()}", "Today is today"
        assert "not today" not in css(driver, "#saved-copy").text
        css(driver, "nav.tabs a[href='/plan']").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "saved-copy") and "/plan" in d.current_url)
        start, end = css(driver, "meta[name=forkcast-days]").get_attribute("content").split("/")
        assert start <= today.isoformat() <= end, "the Planner opens on this week"
        # Another day's copy says which day it shows.
        driver.get(server.url(f"/diary?date={other_day.isoformat()}"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "saved-copy"))
        name = f"{other_day.strftime('%A')} {other_day.day} {other_day.strftime('%B')} {other_day.year}"
        assert f"It shows {name}, not today" in css(driver, "#saved-copy").text, css(driver, "#saved-copy").text
        screenshot(driver, "offline-another-day")
    finally:
        driver.quit()
        server.stop()


def test_a_meal_among_two_hundred_is_found_by_typing(driver, server):
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    for n in range(200):
        create_meal(s, server, f"Library meal {n:03d} with a long real-sounding name", "Chicken" if n % 2 else "Tofu", None)
    target = create_meal(s, server, "Shakshuka with feta <and> “harissa”", "Eggs", None)
    sign_in(driver, server)
    driver.get(server.url("/diary/add?mealType=dinner"))
    assert not css(driver, "#field-mealId").is_displayed(), "the 200-option select stands behind a search"
    search = css(driver, "#field-mealId-search")
    assert css(driver, "label[for='field-mealId-search']").text == "Dish"
    axe_check(driver, "plate-meal-search")
    # The keys (shared with the food picker): down into the list and along it, up back to the field, Escape closes.
    search.send_keys("meal 01")
    wait_for(driver, lambda d: len(all_css(d, "#library-meal .suggestion")) == 8)
    focused = lambda: driver.switch_to.active_element
    search.send_keys(Keys.ARROW_DOWN)
    assert "Library meal 010" in focused().text
    focused().send_keys(Keys.ARROW_DOWN)
    assert "Library meal 011" in focused().text
    focused().send_keys(Keys.ARROW_UP)
    focused().send_keys(Keys.ARROW_UP)
    assert focused().get_attribute("id") == "field-mealId-search"
    search.send_keys(Keys.ARROW_DOWN)
    focused().send_keys(Keys.ESCAPE)
    assert focused().get_attribute("id") == "field-mealId-search" and not css(driver, "#library-meal .suggestions").is_displayed()
    search.clear()
    search.send_keys("shaksh")
    wait_for(driver, lambda d: any("Shakshuka" in b.text for b in all_css(d, "#library-meal .suggestion")))
    assert len(all_css(driver, "#library-meal .suggestion")) == 1
    search.send_keys(Keys.ARROW_DOWN)
    focused().send_keys(Keys.ENTER)
    assert css(driver, "#field-mealId").get_attribute("value").lower() == target["id"].lower()
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    day = s.get(server.url(f"/api/v1/diary?date={today}")).json()
    assert [e["name"] for g in day["entries"] for e in g["entries"]] == ["Shakshuka with feta <and> “harissa”"]
    # The plate names its three choosers apart.
    driver.get(server.url("/diary/add?mealType=dinner"))
    labels = [l.text for l in all_css(driver, "#plate-form label") if l.text in ("Meal", "Meal type", "Dish", "Eaten on")]
    assert labels.count("Meal") == 0 and "Meal type" in labels and "Dish" in labels


def test_a_plate_row_says_its_unit_a_plain_number_is_grams_and_a_slip_is_asked_about(driver, server):
    # A new person, on a phone: carrots from the catalogue, "150" typed over what the row shows.
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    sign_in(driver, server)
    driver.get(server.url("/diary/add?mealType=lunch"))
    css(driver, "#ingredient-food-1").send_keys("carrots")
    click_suggestion(driver, "#ingredient-rows .suggestion[data-catalog]", "Carrots, raw")
    wait_for(driver, lambda d: css(d, "#ingredient-qty-1").get_attribute("value") == "128", message="the usual portion, in grams")
    Select = __import__("selenium.webdriver.support.ui", fromlist=["Select"]).Select
    unit = Select(css(driver, "#ingredient-unit-1"))
    assert unit.first_selected_option.text == "g", "the row says the unit its number is in"
    assert "× 1 portion (128 g)" in [o.text for o in unit.options], "a serving is offered by its name and size, to choose"
    named = [o.text for o in unit.options if o.get_attribute("value").startswith("portion:")]
    assert "× 1 portion (61 g)" in named and len(named) >= 5, f"the catalogue's other portions are offered too: {named}"
    amount = css(driver, "#ingredient-qty-1")
    amount.click()
    amount.send_keys("150")
    assert amount.get_attribute("value") == "150", "typing replaces the amount the page filled in"
    wait_for(driver, lambda d: "62 kcal" in css(d, "#plate-totals").text, message="150 g is 61.5 kcal")
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    lunch = entries_of(s, server, today, "lunch")
    assert [(e["name"], e["quantity"], e["unit"]) for e in lunch] == [("Carrots, raw", 150, "g")], lunch

    # 150 servings chosen on purpose: asked once, on the row, before anything is logged.
    driver.get(server.url("/diary/add?mealType=dinner"))
    chip = wait_for(driver, lambda d: next((c for c in all_css(d, ".food-chip") if "Carrots" in c.text), None), message="now a usual food")
    chip.click()
    wait_for(driver, lambda d: css(d, "#ingredient-qty-1").get_attribute("value") == "150", message="the chip puts the amount last eaten")
    Select(css(driver, "#ingredient-unit-1")).select_by_value("serving")
    css(driver, "#plate-form button[type=submit]").click()
    question = "150 servings of Carrots, raw is 7\u202f872 kcal — did you mean 150 g?"
    wait_for(driver, lambda d: question in css(d, "#ingredient-qty-1-error").text, message="the question is on the row")
    assert question in css(driver, "#form-message").text
    assert entries_of(s, server, today, "dinner") == [], "nothing logged before the answer"
    screenshot(driver, "plate-large-amount")
    axe_check(driver, "plate-large-amount")
    confirm = css(driver, "#plate-form button[type=submit]")
    assert confirm.text == "Log it as it is"
    confirm.click()
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    assert [(e["quantity"], e["unit"]) for e in entries_of(s, server, today, "dinner")] == [(150, "serving")]

    # Two of a named portion, chosen: logged as their grams.
    driver.get(server.url("/diary/add?mealType=snack"))
    css(driver, "#ingredient-food-1").send_keys("carrots")
    click_suggestion(driver, "#ingredient-rows .suggestion", "Carrots, raw")
    wait_for(driver, lambda d: any(o.get_attribute("value") == "portion:61" for o in Select(css(d, "#ingredient-unit-1")).options),
             message="the named portions are offered")  # read while they are replaced, options go stale
    Select(css(driver, "#ingredient-unit-1")).select_by_value("portion:61")
    amount = css(driver, "#ingredient-qty-1")
    amount.click()
    amount.send_keys("2")
    wait_for(driver, lambda d: "50 kcal" in css(d, "#plate-totals").text, message="2 × 61 g is 50 kcal")
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    assert [(e["quantity"], e["unit"]) for e in entries_of(s, server, today, "snack")] == [(122, "g")]


def test_small_things_a_person_notices(driver, server):
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    photo = upload_photo(s, server)
    entry = s.post(server.url("/api/v1/diary/entries"), json={"photoId": photo["id"], "mealType": "lunch", "loggedAt": f"{today}T12:05:00Z"}).json()
    sign_in(driver, server)
    # A photo entry named later: the name field starts empty, not with "Photo" to type after.
    driver.get(server.url(f"/diary/entries/{entry['id']}/edit"))
    name = css(driver, "#field-quick\\.name")
    assert name.get_attribute("value") == "" and entry["name"] == "Photo"
    # Times in the browser's own clock, as its locale writes them.
    driver.get(server.url("/history"))
    shown = css(driver, "time[data-clock]").text
    expected = driver.execute_script("return new Date(arguments[0]).toLocaleTimeString([], {hour: 'numeric', minute: '2-digit', timeZone: 'UTC'})",
                                     f"{today}T12:05:00Z")
    assert shown == expected, (shown, expected)
    # The Quick add link takes the focus to its first field.
    driver.get(server.url("/diary/add?mealType=lunch"))
    css(driver, ".jump-links a[href='#quick-add']").click()
    assert driver.switch_to.active_element.get_attribute("id") == "field-quick.name"
    # A changed amount shows what it comes to before saving; nothing is saved until Save.
    oats = create_food(s, server, name="Rolled oats", per100={"energyKcal": 372, "protein": 13})
    logged = s.post(server.url("/api/v1/diary/entries"), json={"foodId": oats["id"], "quantity": 40, "unit": "g", "mealType": "breakfast"}).json()
    driver.get(server.url(f"/diary/entries/{logged['id']}/edit"))
    quantity = css(driver, "#field-quantity")
    quantity.clear()
    quantity.send_keys("100")
    wait_for(driver, lambda d: "With the new amount: 372 kcal" in css(d, "#entry-totals").text, message="the new calories before saving")
    assert s.get(server.url(f"/api/v1/diary/entries/{logged['id']}")).json()["nutrients"]["energyKcal"] == 148.8, "not saved yet"
    # Save buttons are the page's primary ones.
    driver.get(server.url("/diary"))
    assert "primary" in css(driver, "#capture-save").get_attribute("class")
