"""Seed 004's meal types in real Chromium: renamed, added and hidden in Settings › Meal types, they
reach the capture chooser; names that try to be HTML render as text."""
import os
import unicodedata

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import (PHOTOS, Taps, all_css, api_session, axe_check, css, screenshot, sign_in, upload_photo,
                     wait_for)
from capture_helpers import meal_types, snap, type_by_key


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own."""
    return shared_server


def capture_choices(driver):
    # Read as text content: the chooser shows once a photo is chosen.
    return [o.get_attribute("textContent").strip() for o in Select(css(driver, "#capture-type")).options]


def test_meal_types_renamed_added_and_hidden_reach_the_capture_chooser(driver, server):
    s = api_session(server)
    lunch = type_by_key(s, server, "lunch")
    shake = type_by_key(s, server, "protein-shake")
    r = s.post(server.url("/api/v1/diary/entries"), json={"quickAdd": {"energyKcal": 500}, "name": "Dal", "mealType": "lunch"})
    assert r.status_code == 201, r.text
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    assert "Lunch" in capture_choices(driver) and "Protein Shake" in capture_choices(driver)

    # Rename Lunch.
    driver.get(server.url("/settings/meal-types"))
    screenshot(driver, "meal-types")
    axe_check(driver, "meal-types")
    field = css(driver, f"#field-displayName-{lunch['id'].lower()}")
    field.clear()
    field.send_keys("Midday meal")
    css(driver, f"#type-{lunch['id'].lower()} button.primary[type=submit]").click()
    wait_for(driver, lambda d: "Saved “Midday meal”" in css(d, "main").text)
    assert css(driver, f"#field-displayName-{lunch['id'].lower()}").get_attribute("value") == "Midday meal"

    # Add one of one's own, with a window.
    css(driver, "#field-displayName-new").send_keys("Second breakfast")
    driver.execute_script("document.getElementById('field-windowStart-new').value = '09:30';"
                          "document.getElementById('field-windowEnd-new').value = '10:30'")
    css(driver, "#new-type-title").find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(driver, lambda d: "Added “Second breakfast”" in css(d, "main").text)
    custom = next(t for t in meal_types(s, server) if t["displayName"] == "Second breakfast")
    assert custom["window"] == {"start": "09:30", "end": "10:30"} and custom["key"] is None
    assert all_css(driver, f"li#type-{custom['id'].lower()}")

    # Hide Protein Shake.
    css(driver, f"#type-{shake['id'].lower()} input[name=hidden]").click()
    css(driver, f"#type-{shake['id'].lower()} button.primary[type=submit]").click()
    wait_for(driver, lambda d: "Saved “Protein Shake”" in css(d, "main").text)
    assert type_by_key(s, server, "protein-shake")["hidden"] is True
    assert css(driver, f"#type-{shake['id'].lower()} input[name=hidden]").is_selected()

    driver.get(server.url("/diary"))
    choices = capture_choices(driver)
    assert "Midday meal" in choices and "Lunch" not in choices, choices
    assert "Second breakfast" in choices, choices
    assert "Protein Shake" not in choices, choices
    assert css(driver, "#group-lunch h2").text == "Midday meal"
    # Saving a photo to it files it there (the chooser shows once there is a photo).
    taps = Taps()
    snap(driver, taps, os.path.join(PHOTOS, "photo.png"))
    Select(css(driver, "#capture-type")).select_by_visible_text("Second breakfast")
    assert Select(css(driver, "#capture-type")).first_selected_option.get_attribute("value") == custom["id"].lower()
    css(driver, "#capture-save").click()
    wait_for(driver, lambda d: "Saved to Second breakfast." in css(d, "#capture-status").text, timeout=15)
    wait_for(driver, lambda d: all_css(d, f"#group-{custom['id'].lower()} .entry.uncounted img.thumb"))

    driver.get(server.url("/history"))
    types = [t.text for t in all_css(driver, "li.occasion .occasion-type")]
    assert "Midday meal" in types and "Second breakfast" in types and "Lunch" not in types, types


HOSTILE = "<img src=x onerror=alert(1)>\"é\u0301 مساء"
NO_ALERTS = """
window.__alerts = [];
for (const name of ['alert', 'confirm', 'prompt']) {
  window[name] = (m) => { window.__alerts.push(name + ':' + m); return name === 'confirm' ? false : null; };
}
"""


def nfc(text):
    return unicodedata.normalize("NFC", text)


def assert_only_text(driver, where):
    assert driver.execute_script("return window.__alerts") == [], f"{where}: a script ran from a name"
    injected = driver.execute_script(
        "return [...document.querySelectorAll('img[src=\"x\"], [onerror]')].map(e => e.outerHTML)")
    assert injected == [], f"{where}: an element came from a name: {injected}"
    assert nfc(HOSTILE) in nfc(css(driver, "body").text), f"{where}: the name is not shown as text"


def test_hostile_meal_type_names_render_as_text(driver, server):
    s = api_session(server)
    r = s.post(server.url("/api/v1/meal-types"), json={"displayName": HOSTILE, "window": {"start": "05:00", "end": "05:30"}})
    assert r.status_code == 201, r.text
    hostile = r.json()
    token = hostile["id"].lower()
    photo = upload_photo(s, server)
    r = s.post(server.url("/api/v1/diary/entries"), json={"photoId": photo["id"], "mealType": token})
    assert r.status_code == 201, r.text
    entry = r.json()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_ALERTS})
    sign_in(driver, server)

    driver.get(server.url("/diary"))
    assert_only_text(driver, "Today")
    options = {o.get_attribute("value"): o.get_attribute("textContent") for o in Select(css(driver, "#capture-type")).options}
    assert nfc(options[token]) == nfc(HOSTILE)
    assert nfc(css(driver, f"#group-{token} h2").text) == nfc(HOSTILE)
    delete = css(driver, f"#entry-{entry['id']} form.inline")
    assert nfc(delete.get_attribute("data-undo")) == nfc(f"Deleted “Photo” from {HOSTILE}.")
    assert nfc(css(driver, f"#entry-{entry['id']} button").get_attribute("aria-label")) == nfc(f"Delete Photo from {HOSTILE}")
    screenshot(driver, "hostile-today")

    driver.get(server.url("/history"))
    assert_only_text(driver, "History")
    assert nfc(css(driver, f"#occasion-{entry['occasionId'].lower()} .occasion-type").text) == nfc(HOSTILE)
    driver.get(server.url(f"/history/{entry['occasionId']}"))
    assert_only_text(driver, "the occasion")
    assert nfc(HOSTILE) in nfc(driver.title), driver.title
    driver.get(server.url(f"/diary/entries/{entry['id']}/edit"))
    assert driver.execute_script("return window.__alerts") == [] and not all_css(driver, "img[src='x'], [onerror]")
    assert nfc(Select(css(driver, "#field-mealType")).first_selected_option.text) == nfc(HOSTILE)

    driver.get(server.url("/settings/meal-types"))
    assert driver.execute_script("return window.__alerts") == [] and not all_css(driver, "img[src='x'], [onerror]")
    row = css(driver, f"#type-{token}")
    assert nfc(css(driver, f"#field-displayName-{token}").get_attribute("value")) == nfc(HOSTILE)
    assert nfc(css(driver, f"#type-{token} button[value=up]").get_attribute("aria-label")) == nfc(f"Move {HOSTILE} up")
    assert nfc(HOSTILE) in nfc(row.find_element(By.CSS_SELECTOR, "button.primary").get_attribute("textContent"))
    screenshot(driver, "hostile-meal-types")
    # Saving it unchanged keeps it exactly (the form sends back what it shows).
    css(driver, f"#type-{token} button.primary[type=submit]").click()
    wait_for(driver, lambda d: "Saved “" in css(d, "main").text)
    assert driver.execute_script("return window.__alerts") == [] and not all_css(driver, "img[src='x'], [onerror]")
    assert nfc(s.get(server.url(f"/api/v1/meal-types/{hostile['id']}")).json()["displayName"]) == nfc(HOSTILE)
