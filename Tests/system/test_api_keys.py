"""A key for a script, made on the phone's Settings page: the script reads the plan with it, is
refused with a clear 403 when it writes or reaches the diary, and stops at once when revoked."""
import datetime

import pytest
import requests

from browser import api_session, axe_check, css, sign_in, wait_for
from layout_seed import post


@pytest.fixture
def server(shared_server):
    return shared_server


def test_a_script_with_a_read_only_key_reads_the_plan_and_is_refused_when_it_writes(driver, server):
    s = api_session(server, email="keys@example.com")
    soup = post(s, server, "/api/v1/meals", {"description": "Tomato soup"})
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    post(s, server, "/api/v1/plan/assignments", {"mealId": soup["id"], "date": today, "mealType": "dinner"})

    sign_in(driver, server, email="keys@example.com")
    driver.get(server.url("/settings"))
    css(driver, "a[href='/settings/keys']").click()
    css(driver, "#field-name").send_keys("Kitchen tablet")
    css(driver, "#make-api-key").click()  # read only, the plan: the defaults
    wait_for(driver, lambda d: d.find_elements("css selector", "#api-key"), message="the key is shown once")
    key = css(driver, "#api-key").get_attribute("value")
    axe_check(driver, "api-keys")

    script = requests.Session()
    script.headers["Authorization"] = f"Bearer {key}"
    plan = script.get(server.url(f"/api/v1/plan?start={today}&days=1"))
    assert plan.status_code == 200 and [a["mealId"] for a in plan.json()["days"][0]["assignments"]] == [soup["id"]]
    tomorrow = (datetime.date.fromisoformat(today) + datetime.timedelta(days=1)).isoformat()
    for method, path, body in [("POST", "/api/v1/plan/assignments", {"mealId": soup["id"], "date": tomorrow}),
                               ("GET", "/api/v1/diary", None), ("GET", "/api/v1/api-keys", None), ("DELETE", "/api/v1/me", None)]:
        r = script.request(method, server.url(path), json=body)
        assert r.status_code == 403, (path, r.status_code, r.text)
        assert r.headers["Content-Type"].startswith("application/problem+json") and r.json()["detail"], r.text
    assert s.get(server.url(f"/api/v1/plan?start={tomorrow}&days=1")).json()["days"][0]["assignments"] == []
    assert "Set-Cookie" not in plan.headers, "a key makes no session"

    driver.get(server.url("/settings/keys"))
    assert "last used" in css(driver, "#api-keys").text
    css(driver, "#api-keys form button").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#no-api-keys"))
    assert script.get(server.url(f"/api/v1/plan?start={today}")).status_code == 401
