"""Recipes in Chromium on a phone: a recipe brought in from pasted text, corrected and saved, then
cooked for more people than it makes (the taps are counted; typing and pasting are not taps); and
cooking mode from Today's plan: a step at a time, timers through a reload, "We ate this"."""
from pathlib import Path

import pytest
import requests

from offline_pages import kept_for_offline
from browser import all_css, api_session, axe_check, browser_errors, create_food, css, entries_of, screenshot, sign_in, wait_for

PHOTOS = Path(__file__).resolve().parent.parent / "Fixtures" / "photos"
RECIPE = """Tomato soup
Serves 2
Prep time: 10 minutes
Ingredients
1 1/2 kg tomatoes, chopped
2 tbsp olive oil
1 onion
salt to taste
Method
1. Soften the onion in the olive oil.
2. Add the tomatoes and simmer for 20 minutes."""


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own."""
    return shared_server


def test_a_pasted_recipe_is_corrected_saved_and_cooked_for_three(driver, server):
    s = api_session(server)
    create_food(s, server, name="Tomatoes", per100={"energyKcal": 18, "protein": 0.9, "carbohydrates": 3.9, "fat": 0.2})
    sign_in(driver, server)
    driver.get(server.url("/meals"))
    taps = 0

    css(driver, "a[href='/meals/import']").click(); taps += 1
    wait_for(driver, lambda d: d.current_url.endswith("/meals/import"))
    css(driver, "#field-source").send_keys(RECIPE)
    css(driver, "#recipe-import-form button[type=submit]").click(); taps += 1
    wait_for(driver, lambda d: d.find_elements("css selector", "#meal-form"))
    assert css(driver, "#field-description").get_attribute("value") == "Tomato soup"
    assert "Nothing is saved yet" in css(driver, "#form-notice").text
    foods = [e.get_attribute("value") for e in all_css(driver, "[name=ingredientFood]")]
    assert foods[0] == "Tomatoes", foods  # the person's own food first
    assert "salt to taste" in foods
    # The person's tomatoes, 1.5 kg: read from "1 1/2 kg".
    assert all_css(driver, "[name=ingredientQuantity]")[0].get_attribute("value") == "1500"
    screenshot(driver, "recipe-import-draft")
    axe_check(driver, "recipe-import-draft")

    # One correction: the onion is a red one, 150 g (typing, then the save).
    onion = next(i for i, f in enumerate(foods) if "onion" in f.lower())
    quantity = all_css(driver, "[name=ingredientQuantity]")[onion]
    if quantity.is_displayed():
        quantity.clear()
        quantity.send_keys("150")
    css(driver, "#meal-form button[type=submit]").click(); taps += 1
    wait_for(driver, lambda d: d.current_url.split("#")[0].endswith("/meals"), message="the draft did not save")
    meal = s.get(server.url("/api/v1/meals")).json()["items"][0]
    assert meal["description"] == "Tomato soup" and meal["servings"] == 2 and meal["prepMinutes"] == 10
    assert [st["text"] for st in meal["steps"]] == ["Soften the onion in the olive oil.", "Add the tomatoes and simmer for 20 minutes."]
    assert any(line.get("text") == "salt to taste" for line in meal["ingredients"])

    # Cooking it for three: open it from the list, one tap on +.
    css(driver, f"#meal-{meal['id'].upper()} .meal-title a").click(); taps += 1
    wait_for(driver, lambda d: d.find_elements("css selector", "#recipe-lines"))
    css(driver, "a[aria-label='One serving more']").click(); taps += 1
    wait_for(driver, lambda d: "3 servings" in css(d, "#servings-shown").text)
    lines = [e.text for e in all_css(driver, "#recipe-lines li")]
    assert lines[0].startswith("2.25 kg Tomatoes"), lines  # 1.5 kg for 2 is 2.25 kg for 3
    assert "225 g Onions, raw" in lines, lines  # the corrected 150 g for 2
    assert any(line.startswith("3 tbsp Olive oil") for line in lines), lines  # "2 tbsp" for 2, in the cook's unit
    assert "Tomatoes 2.25 kg" in css(driver, "#step-2").text, "the step that names the tomatoes shows their amount"
    screenshot(driver, "recipe-for-three")
    axe_check(driver, "recipe-for-three")
    assert taps <= 6, taps

    # A photo from the phone heads the recipe; the shared link shows it signed out, named in its JSON-LD.
    css(driver, "#recipe-photo-file").send_keys(str(PHOTOS / "photo.jpg"))
    css(driver, "#recipe-photo-form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#recipe-photo"), message="the photo heads the recipe")
    # Loaded (its width is 48 or 64: the kept orientation turns it).
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('recipe-photo').naturalWidth") in (48, 64))
    photo = s.get(server.url(f"/api/v1/meals/{meal['id']}/photo"))
    assert photo.status_code == 200 and photo.headers["Content-Type"] == "image/jpeg" and b"ForkcastTestCam" not in photo.content
    screenshot(driver, "recipe-photo")
    axe_check(driver, "recipe-photo")
    link = s.post(server.url(f"/api/v1/meals/{meal['id']}/share")).json()
    document = requests.get(server.url(f"/api/v1/shared/recipes/{link['token']}")).json()
    assert document["image"].endswith(f"/api/v1/shared/recipes/{link['token']}/photo")
    assert requests.get(document["image"]).status_code == 200
    css(driver, "#recipe-photo-delete button").click()
    wait_for(driver, lambda d: not d.find_elements("css selector", "#recipe-photo"))
    assert s.get(server.url(f"/api/v1/meals/{meal['id']}")).json()["photoId"] is None
    assert not browser_errors(driver)


def test_cooking_mode_keeps_its_step_and_timers_and_logs_the_plan_entry(driver, start_server):
    server = start_server()  # its own: it goes offline below
    s = api_session(server)
    meal = s.post(server.url("/api/v1/meals"), json={
        "description": "Boiled egg", "servings": 1, "ingredients": [{"text": "1 egg"}],
        "steps": [{"text": "Bring water to the boil."}, {"text": "Cook the egg.", "timerSeconds": 2},
                  {"text": "Cool it in cold water.", "timerSeconds": 600}]}).json()
    photo = s.put(server.url(f"/api/v1/meals/{meal['id']}/photo"), data=(PHOTOS / "photo.jpg").read_bytes(), headers={"Content-Type": "image/jpeg"})
    assert photo.status_code == 200, photo.text
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    planned = s.post(server.url("/api/v1/plan/assignments"),
                     json={"mealId": meal["id"], "date": today, "mealType": "breakfast", "servings": 2}).json()
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    # Today's planned meal opens its recipe for that entry's portions, and Cook opens cooking mode.
    css(driver, f"#plan-{planned['id'].upper()} a.plan-card-name").click()
    wait_for(driver, lambda d: "2 servings" in css(d, "#servings-shown").text)
    recipe_url = driver.current_url
    kept_for_offline(driver, server, ["/diary", recipe_url.removeprefix(server.url(""))])
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('recipe-photo').naturalWidth") > 0)
    css(driver, "a[href*='/cook?']").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#cook-nav:not([hidden])"))

    def shown(d):
        return [e.get_attribute("id") for e in all_css(d, ".cook-step") if e.is_displayed()]
    assert shown(driver) == ["cook-step-1"], "one step at a time"
    awake = css(driver, "#cook").get_attribute("data-awake")
    assert awake in ("on", "refused"), f"the wake lock was asked for: {awake}"
    assert css(driver, "#cook-awake").text
    css(driver, "[data-cook-move='1']").click()
    assert shown(driver) == ["cook-step-2"]
    css(driver, "#cook-step-2 [data-timer]").click()
    css(driver, "[data-cook-move='1']").click()
    css(driver, "#cook-step-3 [data-timer]").click()
    wait_for(driver, lambda d: len(all_css(d, ".cook-timer-row")) == 2, message="two timers at once")

    # A reload keeps the step and both timers; the short one rings, and is dismissed.
    driver.refresh()
    wait_for(driver, lambda d: shown(d) == ["cook-step-3"], message="the step was not kept")
    wait_for(driver, lambda d: len(all_css(d, ".cook-timer-row")) == 2, message="the timers did not survive the reload")
    wait_for(driver, lambda d: all_css(d, ".cook-timer-row.ringing"), message="the due timer does not ring")
    assert "Done" in css(driver, ".cook-timer-row.ringing").text
    assert ":" in css(driver, ".cook-timer-row:not(.ringing) time").text, "the other still counts down"
    screenshot(driver, "cook-mode")
    axe_check(driver, "cook-mode")
    css(driver, ".cook-timer-row.ringing button").click()
    wait_for(driver, lambda d: len(all_css(d, ".cook-timer-row")) == 1)

    css(driver, "[data-cook-move='1']").click()
    # Without a connection the tap is kept on the phone, the recipe reads whole (its photo too), and
    # once Forkcast is back it logs, once: here the cook had also logged the plan entry on Today.
    server.go_offline()
    try:
        cook_url = driver.current_url
        card = f"#plan-{planned['id'].upper()}"
        driver.get(server.url("/diary"))
        css(driver, f"{card} button[type=submit]").click()
        wait_for(driver, lambda d: "not yet saved" in css(d, card).text, message="the planned meal is kept offline")
        driver.get(cook_url)
        css(driver, "#ate-form button[type=submit]").click()
        wait_for(driver, lambda d: d.find_elements("css selector", "#ate-kept"), message="the offline tap is not kept")
        assert "logged when it is back" in css(driver, "#ate-kept").text
        assert "/cook" in driver.current_url
        driver.get(recipe_url)
        wait_for(driver, lambda d: d.find_elements("css selector", "#saved-copy"), message="the recipe is not kept offline")
        wait_for(driver, lambda d: d.execute_script("return document.getElementById('recipe-photo').naturalWidth") > 0,
                 message="the recipe's photo is not kept offline")
    finally:
        server.start()
    wait_for(driver, lambda d: [e.get("mealId") for e in entries_of(s, server, today, "breakfast")] == [meal["id"]],
             timeout=20, message="the kept tap was not logged when Forkcast came back, or logged twice")
    # Sent once: the outbox is empty and a second tap logs nobody twice.
    driver.get(server.url("/diary"))
    wait_for(driver, lambda d: d.execute_script(
        "return new Promise((done) => { const o = indexedDB.open('forkcast'); o.onsuccess = () => { const r = o.result.transaction('outbox').objectStore('outbox').count(); r.onsuccess = () => done(r.result); }; })") == 0,
        message="the outbox still holds the tap")
    again = s.post(server.url(f"/api/v1/plan/assignments/{planned['id']}/eaten"))
    assert again.status_code == 200 and again.json()["logged"] == [], again.text
    assert len(entries_of(s, server, today, "breakfast")) == 1
    assert not browser_errors(driver)
