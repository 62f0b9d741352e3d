"""Repeating plan entries on a phone: porridge every weekday in a few taps from the planner,
marked on each day, and one day skipped without touching the others."""
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


def test_porridge_every_weekday_in_four_taps_and_one_day_skipped(driver, server):
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

    # Wednesday is skipped; the other days keep their porridge.
    wednesday = weekdays[2]
    taps.tap(css(driver, f"#day-{wednesday} .series-remove summary"))
    skip = css(driver, f"#day-{wednesday} .series-choices button[value=one]")
    assert "Skip Wednesday only" in skip.text
    taps.tap(skip)
    wait_for(driver, lambda d: marked_days(d) == [day for day in weekdays if day != wednesday])
    assert "Skipped Wednesday" in driver.page_source
    assert not css(driver, f"#day-{wednesday}").find_elements(By.CSS_SELECTOR, ".planned-meal")
    assert taps.count == 6
