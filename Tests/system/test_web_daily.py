"""In real Chromium: the plate in a few taps, Today's plan, correcting entries, and logging
offline through the outbox and the sync push (the server really stops and starts again)."""
import datetime

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import (Taps, all_css, api_session, axe_check, browser_errors, css, make_driver,
                     screenshot, sign_in, wait_for, create_food)
from offline_pages import kept_for_offline
from conftest import Server, base_env, login


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own (the offline one its own server)."""
    return shared_server


def test_breakfast_of_two_foods_in_at_most_six_taps(driver, server):
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    yesterday = (datetime.date.fromisoformat(today) - datetime.timedelta(days=1)).isoformat()
    oats = create_food(s, server, name="Oats, rolled, dry (old-fashioned)", per100={"energyKcal": 379, "protein": 13},
                       serving={"size": 40, "label": "1 bowl"})
    milk = create_food(s, server, name="Milk, reduced fat, fluid, 2% milkfat", basis="ml", per100={"energyKcal": 50})
    create_food(s, server, name="Yogurt, Greek, plain, nonfat", per100={"energyKcal": 59, "protein": 10.2})
    # Eaten before, so they are the usual foods.
    r = s.post(server.url("/api/v1/diary/plate"), json={"loggedAt": yesterday + "T07:00:00Z", "mealType": "breakfast", "items": [
        {"foodId": oats["id"], "quantity": 1, "unit": "serving"}, {"foodId": milk["id"], "quantity": 200, "unit": "ml"}]})
    assert r.status_code == 201, r.text
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    taps = Taps()

    # From Today: Add to breakfast, two usual foods, Log it — 4 taps, one page load for the plate.
    taps.tap(css(driver, "#group-breakfast a[href^='/diary/add']"))
    wait_for(driver, lambda d: "/diary/add" in d.current_url)
    wait_for(driver, lambda d: css(d, ".usual-foods").is_displayed(), message="usual foods offered first")
    assert Select(css(driver, "#field-mealType")).first_selected_option.get_attribute("value") == "breakfast"
    taps.tap(css(driver, f".food-chip[data-food-id='{oats['id']}']"))
    taps.tap(css(driver, f".food-chip[data-food-id='{milk['id']}']"))
    wait_for(driver, lambda d: "On the plate (2 items)" in css(d, "#plate-totals").text, message="live totals")
    assert taps.count == 3, "Add and two chips: with Log it, breakfast of two usual foods is 4 taps (docs/daily-use.md)"
    assert "252 kcal" in css(driver, "#plate-totals").text, "the amounts last eaten: one 40 g bowl (151.6) + 200 ml milk (100)"
    assert css(driver, "#ingredient-qty-2").get_attribute("value") == "200", "the row shows the amount"
    assert Select(css(driver, "#ingredient-unit-2")).first_selected_option.text == "ml", "and the unit it means"
    assert Select(css(driver, "#ingredient-unit-1")).first_selected_option.text == "× 1 bowl (40 g)", "a serving says its name and size"
    screenshot(driver, "plate-usual")
    axe_check(driver, "plate-usual")

    # A third food found from inside a word, through the search list (not the browser's list).
    field = css(driver, "#ingredient-food-3") if all_css(driver, "#ingredient-food-3") else None
    if field is None:
        css(driver, "[data-add-ingredient]").click()
        field = css(driver, "#ingredient-food-3")
    taps.tap(field)
    field.send_keys("gurt")
    wait_for(driver, lambda d: any("Yogurt" in o.text for o in all_css(d, "#ingredient-rows .suggestion")), message="search inside words")
    taps.tap(next(o for o in all_css(driver, "#ingredient-rows .suggestion") if "Yogurt" in o.text))
    # The quick add counts as plate content.
    css(driver, "#field-quick\\.energyKcal").send_keys("30")
    wait_for(driver, lambda d: "(4 items)" in css(d, "#plate-totals").text)
    taps.tap(css(driver, "#plate-form button[type=submit]"))
    wait_for(driver, lambda d: "/diary/add" not in d.current_url)
    group = css(driver, "#group-breakfast").text
    assert "Oats, rolled" in group and "Milk, reduced fat" in group and "Yogurt, Greek" in group and "Quick add" in group
    assert taps.count <= 6, f"two usual foods and a searched third one took {taps.count} taps"
    day = s.get(server.url(f"/api/v1/diary?date={today}")).json()
    breakfast = next(g for g in day["entries"] if g["mealType"] == "breakfast")["entries"]
    amounts = {e["name"]: (e["quantity"], e["unit"]) for e in breakfast}
    assert amounts[oats["name"]] == (1, "serving") and amounts[milk["name"]] == (200, "ml"), f"the chips put what was last eaten: {amounts}"

    # Copy yesterday's breakfast in one step (on a day with nothing logged for it).
    driver.get(server.url("/diary"))
    assert not all_css(driver, "#group-breakfast form[action='/diary/copy']"), "breakfast is logged already: no copy offered"
    r = s.post(server.url("/api/v1/diary/entries"), json={"quickAdd": {"energyKcal": 120}, "name": "Toast", "mealType": "lunch", "date": yesterday})
    assert r.status_code == 201
    driver.refresh()
    before = len(s.get(server.url(f"/api/v1/diary?date={today}")).json()["entries"][1]["entries"])
    css(driver, "#group-lunch form[action='/diary/copy'] button").click()
    wait_for(driver, lambda d: "Toast" in css(d, "#group-lunch").text)
    assert len(s.get(server.url(f"/api/v1/diary?date={today}")).json()["entries"][1]["entries"]) == before + 1


def test_todays_plan_logs_in_one_tap_into_its_slot(driver, server):
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    soup = s.post(server.url("/api/v1/meals"), json={"description": "Roasted pumpkin soup with ginger and coconut milk", "nutrition": {"energyKcal": 420}}).json()
    stew = s.post(server.url("/api/v1/meals"), json={"description": "Lentil stew", "nutrition": {"energyKcal": 510}}).json()
    slotted = s.post(server.url("/api/v1/plan/assignments"), json={"mealId": soup["id"], "date": today, "mealType": "dinner"}).json()
    loose = s.post(server.url("/api/v1/plan/assignments"), json={"mealId": stew["id"], "date": today}).json()
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    cards = css(driver, "#planned")
    assert "Dinner" in cards.text and "Roasted pumpkin soup" in cards.text and "2 to log" in cards.text
    screenshot(driver, "today-plan")
    axe_check(driver, "today-plan")
    css(driver, f"#plan-{slotted['id']} button[type=submit]").click()  # one tap
    wait_for(driver, lambda d: "✓ Logged" in css(d, f"#plan-{slotted['id']}").text)
    assert not all_css(driver, f"#plan-{slotted['id']} form"), "not offered again for that day"
    assert "Roasted pumpkin soup" in css(driver, "#group-dinner").text
    # Without a slot the person chooses the meal type beside the button (two taps at most).
    Select(css(driver, f"#log-type-{loose['id']}")).select_by_value("lunch")
    css(driver, f"#plan-{loose['id']} button[type=submit]").click()
    wait_for(driver, lambda d: "Lentil stew" in css(d, "#group-lunch").text)
    assert "all logged" in css(driver, "#planned").text


def test_entries_are_corrected_and_deleting_offers_undo(driver, server):
    s = api_session(server)
    oats = create_food(s, server, name="Oats", per100={"energyKcal": 380}, serving={"size": 40})
    entry = s.post(server.url("/api/v1/diary/entries"), json={"foodId": oats["id"], "quantity": 80, "unit": "g", "mealType": "breakfast"}).json()
    tea = s.post(server.url("/api/v1/diary/entries"), json={"quickAdd": {"energyKcal": 2}, "name": "Tea", "mealType": "dinner"}).json()
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    css(driver, f"#entry-{entry['id']} .entry-link").click()
    wait_for(driver, lambda d: "/edit" in d.current_url)
    axe_check(driver, "entry-edit")
    css(driver, "#field-quantity").clear()
    css(driver, "#field-quantity").send_keys("2")
    Select(css(driver, "#field-unit")).select_by_value("serving")
    Select(css(driver, "#field-mealType")).select_by_value("lunch")
    css(driver, "#entry-form button[type=submit]").click()
    wait_for(driver, lambda d: "/edit" not in d.current_url)
    assert "304 kcal" in css(driver, "#group-lunch").text, "2 × 40 g"

    # Deleting does not ask: the row goes, with Undo for a few seconds; Undo keeps it. While Undo
    # is offered the day's figures already leave it out, and count it again once it is kept.
    lunch_total = lambda d: css(d, "#group-lunch .group-head .kcal").text
    css(driver, f"#entry-{entry['id']} button[type=submit]").click()
    wait_for(driver, lambda d: css(d, "#undo-toast").is_displayed())
    assert "Deleted “Oats” from Lunch." in css(driver, "#undo-toast").text
    assert not css(driver, f"#entry-{entry['id']}").is_displayed()
    wait_for(driver, lambda d: "304 kcal" not in lunch_total(d), message="the lunch total leaves out the entry being deleted")
    screenshot(driver, "undo-delete")
    css(driver, "#undo-toast button").click()
    # Undo and each sent delete redraw the day, so the row is read afresh until it shows.
    wait_for(driver, lambda d: css(d, f"#entry-{entry['id']}").is_displayed(), message="Undo shows the row again")
    wait_for(driver, lambda d: lunch_total(d) == "304 kcal", message="Undo counts it again")
    # Another entry deleted after it, left alone: its delete is sent when its Undo seconds are up,
    # which is after the oats' would have been. Waiting for that delete (not for a fixed time) is
    # waiting past the oats' Undo window too: nothing was sent for them.
    css(driver, f"#entry-{tea['id']} button[type=submit]").click()
    wait_for(driver, lambda d: s.get(server.url(f"/api/v1/diary/entries/{tea['id']}")).status_code == 404, timeout=15,
             message="the delete is sent when Undo's seconds are up")
    wait_for(driver, lambda d: not d.find_elements(By.ID, f"entry-{tea['id']}"))
    assert s.get(server.url(f"/api/v1/diary/entries/{tea['id']}")).status_code == 404
    assert s.get(server.url(f"/api/v1/diary/entries/{entry['id']}")).status_code == 200, "Undo kept the oats past their window"
    wait_for(driver, lambda d: css(d, f"#entry-{entry['id']}").is_displayed(), message="the oats stay on the day")


def test_logging_offline_is_kept_and_sent_when_the_server_is_back(data_dir):
    """Go offline (the server stops), log three things, reload while offline (still pending), come
    back, see them saved and visible from a second session; a later edit from that session wins and
    shows on the open page without a reload."""
    server = Server(base_env(data_dir), data_dir).start()
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        soup = s.post(server.url("/api/v1/meals"), json={"description": "Miso soup", "nutrition": {"energyKcal": 90}}).json()
        planned = s.post(server.url("/api/v1/plan/assignments"), json={"mealId": soup["id"], "date": today, "mealType": "lunch"}).json()
        sign_in(driver, server)
        # Seen once online: the service worker keeps the shell and these pages.
        kept_for_offline(driver, server, ["/diary/add?mealType=snack", "/diary"])

        server.go_offline()
        # 1: a planned meal, one tap.
        css(driver, f"#plan-{planned['id']} button[type=submit]").click()
        wait_for(driver, lambda d: "not yet saved" in css(d, f"#plan-{planned['id']}").text)
        wait_for(driver, lambda d: "1 change waiting" in css(d, "#sync-status").text)
        # 2 and 3: quick adds on the plate page (opened from the cache).
        for name, kcal in [("Apple", "95"), ("Green tea", "2")]:
            driver.get(server.url("/diary/add?mealType=snack"))
            wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
            css(driver, "#field-quick\\.name").send_keys(name)
            css(driver, "#field-quick\\.energyKcal").send_keys(kcal)
            css(driver, "#plate-form button[type=submit]").click()
            wait_for(driver, lambda d: "kept on this device" in css(d, "#form-message").text)
        driver.get(server.url("/diary"))
        wait_for(driver, lambda d: len(all_css(d, ".entry.pending")) == 3)
        screenshot(driver, "offline-pending")
        driver.refresh()  # reload while offline: still there, still pending
        wait_for(driver, lambda d: len(all_css(d, ".entry.pending")) == 3)
        pending = " ".join(e.text for e in all_css(driver, ".entry.pending"))
        assert "Apple" in pending and "Green tea" in pending and "Miso soup" in pending and "not yet saved" in pending
        assert "3 changes waiting" in css(driver, "#sync-status").text

        server.start()  # back online: same port, same database
        wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".entry.pending"), timeout=30, message="the outbox was sent")
        wait_for(driver, lambda d: "Synced" in css(d, "#sync-status").text, timeout=10)
        wait_for(driver, lambda d: "Green tea" in css(d, "#group-snack").text, timeout=10)
        screenshot(driver, "offline-synced")

        # A second session sees them.
        other = requests.Session()
        other.headers.update(login(server))
        day = other.get(server.url(f"/api/v1/diary?date={today}")).json()
        names = {e["name"]: g["mealType"] for g in day["entries"] for e in g["entries"]}
        assert names == {"Miso soup": "lunch", "Apple": "snack", "Green tea": "snack"}
        tea = next(e for g in day["entries"] for e in g["entries"] if e["name"] == "Green tea")

        # The second session edits the entry; the open page follows without a reload (event stream).
        driver.execute_script("window.__sameDocument = true")
        r = other.put(server.url(f"/api/v1/diary/entries/{tea['id']}"), json={"quickAdd": {"energyKcal": 3}, "name": "Sencha"})
        assert r.status_code == 200, r.text
        wait_for(driver, lambda d: "Sencha" in css(d, "#group-snack").text, timeout=15, message="another device's change appears")
        assert driver.execute_script("return window.__sameDocument === true"), "no reload"
        # Last write wins: an older edit from a device that was offline longer is superseded.
        stale = other.post(server.url("/api/v1/sync/push"), json={"deviceId": "old-phone", "mutations": [{
            "mutationId": "late-1", "kind": "diaryEntry", "id": tea["id"], "op": "upsert",
            "updatedAt": (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "record": {"quickAdd": {"energyKcal": 2}, "name": "Green tea"}}]}).json()
        assert stale["results"][0]["status"] == "superseded"
        assert other.get(server.url(f"/api/v1/diary/entries/{tea['id']}")).json()["name"] == "Sencha"
        errors = [e for e in browser_errors(driver) if "sync/events" not in e["message"] and "sw.js" not in e["message"]]
        assert not errors, errors
    finally:
        driver.quit()
        server.stop()
