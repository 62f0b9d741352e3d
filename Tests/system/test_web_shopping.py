"""Plans and shopping in Chromium: portions on the planner's cards, the week against the goals, the shopping
list from the plan (check off, add, refresh), a shared link in a browser with no cookies, checks
made offline, and Fill my week."""
import pytest
import requests
from selenium.webdriver.common.by import By

from browser import (Taps, all_css, api_session, axe_check, browser_errors, css, make_driver, screenshot,
                     sign_in, wait_for)
from offline_pages import kept_for_offline

MONDAY = "2026-11-30"


@pytest.fixture
def server(shared_server):
    """One server for the module; each test has an account of its own (the offline one its own server)."""
    return shared_server


def post(s, server, path, body):
    r = s.post(server.url(path), json=body)
    assert r.status_code in (200, 201), f"{path}: {r.status_code} {r.text[:300]}"
    return r.json()


def plan_the_issues_week(s, server):
    """Chicken rice (rice 300 g, chicken 400 g, serves 4) Monday, rice pudding (rice 200 g, milk 250 ml,
    serves 2) Tuesday, chicken rice for 2 Wednesday."""
    rice = post(s, server, "/api/v1/foods", {"name": "Rice", "per100": {"energyKcal": 130, "protein": 2.7, "carbohydrates": 28, "fat": 0.3},
                                             "price": {"amount": 2, "per": "package", "packageSize": 1000}})
    chicken = post(s, server, "/api/v1/foods", {"name": "Chicken breast", "per100": {"energyKcal": 165, "protein": 31, "carbohydrates": 0, "fat": 3.6}})
    milk = post(s, server, "/api/v1/foods", {"name": "Milk", "basis": "ml", "per100": {"energyKcal": 64, "protein": 3.3, "carbohydrates": 4.8, "fat": 3.6}})
    chicken_rice = post(s, server, "/api/v1/meals", {"description": "Chicken rice", "primaryCarb": "Rice", "servings": 4, "ingredients": [
        {"foodId": rice["id"], "quantity": 300, "unit": "g"}, {"foodId": chicken["id"], "quantity": 400, "unit": "g"}]})
    pudding = post(s, server, "/api/v1/meals", {"description": "Rice pudding", "primaryCarb": "Rice", "servings": 2, "ingredients": [
        {"foodId": rice["id"], "quantity": 200, "unit": "g"}, {"foodId": milk["id"], "quantity": 250, "unit": "ml"}]})
    post(s, server, "/api/v1/plan/assignments", {"mealId": chicken_rice["id"], "date": MONDAY, "mealType": "dinner"})
    tuesday = post(s, server, "/api/v1/plan/assignments", {"mealId": pudding["id"], "date": "2026-12-01", "mealType": "dinner"})
    wednesday = post(s, server, "/api/v1/plan/assignments", {"mealId": chicken_rice["id"], "date": "2026-12-02", "mealType": "dinner"})
    return {"pudding": pudding, "chicken_rice": chicken_rice, "tuesday": tuesday, "wednesday": wednesday}


def rows(driver):
    """The list as shown: [(name, amount, checked)] in order."""
    return driver.execute_script("""
      return [...document.querySelectorAll('#shopping-items .shop-item')].map(li => [
        li.querySelector('.shop-name').textContent.trim(), (li.querySelector('.shop-amount')?.textContent ?? '').trim(),
        li.classList.contains('checked')]);""")


def row(driver, name):
    return next(li for li in all_css(driver, "#shopping-items .shop-item") if li.find_element(By.CSS_SELECTOR, ".shop-name").text == name)


