"""Two people of one household on two phones: what one plans or ticks off shows on the other's open
planner, Today and shopping list without a reload, and each logs their own portions."""
import time

import pytest
from selenium.webdriver.common.by import By

from browser import all_css, api_session, css, make_driver, mark_page, page_was_not_reloaded, screenshot, sign_in, wait_for


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has accounts of its own."""
    return shared_server


def household_of_two(server, owner_email, member_email):
    owner, member = api_session(server, email=owner_email), api_session(server, email=member_email)
    invitation = owner.post(server.url("/api/v1/household/invitations")).json()
    r = member.post(server.url("/api/v1/household/join"), json={"token": invitation["token"]})
    assert r.status_code == 200, r.text
    return owner, member


def seen_within(driver, condition, message):
    """Waits for what another phone did to show, and answers how long it took (for the notes;
    the suite asserts no timing: CI machines are noisy)."""
    start = time.monotonic()
    wait_for(driver, condition, timeout=15, message=message)
    return time.monotonic() - start


def test_two_phones_plan_shop_and_log_together(driver, server):
    ana, ben = household_of_two(server, "live-ana@example.com", "live-ben@example.com")
    soup = ana.post(server.url("/api/v1/meals"), json={"description": "Lentil soup", "servings": 2,
                                                       "nutrition": {"energyKcal": 300}}).json()
    today = ana.get(server.url("/api/v1/plan")).json()["today"]
    bens_phone = make_driver("phone")
    try:
        sign_in(driver, server, email="live-ana@example.com")
        sign_in(bens_phone, server, email="live-ben@example.com")
        for phone in (driver, bens_phone):
            phone.get(server.url(f"/plan?start={today}"))
            mark_page(phone)
        day = f"#day-{today}"

        # Ana plans the soup on her phone; Ben's open planner shows it.
        css(driver, f"{day} [data-pick-day]").click()
        wait_for(driver, lambda d: css(d, "#picker-dialog").get_attribute("open") is not None)
        wait_for(driver, lambda d: len(all_css(d, "#picker-results [data-pick-form]")) == 1)
        css(driver, "#picker-results button[type=submit]").click()
        planned = lambda: ana.get(server.url(f"/api/v1/plan?start={today}&days=1")).json()["days"][0]["assignments"]
        wait_for(driver, lambda d: len(planned()) == 1, message="Ana's tap planned it")
        soup_plan = planned()[0]["id"].upper()
        card = f"#assignment-{soup_plan}"
        took = [seen_within(bens_phone, lambda d: "Lentil soup" in css(d, day).text, "Ana's plan on Ben's planner")]
        # Ben makes it three portions; Ana's planner follows.
        css(bens_phone, f"{card} .stepper button[value='3']").click()
        took.append(seen_within(driver, lambda d: "×3" in css(d, f"{card} .stepper-value").text, "Ben's change on Ana's planner"))
        assert page_was_not_reloaded(driver) and page_was_not_reloaded(bens_phone)
        # Who eats: everyone, by initials; two people without a name stay two.
        assert css(driver, f"{card} .eaters").text == "Y · M2" and css(bens_phone, f"{card} .eaters").text == "M1 · Y"
        screenshot(bens_phone, "household-planner-live")

        # Ben's Today offers what he eats; Ana plans a second meal, and it appears there.
        bens_phone.get(server.url("/diary"))
        mark_page(bens_phone)
        wait_for(bens_phone, lambda d: all_css(d, f"#plan-{soup_plan}"))
        toast = ana.post(server.url("/api/v1/meals"), json={"description": "Cheese toast", "nutrition": {"energyKcal": 250}}).json()
        r = ana.post(server.url("/api/v1/plan/assignments"), json={"mealId": toast["id"], "date": today, "mealType": "breakfast"})
        assert r.status_code == 201, r.text
        took.append(seen_within(bens_phone, lambda d: all_css(d, f"#plan-{r.json()['id'].upper()}"), "Ana's plan on Ben's Today"))
        assert page_was_not_reloaded(bens_phone)
        # Ben logs the soup: his own portion, in his own diary, not Ana's.
        css(bens_phone, f"#plan-{soup_plan} button[type=submit]").click()
        diary = lambda s: {e["name"]: e for g in s.get(server.url("/api/v1/diary")).json()["entries"] for e in g["entries"]}
        wait_for(bens_phone, lambda d: "Lentil soup" in diary(ben), message="Ben logged it")
        assert diary(ben)["Lentil soup"]["nutrients"]["energyKcal"] == 300, "his one portion (of three cooked)"
        assert "Lentil soup" not in diary(ana), "into his diary, not Ana's"

        # One shopping list, open on both phones: Ben ticks an item off and Ana sees it.
        made = ana.post(server.url("/api/v1/shopping-lists"), json={"from": today, "to": today, "name": "This week"}).json()
        for name in ("Lentils", "Onions"):
            added = ana.post(server.url(f"/api/v1/shopping-lists/{made['id']}/items"), json={"name": name})
            assert added.status_code == 201, added.text
        for phone in (driver, bens_phone):
            phone.get(server.url(f"/shopping/{made['id']}"))
            wait_for(phone, lambda d: len(all_css(d, "#shopping-items .shop-item")) == 2)
            mark_page(phone)
        bens_phone.find_element(By.CSS_SELECTOR, "#shopping-items .shop-item:not(.checked) .shop-row").click()
        took.append(seen_within(driver, lambda d: len(all_css(d, "#shopping-items .shop-item.checked")) == 1, "Ben's tick on Ana's list"))
        assert page_was_not_reloaded(driver)
        screenshot(driver, "household-shopping-live")
        print(f"\nseconds until the other phone showed it: {[round(t, 2) for t in took]}")
    finally:
        bens_phone.quit()
