"""Offline entries in real Chromium: a photo waiting offline is kept until the server has it or the
person discards it; a plate is saved whole or not at all, sent as its rows show (servings
and a name left to the server), never split across two pushes; and the planner's "Add a meal"
dialog saves the slot chosen under "For". The server really stops and starts again."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import (all_css, api_session, axe_check, click_suggestion, create_meal, css, make_driver,
                     screenshot, sign_in, wait_for, create_food)
from conftest import ROOT
from offline_pages import (alert, entries_on, kept_for_offline, outbox, script_errors, start_with_signup,
                           wait_for_outbox_round, watch_page)

PHOTOS = os.path.join(ROOT, "Tests", "Fixtures", "photos")
A = "ana@example.com"


@pytest.fixture
def server(shared_server):
    """The module's server, for the tests that do not stop it; each test has an account of its own."""
    return shared_server


def test_a_photo_waiting_offline_is_kept_until_sent_or_discarded(data_dir):
    """Two photos wait offline. When the server is back, this page's CSRF token is stale (403): both
    stay. With a fresh page the photo is saved; the file the server refuses stays with the server's
    reason and a Discard button."""
    server = start_with_signup(data_dir)
    driver = make_driver("phone")
    watch_page(driver)
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        not_a_photo = os.path.join(data_dir, "not-a-photo.jpg")
        with open(not_a_photo, "w") as f:
            f.write("this is a shopping list, not a photo\n" * 20)
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary"])

        server.go_offline()
        for path in [os.path.join(PHOTOS, "photo.webp"), not_a_photo]:
            css(driver, "#capture-file").send_keys(path)
            wait_for(driver, lambda d: css(d, "#capture-save").is_enabled())
            css(driver, "#capture-save").click()
            wait_for(driver, lambda d: "No connection" in css(d, "#capture-status").text, timeout=15)
            driver.execute_script("document.getElementById('capture-status').textContent = ''")
        wait_for(driver, lambda d: len([i for i in outbox(d) if i["hasPhoto"]]) == 2)
        # The page's token goes stale (signed in again elsewhere): uploads answer 403.
        driver.execute_script("document.querySelector('meta[name=\"csrf-token\"]').content = 'stale-token'")

        server.start()
        wait_for(driver, lambda d: css(d, "#sync-status").get_attribute("data-state") == "failed", timeout=30,
                 message="the refused upload is reported")
        assert len([i for i in outbox(driver) if i["hasPhoto"]]) == 2, "a photo was deleted on a 403"
        assert "Not sent yet: Photo" in css(driver, "#sync-status").text, css(driver, "#sync-status").text
        wait_for_outbox_round(driver, message="another round of the outbox")
        assert len([i for i in outbox(driver) if i["hasPhoto"]]) == 2, "still kept after another round"
        assert entries_on(s, server, today) == []

        # A fresh page (a fresh token): the photo goes; the text file is refused and stays.
        driver.refresh()
        wait_for(driver, lambda d: len(entries_on(s, server, today)) == 1, timeout=30, message="the photo is saved")
        entry = entries_on(s, server, today)[0]
        assert entry["kind"] == "photo" and entry["photo"], entry
        wait_for(driver, lambda d: all_css(d, "#outbox-held [data-discard]"), timeout=15, message="the refused file is shown")
        # The panel is drawn again as the outbox's rounds end: read it whole, again if it was swapped.
        held = wait_for(driver, lambda d: next((e.text for e in all_css(d, "#outbox-held") if e.text), None),
                        message="the refused file's panel")
        remaining = outbox(driver)
        assert len(remaining) == 1 and remaining[0]["hasPhoto"] and remaining[0]["refused"]["detail"], remaining
        assert remaining[0]["refused"]["detail"] in held, "the server's reason is shown"
        assert "Not saved" in css(driver, "#sync-status").text
        screenshot(driver, "seams-photo-refused")

        # Discard asks, then removes it.
        css(driver, "#outbox-held [data-discard]").click()
        question = alert(driver)
        assert "only on this device" in question.text
        question.accept()
        wait_for(driver, lambda d: not d.find_elements(By.ID, "outbox-held"))
        assert outbox(driver) == []
        wait_for_outbox_round(driver, message="a round of the outbox after the discard")
        assert len(entries_on(s, server, today)) == 1
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


RECORD_PUSHES = """
window.__pushes = [];
const original = window.fetch;
window.fetch = function (url, init) {
  if (String(url).includes("/api/v1/sync/push")) window.__pushes.push(JSON.parse(init.body));
  return original.apply(this, arguments);
};
"""