def test_from_the_planner_to_the_shop_and_a_shared_link(driver, server):
    s = api_session(server)
    week = plan_the_issues_week(s, server)
    salad = post(s, server, "/api/v1/meals", {"description": "Desk salad <with> “dressing”"})
    post(s, server, "/api/v1/plan/assignments", {"mealId": salad["id"], "date": MONDAY, "mealType": "lunch"})
    sign_in(driver, server)
    driver.get(server.url(f"/plan?start={MONDAY}"))

    # Wednesday's chicken rice for 2: two taps on its stepper, the day updated in place.
    card = f"#day-2026-12-02 [data-assignment-id='{week['wednesday']['id']}']"
    assert "×4" in css(driver, f"{card} .stepper-value").text
    for expected in ("×3", "×2"):
        css(driver, f"{card} .stepper button[value='{expected[1]}']").click()
        wait_for(driver, lambda d: expected in css(d, f"{card} .stepper-value").text, message=f"the stepper shows {expected}")
    planned = s.get(server.url(f"/api/v1/plan/assignments/{week['wednesday']['id']}")).json()
    assert planned["servings"] == 2 and planned["servingsSet"], planned
    # The week against the goals: a bar per planned day and the average.
    # Read through wait_for: the steppers' answers swap these parts in place, and one read mid-swap goes stale.
    wait_for(driver, lambda d: all_css(d, "#day-2026-11-30-goals meter") and "kcal" in css(d, "#day-2026-11-30-goals").text,
             message="a bar per planned day")
    wait_for(driver, lambda d: "under" in css(d, "#week-goals").text,  # one dinner a day is far under 2,000 kcal
             message="the week's average against the goals")
    screenshot(driver, "planner-portions-goals")

    # One tap on the planner makes the week's list.
    taps = Taps()
    taps.tap(css(driver, ".week-tools button[type=submit]"))
    wait_for(driver, lambda d: "/shopping/" in d.current_url)
    assert sorted((n, a) for n, a, _ in rows(driver)) == [("Chicken breast", "600 g"), ("Milk", "250 ml"), ("Rice", "1 pack of 1 kg (650 g)")]
    assert "for the 1 of 3 items with a price" in css(driver, ".shopping-head").text, "the total says what it counts"
    assert "Not counted (no ingredients): Desk salad <with> “dressing”." in css(driver, "#uncounted").text, "a lunch the list left out is named"
    assert css(driver, "#list-title").text == "Shopping 30 November – 6 December"
    assert "Chicken rice, Rice pudding" in row(driver, "Rice").text
    screenshot(driver, "shopping-list")

    # In the shop: one tap checks rice off; it sinks to the basket and stays after a reload.
    taps.tap(row(driver, "Rice").find_element(By.CSS_SELECTOR, ".shop-row"))
    wait_for(driver, lambda d: rows(d)[-1] == ["Rice", "1 pack of 1 kg (650 g)", True], message="rice checked, at the bottom")
    assert taps.count == 2
    driver.refresh()
    wait_for(driver, lambda d: rows(d)[-1] == ["Rice", "1 pack of 1 kg (650 g)", True])
    # Dish soap, which is in no meal.
    css(driver, "#item-name").send_keys("dish soap")
    css(driver, "#add-item-title ~ form button[type=submit]").click()
    wait_for(driver, lambda d: any(n == "dish soap" for n, _, _ in rows(d)))

    # The chicken goes in the butcher's aisle (the person's choice stays through refreshes).
    row(driver, "Chicken breast").find_element(By.CSS_SELECTOR, ".shop-edit").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#edit-aisle"))
    aisle = css(driver, "#edit-aisle")
    aisle.clear()
    aisle.send_keys("Butcher")
    css(driver, "form[action^='/shopping/items/'] button[type=submit]").click()
    wait_for(driver, lambda d: "/shopping/" in d.current_url and d.find_elements(By.CSS_SELECTOR, "#shopping-items"))
    aisle_of = "return [...document.querySelectorAll('.aisle')].find(a => a.textContent.includes(arguments[0]))?.querySelector('.aisle-title').textContent"
    assert driver.execute_script(aisle_of, "Chicken breast") == "Butcher"

    # Tuesday's pudding moves out of the range; Refresh keeps rice checked and the soap, drops the milk.
    r = s.put(server.url(f"/api/v1/plan/assignments/{week['tuesday']['id']}"),
              json={"mealId": week["pudding"]["id"], "date": "2026-12-10", "mealType": "dinner"})
    assert r.status_code == 200, r.text
    # The list redraws itself on that change (the event stream) and may do so as Refresh is tapped:
    # css() finds the button again then (fresh_element.py).
    css(driver, "form[action$='/refresh'] button").click()
    wait_for(driver, lambda d: not any(n == "Milk" for n, _, _ in rows(d)), message="the milk went")
    shown = rows(driver)
    assert ["Rice", "1 pack of 1 kg (450 g)", True] in shown and any(n == "dish soap" for n, _, _ in shown), shown
    assert driver.execute_script(aisle_of, "Chicken breast") == "Butcher", "the chosen aisle stays"

    # Share: the link opens the list in a browser with no cookies and no account.
    css(driver, "form[action$='/share'] button").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#share-url"), message="the link is shown")
    link = css(driver, "#share-url").get_attribute("value")
    assert "/s/" in link
    axe_check(driver, "shopping-list")
    stranger = make_driver("phone")
    try:
        stranger.get(link)
        assert stranger.get_cookies() == [] or all(c["name"] == "forkcast-visitor" for c in stranger.get_cookies())
        wait_for(stranger, lambda d: len(rows(d)) == 3)
        assert not all_css(stranger, "nav.tabs") and not all_css(stranger, "#item-name"), "nothing but the list"
        stranger.find_element(By.CSS_SELECTOR, "#shopping-items .shop-item:not(.checked) .shop-row").click()
        wait_for(stranger, lambda d: sum(1 for _, _, c in rows(d) if c) == 2, message="the stranger checks one off")
        screenshot(stranger, "shopping-shared")
        axe_check(stranger, "shopping-shared")
        listed = s.get(server.url(f"/api/v1/shopping-lists/{driver.current_url.rsplit('/', 1)[1]}")).json()
        assert sum(1 for i in listed["items"] if i["checked"]) == 2, listed
        # The owner's open page follows the other phone's check without a reload (the change feed).
        wait_for(driver, lambda d: sum(1 for _, _, c in rows(d)) and sum(1 for _, _, c in rows(d) if c) == 2, timeout=15,
                 message="the owner's page shows the stranger's check live")
        # And the other way: the owner's check shows on the shared page without a reload.
        driver.find_element(By.CSS_SELECTOR, "#shopping-items .shop-item:not(.checked) .shop-row").click()
        wait_for(stranger, lambda d: sum(1 for _, _, c in rows(d) if c) == 3, timeout=15, message="the helper sees the owner's check live")
        assert css(driver, "[data-share-from=share-url]").text == "Share link", "the link has a Share button"
        # Revoked: the link is dead.
        driver.execute_script("document.querySelector(\"form[action$='/unshare'] button\").click()")
        wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#share-url"))
        stranger.get(link)
        assert not all_css(stranger, "#shopping-items"), "the revoked link shows no list"
        assert requests.get(link).status_code == 404
        assert not [e for e in browser_errors(stranger) if "404" not in e["message"]]
        # The lists page follows too: an item unchecked on another device changes its count live.
        list_id = driver.current_url.split("#")[0].rsplit("/", 1)[1]
        driver.get(server.url("/shopping"))
        wait_for(driver, lambda d: "3 of 3 in the basket" in css(d, ".shopping-lists").text)
        r = s.put(server.url(f"/api/v1/shopping-lists/{list_id}/items/{listed['items'][0]['id']}"), json={"checked": False})
        assert r.status_code == 200, r.text
        wait_for(driver, lambda d: "2 of 3 in the basket" in css(d, ".shopping-lists").text, timeout=15,
                 message="the lists page shows the other device's change without a reload")
    finally:
        stranger.quit()


