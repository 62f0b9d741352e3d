"""Seed 004 in real Chromium: a photo of a meal in three taps (online and offline, with the server
really stopped and started again), meal-first History, moving an entry to another day only after
asking. Meal types: test_web_meal_types.py."""
import datetime
import os
import zoneinfo

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import (PHOTO, PHOTOS, Taps, all_css, api_session, axe_check, browser_errors, css, make_driver,
                     mark_page, page_was_not_reloaded, screenshot, sign_in, wait_for)
from capture_helpers import image_loaded, snap, type_by_key
from conftest import Server, base_env, login
from offline_pages import entries_on, heard, kept_for_offline, wait_for_outbox_round, watch_page

# Not UTC, so a suggestion worked out in the server's zone instead of the person's would show.
ZONE = "Asia/Kolkata"


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own (the offline one its own server)."""
    return shared_server


def suggested_key(zone=ZONE, at=None):
    """The default windows (seed 004 §5): <11:00 breakfast, 11–14:59 lunch, 15–17:59 afternoon snack, 18+ dinner."""
    hour = (at or datetime.datetime.now(zoneinfo.ZoneInfo(zone))).hour
    return "breakfast" if hour < 11 else "lunch" if hour < 15 else "afternoon-snack" if hour < 18 else "dinner"


def test_a_photo_in_three_taps_then_history_and_counting_it(driver, server):
    s = api_session(server, time_zone=ZONE)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    watch_page(driver)  # Today counts the times it is drawn again
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    expected = suggested_key()
    chosen = Select(css(driver, "#capture-type")).first_selected_option.get_attribute("value")
    if chosen != expected:  # the clock may have crossed a window's end since
        expected = suggested_key()
    assert chosen == expected, f"the type suggested in {ZONE} at this hour is {expected}, the page chose {chosen}"
    name = type_by_key(s, server, expected)["displayName"]
    remaining_before = int(css(driver, "#calories-remaining").text.replace(",", ""))
    assert not all_css(driver, "#uncounted-total")
    mark_page(driver)

    taps = Taps()
    snap(driver, taps)
    screenshot(driver, "capture-preview")
    refreshed = heard(driver)["refreshed"]
    taps.tap(css(driver, "#capture-save"))
    assert taps.count <= 3, f"a photo of a meal took {taps.count} taps"

    # On Today, in the suggested type, not counted, with its thumbnail.
    group = f"#group-{expected}"
    wait_for(driver, lambda d: all_css(d, f"{group} .entry.uncounted"), timeout=15, message="the photo entry shows in its group")
    # The save's own change comes back over the event stream and the day is drawn again: after that.
    wait_for(driver, lambda d: heard(d)["refreshed"] > refreshed, timeout=15, message="the day was drawn again after the save")
    assert page_was_not_reloaded(driver), "saved in place"
    assert f"Saved to {name}. Ready for the next photo." in css(driver, "#capture-status").text, \
        f"the confirmation is still there to read: {css(driver, '#capture-status').text!r}"
    assert not css(driver, "#capture-preview").is_displayed(), "ready for the next photo"
    entry = css(driver, f"{group} .entry.uncounted")
    assert "not counted" in entry.text
    wait_for(driver, lambda d: image_loaded(d, css(d, f"{group} .entry.uncounted img.thumb")), message="its thumbnail loads")
    assert "1 photo not counted yet" in css(driver, ".rings-card").text
    assert int(css(driver, "#calories-remaining").text.replace(",", "")) == remaining_before, "an uncounted photo adds nothing"
    screenshot(driver, "capture-saved")
    axe_check(driver, "capture-saved")
    entries = entries_on(s, server, today)
    assert len(entries) == 1, entries
    photo_entry = entries[0]
    assert photo_entry["kind"] == "photo" and photo_entry["mealType"] == expected and photo_entry["photo"], photo_entry
    assert photo_entry["counted"] is False
    assert s.get(server.url(photo_entry["photo"]["url"])).status_code == 200

    # Ready for the next photo means the capture still works like the first time (script and all).
    css(driver, "#capture-file").send_keys(os.path.join(PHOTOS, "photo.png"))
    wait_for(driver, lambda d: css(d, "#capture-preview").is_displayed(), message="the next photo is shown before saving too")
    driver.get(server.url("/diary"))  # not saved: the chosen photo goes with the page

    # History: the occasion with its thumbnail; it opens, and its entry opens.
    css(driver, "#history-link").click()
    wait_for(driver, lambda d: d.current_url.endswith("/history"))
    occasion = css(driver, ".history-day li.occasion")
    assert css(driver, ".history-day li.occasion .occasion-type").text == name
    assert "1 entry" in occasion.text and "not counted yet" in occasion.text
    wait_for(driver, lambda d: image_loaded(d, css(d, ".history-day li.occasion img.thumb")), message="History shows the thumbnail")
    assert occasion.get_attribute("id") == f"occasion-{photo_entry['occasionId'].lower()}"
    screenshot(driver, "history")
    axe_check(driver, "history")
    css(driver, "li.occasion a.occasion-link").click()
    wait_for(driver, lambda d: f"/history/{photo_entry['occasionId'].lower()}" in d.current_url.lower())
    assert name in css(driver, "h1").text
    link = css(driver, f".occasion-entries a[href='/diary/entries/{photo_entry['id']}/edit' i]")
    link.click()
    wait_for(driver, lambda d: d.current_url.lower().endswith(f"/diary/entries/{photo_entry['id']}/edit".lower()))
    wait_for(driver, lambda d: image_loaded(d, css(d, "img.entry-photo")), message="the edit page shows the photo")
    assert "Not counted yet" in css(driver, "main").text
    screenshot(driver, "photo-entry-edit")
    axe_check(driver, "photo-entry-edit")

    # Count it with a quick add: Today's totals include it now.
    css(driver, "#field-quick\\.energyKcal").send_keys("432")
    css(driver, "#field-quick\\.protein").send_keys("21")
    css(driver, "#save-entry").click()
    wait_for(driver, lambda d: "/diary/entries/" not in d.current_url)
    if "/diary" not in driver.current_url:
        driver.get(server.url("/diary"))
    assert "432 kcal" in css(driver, f"{group} #entry-{photo_entry['id']}").text
    assert not all_css(driver, f"{group} .entry.uncounted") and not all_css(driver, "#uncounted-total")
    assert int(css(driver, "#calories-remaining").text.replace(",", "")) == remaining_before - 432
    assert "Protein 21 / 150 g" in css(driver, ".macro-rings").text, css(driver, ".macro-rings").text
    counted = s.get(server.url(f"/api/v1/diary/entries/{photo_entry['id']}")).json()
    assert counted["counted"] is True and counted["nutrients"]["energyKcal"] == 432 and counted["photo"]["id"] == photo_entry["photo"]["id"], \
        "counting keeps the photo"


def test_moving_an_entry_to_another_day_asks_and_moves_only_it(driver, server):
    s = api_session(server)
    today = datetime.date.fromisoformat(s.get(server.url("/api/v1/plan")).json()["today"])
    day = today - datetime.timedelta(days=2)
    earlier = day - datetime.timedelta(days=1)
    made = []
    for name, at in [("Rice bowl", "12:10"), ("Iced tea", "12:40")]:
        r = s.post(server.url("/api/v1/diary/entries"), json={"quickAdd": {"energyKcal": 300}, "name": name, "mealType": "lunch",
                                                               "loggedAt": f"{day.isoformat()}T{at}:00Z"})
        assert r.status_code == 201, r.text
        made.append(r.json())
    bowl, tea = made
    assert bowl["occasionId"] == tea["occasionId"], "one lunch"
    sign_in(driver, server)

    # A new time on the same day is no move: it saves without asking.
    driver.get(server.url(f"/diary/entries/{bowl['id']}/edit"))
    driver.execute_script("document.getElementById('field-time').value = '13:05'")
    css(driver, "#save-entry").click()
    wait_for(driver, lambda d: "/diary/entries/" not in d.current_url)
    assert s.get(server.url(f"/api/v1/diary/entries/{bowl['id']}")).json()["loggedAt"].startswith(f"{day.isoformat()}T13:05")

    # Another day asks first, and nothing moves until "Move it".
    driver.get(server.url(f"/diary/entries/{bowl['id']}/edit"))
    assert not all_css(driver, "#confirm-move") and css(driver, "#save-entry").text == "Save"
    driver.execute_script("document.getElementById('field-date').value = arguments[0]", earlier.isoformat())
    css(driver, "#save-entry").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-move"), message="a confirmation before moving")
    box = css(driver, "#confirm-move")
    assert "Move this entry to another day?" in box.text and "Rice bowl" in box.text, "the same meal type on another day"
    assert css(driver, "#save-entry").text == "Move it"
    assert css(driver, "#field-date").get_attribute("value") == earlier.isoformat(), "the new day is kept as typed"
    screenshot(driver, "confirm-move")
    axe_check(driver, "confirm-move")
    assert s.get(server.url(f"/api/v1/diary/entries/{bowl['id']}")).json()["date"] == day.isoformat(), "not moved before confirming"
    css(driver, "#save-entry").click()
    # The confirmation answered the form's own address (no /edit): wait for the day it went back to.
    wait_for(driver, lambda d: "/diary/entries/" not in d.current_url, message="moved, back on the day")

    moved = s.get(server.url(f"/api/v1/diary/entries/{bowl['id']}")).json()
    stayed = s.get(server.url(f"/api/v1/diary/entries/{tea['id']}")).json()
    assert moved["date"] == earlier.isoformat() and moved["loggedAt"].startswith(f"{earlier.isoformat()}T13:05"), moved
    assert moved["occasionId"] != tea["occasionId"]
    assert stayed["date"] == day.isoformat() and stayed["loggedAt"] == tea["loggedAt"] and stayed["occasionId"] == tea["occasionId"], stayed
    assert [e["name"] for e in entries_on(s, server, day.isoformat())] == ["Iced tea"]
    assert [e["name"] for e in entries_on(s, server, earlier.isoformat())] == ["Rice bowl"]
    # History shows two lunches now, one per day.
    driver.get(server.url("/history"))
    lunches = [o.text for o in all_css(driver, "li.occasion")]
    assert len(lunches) == 2 and all("Lunch" in t and "1 entry" in t for t in lunches), lunches


def test_a_photo_is_saved_without_javascript_too(server):
    """The capture form is a plain form: without scripts it still saves and comes back to Today."""
    s = api_session(server)
    driver = make_driver("phone", javascript=False)
    try:
        sign_in(driver, server)
        driver.get(server.url("/diary"))
        key = Select(css(driver, "#capture-type")).first_selected_option.get_attribute("value")
        name = Select(css(driver, "#capture-type")).first_selected_option.text
        css(driver, "#capture-file").send_keys(PHOTO)
        mark_page(driver)
        css(driver, "#capture-save").click()
        wait_for(driver, lambda d: not page_was_not_reloaded(d) and d.execute_script("return document.readyState") == "complete",
                 message="the form was sent")
        assert driver.current_url.split("#")[0].endswith("/diary"), \
            f"a browser form gets Today back, not {driver.current_url} showing {css(driver, 'body').text[:120]!r}"
        assert f"Saved a photo to {name}." in css(driver, "main").text
        assert all_css(driver, f"#group-{key} .entry.uncounted img.thumb")
        assert [e["kind"] for e in entries_on(s, server, s.get(server.url("/api/v1/plan")).json()["today"])] == ["photo"]
    finally:
        driver.quit()


def test_a_photo_taken_offline_is_sent_once_when_the_server_is_back(data_dir):
    server = Server(base_env(data_dir), data_dir).start()
    driver = make_driver("phone")
    watch_page(driver)
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary"])
        key = Select(css(driver, "#capture-type")).first_selected_option.get_attribute("value")

        server.go_offline()
        taps = Taps()
        snap(driver, taps, os.path.join(PHOTOS, "photo.webp"))
        taps.tap(css(driver, "#capture-save"))
        assert taps.count <= 3
        wait_for(driver, lambda d: "No connection" in css(d, "#capture-status").text, timeout=15)
        wait_for(driver, lambda d: all_css(d, f"#group-{key} .entry.pending"), message="the waiting photo shows in its group")
        assert "not yet saved" in css(driver, f"#group-{key} .entry.pending").text
        wait_for(driver, lambda d: "1 change waiting" in css(d, "#sync-status").text)
        screenshot(driver, "capture-offline")

        server.start()  # back: same port, same database
        back = datetime.datetime.now(datetime.timezone.utc)
        wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".entry.pending"), timeout=30, message="the outbox was sent")
        wait_for(driver, lambda d: all_css(d, f"#group-{key} .entry.uncounted img.thumb"), timeout=10,
                 message="the saved photo entry replaces the pending one")
        wait_for_outbox_round(driver, message="one more round of the outbox")  # nothing is sent twice

        other = requests.Session()
        other.headers.update(login(server))
        entries = entries_on(other, server, today)
        assert len(entries) == 1, f"one photo, one entry: {entries}"
        entry = entries[0]
        assert entry["kind"] == "photo" and entry["mealType"] == key and entry["photo"], entry
        logged = datetime.datetime.fromisoformat(entry["loggedAt"].replace("Z", "+00:00"))
        assert logged < back, f"today's photo is logged when it was taken, not when it was sent: {entry['loggedAt']} (back at {back})"
        image = other.get(server.url(entry["photo"]["url"]))
        assert image.status_code == 200 and image.headers["Content-Type"].startswith("image/")
        thumb = other.get(server.url(entry["photo"]["thumbnailUrl"]))
        assert thumb.status_code == 200
        occasions = other.get(server.url("/api/v1/occasions")).json()
        assert len(occasions) == 1 and len(occasions[0]["photos"]) == 1, occasions
        driver.refresh()
        wait_for(driver, lambda d: all_css(d, f"#group-{key} .entry"))
        assert len(all_css(driver, ".meal-groups .entry")) == 1 and not all_css(driver, ".entry.pending")
        assert "Synced" in css(driver, "#sync-status").text
        errors = [e for e in browser_errors(driver) if "sync/events" not in e["message"] and "sw.js" not in e["message"]]
        assert not errors, errors
    finally:
        driver.quit()
        server.stop()