def test_an_offline_plate_is_saved_whole_or_not_at_all(data_dir):
    """A plate logged offline goes out as one group; when one of its foods was deleted meanwhile,
    none of it is saved, and the page shows the plate as one refused change to discard."""
    server = start_with_signup(data_dir)
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        rye = create_food(s, server, name="Rye bread", per100={"energyKcal": 250}, serving={"size": 40, "label": "1 slice"})
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary/add?mealType=lunch", "/diary"])
        driver.get(server.url("/diary/add?mealType=lunch"))
        field = css(driver, "#ingredient-food-1")
        field.send_keys("Rye")
        wait_for(driver, lambda d: any("Rye bread" in o.text for o in all_css(d, "#ingredient-rows .suggestion")))
        click_suggestion(driver, "#ingredient-rows .suggestion", "Rye bread")
        css(driver, "#field-quick\\.name").send_keys("Apple")
        css(driver, "#field-quick\\.energyKcal").send_keys("95")
        # Meanwhile another device deletes the bread.
        assert s.delete(server.url(f"/api/v1/foods/{rye['id']}")).status_code == 204

        server.go_offline()
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "2 items are kept on this device" in css(d, "#form-message").text)
        queued = outbox(driver)
        assert len(queued) == 2 and len({i.get("group") for i in queued}) == 1 and queued[0].get("group"), queued
        driver.execute_script(RECORD_PUSHES)

        server.start()
        wait_for(driver, lambda d: all_css(d, "#outbox-held [data-discard]"), timeout=30, message="the refused plate is shown")
        pushes = driver.execute_script("return window.__pushes")
        sent = [m for p in pushes for m in p["mutations"]]
        assert len(sent) == 2 and len({m.get("group") for m in sent}) == 1 and sent[0].get("group"), sent
        assert entries_on(s, server, today) == [], "part of the plate was saved"
        rows = all_css(driver, "#outbox-held li")
        assert len(rows) == 1, "the plate is one change"
        assert "Rye bread" in rows[0].text and "Apple" in rows[0].text
        assert "Not saved" in css(driver, "#sync-status").text
        assert len(outbox(driver)) == 2 and all(i["refused"] for i in outbox(driver))
        screenshot(driver, "seams-plate-refused")
        axe_check(driver, "seams-plate-refused")
        rows[0].find_element(By.CSS_SELECTOR, "[data-discard]").click()
        alert(driver).accept()
        # The outbox is emptied first, then the page redraws without the refused plate.
        wait_for(driver, lambda d: outbox(d) == [] and not all_css(d, "#outbox-held"), message="the plate is discarded")
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


def test_an_offline_plate_sends_what_its_rows_show_and_leaves_servings_and_name_to_the_server(data_dir):
    """Offline, the page sends what the rows show and nothing it decided: a food row with an amount
    typed with a decimal comma, in the unit the page filled in (grams), a meal without servings, a
    quick add without a name, its calories as typed. The server's rules make them 37.5 g of bread,
    one serving of the meal, and a "Quick add" of 95.5 kcal, as online."""
    server = start_with_signup(data_dir)
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        create_food(s, server, name="Rye bread", per100={"energyKcal": 250}, serving={"size": 40, "label": "1 slice"})
        assert s.post(server.url("/api/v1/meals"), json={"description": "Bread roll", "nutrition": {"energyKcal": 120}}).status_code == 201
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary/add?mealType=lunch", "/diary"])
        driver.get(server.url("/diary/add?mealType=lunch"))
        css(driver, "#ingredient-food-1").send_keys("Rye")
        wait_for(driver, lambda d: any("Rye bread" in o.text for o in all_css(d, "#ingredient-rows .suggestion")))
        click_suggestion(driver, "#ingredient-rows .suggestion", "Rye bread")
        wait_for(driver, lambda d: css(d, "#ingredient-qty-1").get_attribute("value") == "40")
        css(driver, "#ingredient-qty-1").clear()
        css(driver, "#ingredient-qty-1").send_keys("37,5")
        Select(css(driver, "#field-mealId")).select_by_visible_text("Bread roll")
        css(driver, "#field-mealServings").clear()
        css(driver, "#field-quick\\.energyKcal").send_keys("95,5")

        server.go_offline()
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "3 items are kept on this device" in css(d, "#form-message").text)
        records = sorted((i["record"] for i in outbox(driver)), key=lambda r: sorted(r))
        bread = next(r for r in records if "foodId" in r)
        assert (bread["quantity"], bread["unit"]) == ("37,5", "g"), bread
        assert next(r for r in records if "quickAdd" in r)["quickAdd"] == {"energyKcal": "95,5"}, records
        assert not any("servings" in r or "name" in r for r in records), records
        assert not any("quantity" in r or "unit" in r for r in records if "foodId" not in r), records
        names = sorted(i["display"]["name"] for i in outbox(driver))
        assert names == ["Bread roll", "Quick add", "Rye bread"], names

        server.start()
        wait_for(driver, lambda d: outbox(d) == [], timeout=30, message="the plate was sent")
        logged = {e["name"]: e for e in entries_on(s, server, today)}
        assert sorted(logged) == ["Bread roll", "Quick add", "Rye bread"], logged
        assert (logged["Rye bread"]["quantity"], logged["Rye bread"]["unit"]) == (37.5, "g"), logged["Rye bread"]
        assert (logged["Bread roll"]["quantity"], logged["Bread roll"]["unit"]) == (1, "serving"), logged["Bread roll"]
        assert logged["Quick add"]["nutrients"]["energyKcal"] == 95.5, logged["Quick add"]
        assert all(e["group"] == "lunch" for e in logged.values())
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