def test_checks_made_without_a_connection_arrive_when_it_is_back(start_server):
    server = start_server()  # stopped below
    s = api_session(server)
    plan_the_issues_week(s, server)
    made = post(s, server, "/api/v1/shopping-lists", {"from": MONDAY, "to": "2026-12-06"})
    driver = make_driver("phone")
    try:
        sign_in(driver, server)
        kept_for_offline(driver, server, [f"/shopping/{made['id']}"])
        server.go_offline()  # in the shop, no signal
        row(driver, "Milk").find_element(By.CSS_SELECTOR, ".shop-row").click()
        wait_for(driver, lambda d: "pending" in row(d, "Milk").get_attribute("class"), timeout=15, message="kept on the phone")
        assert rows(driver)[-1] == ["Milk", "250 ml", True]
        wait_for(driver, lambda d: "1 change waiting" in css(d, "#sync-status").text)
        screenshot(driver, "shopping-offline")
        server.start()
        wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".shop-item.pending"), timeout=30, message="the outbox was sent")
        listed = requests.get(server.url(f"/api/v1/shopping-lists/{made['id']}"), headers=s.headers).json()
        assert [i["checked"] for i in listed["items"] if i["name"] == "Milk"] == [True], listed
        pantry = requests.get(server.url("/api/v1/pantry"), headers=s.headers).json()["items"]
        assert [(lot["food"], lot["amount"]) for lot in pantry] == [("Milk", 250)], f"the tick made offline booked in once: {pantry}"

        # A helper with the shared link, in the shop without signal: the tick waits on the phone.
        link = post(s, server, f"/api/v1/shopping-lists/{made['id']}/share", {})["url"]
        helper = make_driver("phone")
        try:
            helper.get(link)
            wait_for(helper, lambda d: len(rows(d)) == 3)
            server.go_offline()
            row(helper, "Rice").find_element(By.CSS_SELECTOR, ".shop-row").click()
            wait_for(helper, lambda d: "pending" in row(d, "Rice").get_attribute("class"), message="kept on the helper's phone")
            assert next(r for r in rows(helper) if r[0] == "Rice")[2], "shown checked"
            server.start()
            wait_for(helper, lambda d: not d.find_elements(By.CSS_SELECTOR, ".shop-item.pending"), timeout=30, message="sent when the signal is back")
            listed = requests.get(server.url(f"/api/v1/shopping-lists/{made['id']}"), headers=s.headers).json()
            assert [i["checked"] for i in listed["items"] if i["name"] == "Rice"] == [True], listed
        finally:
            helper.quit()
    finally:
        driver.quit()


