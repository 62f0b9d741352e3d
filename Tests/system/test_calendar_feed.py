"""The plan in a calendar app: an address made on the phone's Settings page, read by a real
iCalendar parser (the icalendar package, as calendar apps and Home Assistant read feeds): next
month's dinners at 18:00-19:00 in the person's time zone, with their ingredients; a new address
stops the old one."""
import datetime
import zoneinfo

import icalendar
import pytest
import requests

from browser import api_session, axe_check, css, sign_in, wait_for
from layout_seed import post


@pytest.fixture
def server(shared_server):
    return shared_server


def test_next_months_dinners_are_in_a_subscribed_calendar_at_six(driver, server):
    s = api_session(server, email="calendar@example.com")
    assert s.put(server.url("/api/v1/me"), json={"timeZone": "Europe/Lisbon"}).status_code == 200
    lentils = post(s, server, "/api/v1/foods", {"name": "Red lentils", "per100": {"energyKcal": 350}})
    dal = post(s, server, "/api/v1/meals", {"description": "Dal, \"tarka\"; mild", "servings": 2,
                                            "ingredients": [{"foodId": lentils["id"], "quantity": 250, "unit": "g"}]})
    today = datetime.date.fromisoformat(s.get(server.url("/api/v1/plan")).json()["today"])
    first = (today.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)  # next month
    days = [first + datetime.timedelta(days=7 * i) for i in range(4)]
    for day in days:
        post(s, server, "/api/v1/plan/assignments", {"mealId": dal["id"], "date": day.isoformat(), "mealType": "dinner", "servings": 4})

    sign_in(driver, server, email="calendar@example.com")
    driver.get(server.url("/settings"))
    css(driver, f"a[href='/settings/calendar']").click()
    css(driver, "input[name=scope][value=household]").click()
    css(driver, "#make-calendar-feed").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#calendar-feed"), message="the address is shown once")
    address = css(driver, "#calendar-feed").get_attribute("value")
    axe_check(driver, "calendar-feeds")

    r = requests.get(address, timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/calendar"), r.text[:300]
    calendar = icalendar.Calendar.from_ical(r.content)
    lisbon = zoneinfo.ZoneInfo("Europe/Lisbon")
    dinners = sorted((e for e in calendar.walk("VEVENT") if str(e["SUMMARY"]) == 'Dal, "tarka"; mild'), key=lambda e: e["DTSTART"].dt)
    assert [e["DTSTART"].dt.astimezone(lisbon).date() for e in dinners] == days
    for event in dinners:
        start, end = event["DTSTART"].dt.astimezone(lisbon), event["DTEND"].dt.astimezone(lisbon)
        assert (start.hour, start.minute, end.hour, end.minute) == (18, 0, 19, 0), (start, end)
        assert "500 g Red lentils" in str(event["DESCRIPTION"]) and "4 portions" in str(event["DESCRIPTION"])
    assert len({str(e["UID"]) for e in dinners}) == 4

    # A new address: the old one stops at once.
    driver.find_element("css selector", "#calendar-feeds form[action$='/renew'] button").click()
    # The page before the click shows an address too: wait for the new one, not for any.
    def new_address(d):
        shown = d.find_elements("css selector", "#calendar-feed")
        value = shown[0].get_attribute("value") if shown else None
        return value if value and value != address else None
    renewed = wait_for(driver, new_address, message="a new address is shown")
    assert requests.get(address, timeout=10).status_code == 404
    assert requests.get(renewed, timeout=10).status_code == 200
