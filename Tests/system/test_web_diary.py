"""In the browser: the dashboard (calendar strip, rings, entries by meal type, cost, charts),
adding a plate, goals from body data with the arithmetic shown, weights, Apple Health upload, and
logging a planned meal from the planner."""
import datetime
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import (all_css, api_session, axe_check, css, mark_page, page_was_not_reloaded, screenshot, set_dark,
                     sign_in, wait_for, create_food)

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "apple-health")


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own."""
    return shared_server


def test_the_dashboard_shows_the_day_against_the_goals(driver, server):
    s = api_session(server)
    oats = create_food(s, server, name="Rolled oats", per100={"energyKcal": 372, "protein": 13, "carbohydrates": 60, "fat": 7},
                       price={"amount": 2, "per": "package", "packageSize": 1000}, serving={"size": 40, "label": "1 bowl"})
    sign_in(driver, server)
    driver.get(server.url("/diary"))
    assert "2000" in css(driver, "#calories-remaining").text, "seed 001's default goal, nothing eaten"
    today = css(driver, ".strip-day.today")
    assert today.get_attribute("aria-current") == "date"
    screenshot(driver, "dashboard-empty")
    axe_check(driver, "dashboard-empty")

    # Add a plate to breakfast: two foods rows and a quick add.
    css(driver, "#group-breakfast a[href^='/diary/add']").click()
    wait_for(driver, lambda d: "/diary/add" in d.current_url)
    assert Select(css(driver, "#field-mealType")).first_selected_option.get_attribute("value") == "breakfast"
    css(driver, "#ingredient-food-1").send_keys("Rolled oats")
    css(driver, "#ingredient-qty-1").send_keys("2")
    Select(css(driver, "#ingredient-unit-1")).select_by_value("serving")
    css(driver, "#field-quick\\.name").send_keys("Coffee with milk")
    css(driver, "#field-quick\\.energyKcal").send_keys("40")
    screenshot(driver, "diary-add")
    axe_check(driver, "diary-add")
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "/diary" in d.current_url and "/diary/add" not in d.current_url)
    group = css(driver, "#group-breakfast")
    assert "Rolled oats" in group.text and "Coffee with milk" in group.text
    assert "338 kcal" in group.text, group.text
    assert css(driver, "#calories-remaining").text == "1662", "2000 − 297.6 − 40"
    assert "€0.16" in css(driver, "#day-cost").text
    assert "Protein 10 / 150 g" in css(driver, ".rings").text.replace("\n", " "), "13 g × 0.8"
    assert "Average 338 kcal a day over the 1 day with entries (of 7)" in css(driver, "#chart").text, "averages count days with entries"
    screenshot(driver, "dashboard")
    axe_check(driver, "dashboard")

    # Going over the goal: the ring says so and remaining goes negative.
    s.post(server.url("/api/v1/diary/entries"), json={"quickAdd": {"energyKcal": 2000}, "mealType": "dinner", "name": "Feast"})
    driver.refresh()
    assert css(driver, "#calories-remaining").text == "+338"
    assert "over" in css(driver, "svg.ring.large").get_attribute("class")

    # Move an entry to another meal type, then delete one.
    oats_entry = [e for e in all_css(driver, "#group-breakfast li.entry") if "Rolled oats" in e.text][0]
    oats_entry.find_element(By.CSS_SELECTOR, "a[href$='/edit']").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "entry-form"))
    Select(css(driver, "#field-mealType")).select_by_value("snack")
    css(driver, "#entry-form button[type=submit]").click()
    wait_for(driver, lambda d: "Saved “Rolled oats” (Snack" in css(d, ".flash").text)
    assert "Rolled oats" in css(driver, "#group-snack").text and "Rolled oats" not in css(driver, "#group-breakfast").text
    css(driver, "#group-dinner button[aria-label^='Delete Feast']").click()  # at once, with Undo
    wait_for(driver, lambda d: "Feast" not in css(d, "#group-dinner").text)
    assert "Deleted “Feast” from Dinner." in css(driver, "#undo-toast").text

    # Another day from the strip (leaving the page sends the delete); charts for week and month.
    # The day's parts are drawn again as the entry's move arrives live, so the strip is found again.
    wait_for(driver, lambda d: next(a for a in all_css(d, ".strip-day") if a.is_displayed()).click() or True)
    names = lambda: [e["name"] for g in s.get(server.url("/api/v1/diary")).json()["entries"] for e in g["entries"]]
    wait_for(driver, lambda d: "Feast" not in names(), message="the delete was sent when the page was left")
    wait_for(driver, lambda d: "date=" in d.current_url and "Nothing logged" in css(d, "#group-breakfast").text)
    driver.get(css(driver, ".range-toggle a[href*='range=month']").get_attribute("href"))
    wait_for(driver, lambda d: css(d, ".range-toggle a[aria-current]").text == "30 days")
    assert len(all_css(driver, "svg.chart rect.bar")) == 30
    assert "Nothing logged in these 30 days" in css(driver, "#chart").text, "no average of empty days"
    assert driver.execute_script("return location.hash") == "#chart", "switching the range keeps the chart in view"
    set_dark(driver, True)
    driver.get(server.url("/diary"))
    screenshot(driver, "dashboard-dark")
    axe_check(driver, "dashboard-dark")


def test_goals_from_the_body_profile_show_the_arithmetic(driver, server):
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/goals"))
    screenshot(driver, "goals-empty")
    axe_check(driver, "goals-empty")
    css(driver, "input[name=sex][value=male]").click()
    born = (datetime.date.today().replace(month=1, day=1) - datetime.timedelta(days=365 * 30 + 8)).replace(month=1, day=1)
    age = datetime.date.today().year - born.year
    driver.execute_script("document.getElementById('field-birthDate').value = arguments[0]", born.isoformat())
    css(driver, "#field-heightCm").send_keys("180")
    css(driver, "#field-weightKg").send_keys("80")
    Select(css(driver, "#field-activityLevel")).select_by_value("sedentary")
    Select(css(driver, "#field-aim")).select_by_value("maintain")
    css(driver, "#profile-form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "arithmetic"))
    bmr = 10 * 80 + 6.25 * 180 - 5 * age + 5
    steps = css(driver, "#arithmetic").text
    assert f"= {round(bmr)} kcal" in steps, steps
    assert "× 1.2" in steps
    assert f"{round(bmr * 1.2)} kcal" in css(driver, "#current-goals").text
    screenshot(driver, "goals")
    axe_check(driver, "goals")

    # Imperial input.
    css(driver, "details.imperial summary").click()
    css(driver, "#field-heightFt").send_keys("5")
    css(driver, "#field-heightIn").send_keys("11")
    css(driver, "#field-weightLb").send_keys("176")
    # The first save's page already says "Saved": wait for the answer to this one to replace it.
    mark_page(driver)
    css(driver, "#profile-form button[type=submit]").click()
    wait_for(driver, lambda d: not page_was_not_reloaded(d) and "Saved" in css(d, ".flash").text)
    assert css(driver, "#field-heightCm").get_attribute("value") == "180.3"
    assert css(driver, "#field-weightKg").get_attribute("value") == "79.8"

    # A new weight moves the computed goals.
    css(driver, "#field-weight").send_keys("90")
    css(driver, "form[action='/goals/weights'] button").click()
    wait_for(driver, lambda d: "Added 90" in css(d, ".flash").text)
    assert "10 × 90 kg" in css(driver, "#arithmetic").text

    # Manual goals.
    for key, value in [("energyKcal", "1800"), ("protein", "120"), ("carbohydrates", "200"), ("fat", "60")]:
        field = css(driver, f"#field-manual\\.{key}")
        field.clear()
        field.send_keys(value)
    css(driver, "form[action='/goals/manual'] button").click()
    wait_for(driver, lambda d: "1800 kcal" in css(d, "#current-goals").text)
    assert not driver.find_elements(By.ID, "arithmetic")

    # Saving the body profile again keeps the goals set by hand (as the API and sync do): the
    # "use computed goals" box is unticked while goals are manual.
    assert not css(driver, "#field-useComputedGoals").is_selected()
    weight = css(driver, "#field-weightKg")
    weight.clear()
    weight.send_keys("85")
    css(driver, "#profile-form button[type=submit]").click()
    wait_for(driver, lambda d: "goals are unchanged" in css(d, ".flash").text)
    assert "1800 kcal" in css(driver, "#current-goals").text
    assert not driver.find_elements(By.ID, "arithmetic")
    # Ticking it is the one way to switch to computed goals from the profile.
    css(driver, "#field-useComputedGoals").click()
    css(driver, "#profile-form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "arithmetic"))
    assert "10 × 85 kg" in css(driver, "#arithmetic").text


def test_apple_health_upload_and_weight_trend(driver, server):
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/goals"))
    css(driver, "#field-export").send_keys(os.path.abspath(os.path.join(FIXTURES, "export_grll_apple-health-mcp_v14_me_bodymass_kg_height_cm.xml")))
    css(driver, "form[action^='/goals/import'] button").click()
    wait_for(driver, lambda d: "Imported from Apple Health" in css(d, ".flash").text)
    assert "2 new weights" in css(driver, ".flash").text and "180" in css(driver, ".flash").text
    weights = css(driver, "#weights").text
    assert "72" in weights and "68.5" in weights
    # Each weighing by its day and time in the person's zone, and where it came from.
    assert "December 2023" in weights and "Apple Health" in weights, weights
    # One typed wrong (or imported twice) is deleted from the list; the other stays.
    css(driver, "#weights li:first-child button[aria-label^='Delete the weight of 72 kg']").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".put-back") and "Deleted 72 kg" in css(d, ".put-back").text)
    weights = css(driver, "#weights").text
    assert "72" not in weights and "68.5" in weights, weights
    # A tap on the wrong row is undone from the same page: the weight comes back as it was.
    css(driver, ".put-back button").click()
    wait_for(driver, lambda d: "Put back 72 kg" in css(d, ".flash").text)
    weights = css(driver, "#weights").text
    assert "72" in weights and "Apple Health" in weights.split("\n")[0], weights
    assert not driver.find_elements(By.CSS_SELECTOR, ".put-back")
    css(driver, "#field-export").send_keys(os.path.abspath(__file__))
    css(driver, "form[action^='/goals/import'] button").click()
    wait_for(driver, lambda d: "not an Apple Health export" in d.page_source)


def test_log_a_planned_meal_in_one_tap(driver, server):
    s = api_session(server)
    meal = s.post(server.url("/api/v1/meals"), json={"description": "Lentil curry", "nutrition": {"energyKcal": 650, "protein": 30}}).json()
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    s.post(server.url("/api/v1/plan/assignments"), json={"mealId": meal["id"], "date": today, "mealType": "dinner"})
    sign_in(driver, server)
    driver.get(server.url("/plan"))
    assert "dinner" in css(driver, f"#day-{today} .planned-meal").text.lower(), "the planner shows the slot"
    css(driver, f"#day-{today} .log-button").click()
    wait_for(driver, lambda d: "Logged “Lentil curry”" in css(d, ".flash").text)
    assert "Dinner" in css(driver, ".flash").text, "into its slot, whatever the time"
    diary = s.get(server.url(f"/api/v1/diary?date={today}")).json()
    assert diary["totals"]["energyKcal"] == 650
    driver.get(server.url("/diary"))
    assert "Lentil curry" in css(driver, "#group-dinner").text