def test_fill_my_week_in_one_tap_and_never_against_a_filter(driver, server):
    s = api_session(server)
    plan_the_issues_week(s, server)
    post(s, server, "/api/v1/meals", {"description": "Green salad", "primaryCarb": "None",
                                     "nutrition": {"energyKcal": 350, "protein": 12, "carbohydrates": 20, "fat": 22}})
    sign_in(driver, server)
    start = "2026-12-14"
    driver.get(server.url(f"/plan/suggestions?start={start}&carb=Rice"))
    picks = all_css(driver, "input[name=pick]")
    assert picks, "suggestions for an empty week"
    assert "Green salad" not in css(driver, ".suggestion-days").text, "the filter holds"
    # Both meals have only ever been dinners: no breakfast or lunch gets one.
    slots = {p.get_attribute("value").split("|")[2] for p in picks}
    assert slots == {"dinner"}, slots
    # Any slot can be left out: dinners unticked, nothing is suggested for them.
    css(driver, "input[name=mealType][value=dinner]").click()
    css(driver, "input[name=mealType][value=lunch]").click() if not css(driver, "input[name=mealType][value=lunch]").is_selected() else None
    css(driver, "form[role=search] button[type=submit]").click()
    wait_for(driver, lambda d: "mealType=" in d.current_url)
    assert not any(p.get_attribute("value").endswith("|dinner") for p in all_css(driver, "input[name=pick]")), "dinners left out"
    driver.get(server.url(f"/plan/suggestions?start={start}&carb=Rice"))
    picks = all_css(driver, "input[name=pick]")
    screenshot(driver, "fill-my-week")
    axe_check(driver, "fill-my-week")
    # The button counts what is ticked, and cannot be pressed with nothing ticked.
    button = css(driver, "form[action='/plan/suggestions/accept'] button[type=submit]")
    assert button.text == f"Plan the ticked meals ({len(picks)})", button.text
    for pick in picks:
        pick.click()
    assert button.text == "Plan the ticked meals (0)" and not button.is_enabled(), button.text
    picks[0].click()
    assert button.text == "Plan the ticked meals (1)" and button.is_enabled(), button.text
    for pick in picks[1:]:
        pick.click()
    assert button.text == f"Plan the ticked meals ({len(picks)})", button.text
    css(driver, "form[action='/plan/suggestions/accept'] button[type=submit]").click()
    try:
        wait_for(driver, lambda d: "/plan" in d.current_url and "Planned" in d.page_source)
    except Exception:
        raise AssertionError(f"not planned: {driver.current_url} {css(driver, 'main').text[:600]}")
    plan = s.get(server.url(f"/api/v1/plan?start={start}")).json()
    planned = [a["meal"]["description"] for d in plan["days"] for a in d["assignments"]]
    assert len(planned) == len(picks) and set(planned) <= {"Chicken rice", "Rice pudding"}, planned
