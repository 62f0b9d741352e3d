"""Repeating plan entries and week templates on a phone: porridge every weekday and a 4-week
dinner rotation in under 15 taps from the planner, each repeating day marked, and one day skipped
without touching the others."""
import datetime

import pytest
from selenium.webdriver.common.by import By

from browser import Taps, all_css, api_session, axe_check, create_meal, css, screenshot, sign_in, wait_for


@pytest.fixture
def server(shared_server):
    return shared_server


def marked_days(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#week .day')].filter(d => d.querySelector('.repeat-mark')).map(d => d.dataset.date)")



def test_porridge_every_weekday_and_a_four_week_rotation_in_under_fifteen_taps(driver, server):
    s = api_session(server)
    porridge = create_meal(s, server, "Porridge")
    sign_in(driver, server)
    today = datetime.date.today()
    monday = today + datetime.timedelta(days=7 - today.weekday())
    weekdays = [(monday + datetime.timedelta(days=i)).isoformat() for i in range(5)]
    driver.get(server.url(f"/plan?start={monday.isoformat()}"))
    taps = Taps()

    taps.tap(css(driver, f"#day-{monday.isoformat()} [data-pick-day]"))
    wait_for(driver, lambda d: len(all_css(d, "#picker-results [data-pick-form]")) == 1)
    taps.tap(css(driver, "#picker-repeat summary"))
    taps.tap(css(driver, "#picker-repeat [data-workdays]"))
    assert [b.get_attribute("value") for b in all_css(driver, "#picker-repeat [name=weekday]") if b.is_selected()] == ["1", "2", "3", "4", "5"]
    screenshot(driver, "planner-repeat-picker")
    axe_check(driver, "planner-repeat-picker")
    taps.tap(css(driver, "#picker-results button[type=submit]"))
    wait_for(driver, lambda d: marked_days(d) == weekdays)
    assert taps.count == 4, "Add meal, Repeat…, Mon–Fri, Add"
    planned = s.get(server.url(f"/api/v1/plan?start={monday.isoformat()}&days=28")).json()
    entries = [a for day in planned["days"] for a in day["assignments"]]
    assert len(entries) == 20 and {a["mealId"] for a in entries} == {porridge["id"]}
    assert len({a["seriesId"] for a in entries}) == 1 and entries[0]["seriesId"]
    screenshot(driver, "planner-repeats")
    axe_check(driver, "planner-repeats")

    # A 4-week dinner rotation from four one-week templates the household saved before.
    templates = []
    for week, name in enumerate(["Curry", "Pasta", "Tacos", "Risotto"]):
        meal = create_meal(s, server, name)
        first = monday + datetime.timedelta(days=7 * (week + 10))
        for day in range(7):
            r = s.post(server.url("/api/v1/plan/assignments"), json={"mealId": meal["id"], "mealType": "dinner",
                                                                      "date": (first + datetime.timedelta(days=day)).isoformat()})
            assert r.status_code == 201, r.text
        r = s.post(server.url("/api/v1/plan/templates"), json={"name": f"Week {'ABCD'[week]}", "start": first.isoformat()})
        assert r.status_code == 201, r.text
        templates.append(r.json()["id"])
    driver.get(server.url(f"/plan?start={monday.isoformat()}"))
    taps.tap(css(driver, f"a[href^='/plan/templates']"))
    card = css(driver, f"#template-{templates[0]}")
    for other in templates[1:]:
        taps.tap(card.find_element(By.CSS_SELECTOR, f"input[name=then][value='{other}']"))
    screenshot(driver, "planner-templates")
    axe_check(driver, "planner-templates")
    taps.tap(card.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    wait_for(driver, lambda d: "Planned 28 meals" in d.page_source)
    assert taps.count == 9 < 15, "porridge: 4; the rotation: Templates, three ticks, Put on the plan"
    planned = s.get(server.url(f"/api/v1/plan?start={monday.isoformat()}&days=28")).json()
    dinners = [a["meal"]["description"] for day in planned["days"] for a in day["assignments"] if a["mealType"] == "dinner"]
    assert dinners == ["Curry"] * 7 + ["Pasta"] * 7 + ["Tacos"] * 7 + ["Risotto"] * 7

    # Wednesday is skipped; the other days keep their porridge.
    driver.get(server.url(f"/plan?start={monday.isoformat()}"))
    taps = Taps()
    wednesday = weekdays[2]
    taps.tap(css(driver, f"#day-{wednesday} .series-remove summary"))
    skip = css(driver, f"#day-{wednesday} .series-choices button[value=one]")
    assert "Skip Wednesday only" in skip.text
    taps.tap(skip)
    wait_for(driver, lambda d: marked_days(d) == [day for day in weekdays if day != wednesday])
    assert "Skipped Wednesday" in driver.page_source
    names = [e.text for e in css(driver, f"#day-{wednesday}").find_elements(By.CSS_SELECTOR, ".planned-name")]
    assert names == ["Curry"], "Wednesday keeps its dinner, without porridge"
    assert taps.count == 2