def test_a_plate_is_never_split_across_two_pushes(data_dir):
    """499 changes wait, then a plate of two: the first push takes the 499 (the plate does not fit
    under the push limit of 500), the next one the whole plate; everything is saved once."""
    server = start_with_signup(data_dir)
    driver = make_driver("desktop")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        assert s.post(server.url("/api/v1/meals"), json={"description": "Bread roll", "nutrition": {"energyKcal": 120}}).status_code == 201
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary/add?mealType=lunch", "/diary"])

        server.go_offline()  # offline for a long time: 499 changes wait
        driver.get(server.url("/diary/add?mealType=lunch"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
        fillers = [{"record": {"date": "2020-01-01", "mealType": "snack", "quickAdd": {"energyKcal": 1}, "name": f"Filler {n}"},
                    "display": {"name": f"Filler {n}", "amount": "quick add, 1 kcal", "date": "2020-01-01", "mealType": "snack"}}
                   for n in range(499)]
        driver.execute_async_script("""
            const [entries, done] = arguments;
            import("/js/offline.js").then((m) => m.queueEntries(entries)).then(() => done(true), (e) => done(String(e)));
        """, fillers)
        # The plate: a meal from the library and a quick add, two items.
        Select(css(driver, "#field-mealId")).select_by_visible_text("Bread roll")
        css(driver, "#field-quick\\.name").send_keys("Soup")
        css(driver, "#field-quick\\.energyKcal").send_keys("200")
        assert len(outbox(driver)) == 499
        driver.execute_script(RECORD_PUSHES)
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "2 items are kept on this device" in css(d, "#form-message").text)

        server.start()
        wait_for(driver, lambda d: outbox(d) == [], timeout=90, message="everything was sent")
        pushes = driver.execute_script("return window.__pushes")
        assert all(len(p["mutations"]) <= 500 for p in pushes)
        groups = {}
        for n, p in enumerate(pushes):
            for m in p["mutations"]:
                if m.get("group"):
                    groups.setdefault(m["group"], set()).add(n)
        assert groups and all(len(pushed_in) == 1 for pushed_in in groups.values()), f"a group was split: {groups}"
        assert len(entries_on(s, server, "2020-01-01")) == 499
        assert sorted(e["name"] for e in entries_on(s, server, today)) == ["Bread roll", "Soup"]
    finally:
        driver.quit()
        server.stop()


def test_the_planner_dialog_saves_the_chosen_meal_slot(driver, server):
    """"Add a meal" with For: Dinner saves the assignment for Dinner, and the card says so."""
    s = api_session(server)
    create_meal(s, server, "Chicken curry", "Chicken", "Rice")
    dinner = next(t for t in s.get(server.url("/api/v1/meal-types")).json() if t["key"] == "dinner")
    sign_in(driver, server)
    driver.get(server.url("/plan?start=2026-11-23"))
    monday = lambda d: css(d, "#day-2026-11-23")
    monday(driver).find_element(By.CSS_SELECTOR, "[data-pick-day]").click()
    wait_for(driver, lambda d: css(d, "#picker-dialog").get_attribute("open") is not None)
    Select(css(driver, "#picker-slot")).select_by_visible_text(dinner["displayName"])
    wait_for(driver, lambda d: len(all_css(d, "#picker-results [data-pick-form]")) == 1)
    css(driver, "#picker-results button[type=submit]").click()
    wait_for(driver, lambda d: css(d, "#picker-dialog").get_attribute("open") is None)
    wait_for(driver, lambda d: "Chicken curry" in monday(d).text)
    plan = s.get(server.url("/api/v1/plan?start=2026-11-23&days=1")).json()
    assignments = plan["days"][0]["assignments"]
    assert [(a["meal"]["description"], a.get("mealType")) for a in assignments] == [("Chicken curry", dinner["key"])], assignments
    card = monday(driver).find_element(By.CSS_SELECTOR, ".planned-meal")
    assert card.find_element(By.CSS_SELECTOR, ".slot-label").get_attribute("textContent") == dinner["displayName"]
    # After a reload too (the saved plan, not just the swapped-in day).
    driver.refresh()
    assert monday(driver).find_element(By.CSS_SELECTOR, ".planned-meal .slot-label").get_attribute("textContent") == dinner["displayName"]
