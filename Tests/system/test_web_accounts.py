"""First visit, setup, sign in and out, CSRF, signing up and joining a household by invitation — in
real Chromium at a phone's size."""
import pytest
import requests
from selenium.webdriver.common.by import By

from browser import (all_css, api_session, as_someone_else, axe_check, click_suggestion, create_food, create_meal, css, screenshot,
                     sign_in, wait_for)


@pytest.fixture
def server(shared_server):
    """One server for the module; each test but the first visit has an account of its own."""
    return shared_server


def test_first_visit_sets_up_the_owner_account(driver, start_server):
    server = start_server()  # an empty database: the first visit sets it up
    driver.get(server.url("/"))
    wait_for(driver, lambda d: d.current_url.endswith("/setup"))
    assert "Welcome to Forkcast" in css(driver, "h1").text
    screenshot(driver, "setup")
    axe_check(driver, "setup")

    # A bad submission keeps what was typed and shows each error next to its field.
    css(driver, "#field-displayName").send_keys("Sam")
    css(driver, "#field-email").send_keys("sam@example")
    css(driver, "#field-password").send_keys("short")
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#field-password-error"))
    assert "8 characters" in css(driver, "#field-password-error").text
    assert css(driver, "#field-displayName").get_attribute("value") == "Sam"
    assert css(driver, "#field-password").get_attribute("aria-invalid") == "true"
    screenshot(driver, "setup-errors")
    axe_check(driver, "setup-errors")

    css(driver, "#field-email").clear()
    css(driver, "#field-email").send_keys("sam@example.com")
    css(driver, "#field-password").send_keys("long enough password")
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.endswith("/diary"), message="one landing page after setup: Today")
    assert css(driver, 'nav.tabs a[aria-current="page"]').text.strip() == "Today"
    # The account took the browser's time zone.
    me = requests.post(server.url("/api/v1/auth/login"), json={"email": "sam@example.com", "password": "long enough password"}).json()
    assert me["user"]["timeZone"] not in ("", None)

    # Setup is gone once the owner exists.
    driver.get(server.url("/setup"))
    wait_for(driver, lambda d: d.current_url.endswith("/login") or d.current_url.endswith("/diary"))


def test_sign_out_and_sign_in(driver, server):
    api_session(server)
    driver.get(server.url("/plan"))
    wait_for(driver, lambda d: "/login" in d.current_url)
    screenshot(driver, "login")
    axe_check(driver, "login")
    css(driver, "#field-email").send_keys(server.email)
    css(driver, "#field-password").send_keys("wrong password")
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#login-error"))
    assert "wrong" in css(driver, "#login-error").text
    assert css(driver, "#field-email").get_attribute("value") == server.email

    css(driver, "#field-password").send_keys("correct horse")
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.endswith("/plan"), message="sign-in goes back to the page asked for")

    driver.get(server.url("/settings"))
    screenshot(driver, "settings")
    axe_check(driver, "settings")
    css(driver, "form[action='/logout'] button").click()
    wait_for(driver, lambda d: "/login" in d.current_url)
    driver.get(server.url("/meals"))
    wait_for(driver, lambda d: "/login" in d.current_url, message="signed out for real")


def test_forms_without_the_csrf_token_are_refused(server):
    api_session(server)
    web = requests.Session()
    page = web.get(server.url("/login"))
    assert page.status_code == 200
    r = web.post(server.url("/login"), data={"email": server.email, "password": "correct horse"}, allow_redirects=False)
    assert r.status_code == 403
    token = page.text.split('name="_csrf" value="')[1].split('"')[0]
    r = web.post(server.url("/login"), data={"_csrf": token, "email": server.email, "password": "correct horse"}, allow_redirects=False)
    assert r.status_code == 303
    # Signing in starts a new session with a new token; the one from the sign-in form is dead.
    assert web.post(server.url("/api/v1/meals"), json={"description": "Old"}, headers={"X-CSRF-Token": token}).status_code == 403
    token = web.get(server.url("/meals")).text.split('name="csrf-token" content="')[1].split('"')[0]
    # Signed in by cookie, the API also wants the token for changes.
    r = web.post(server.url("/api/v1/meals"), json={"description": "Forged"})
    assert r.status_code == 403
    r = web.post(server.url("/api/v1/meals"), json={"description": "Mine"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 201


def test_settings_change_the_time_zone(driver, server):
    api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/settings"))
    # The zones are grouped by region and found by typing the place.
    regions = driver.execute_script("return [...document.querySelectorAll('#field-timeZone optgroup')].map(g => g.label)")
    assert regions == sorted(regions) and "Europe" in regions and "Pacific" in regions, regions
    field = css(driver, "#field-timeZone-search")
    field.clear()
    field.send_keys("Auckl")
    click_suggestion(driver, ".suggestion", "Auckland (Pacific)")
    css(driver, "form[action='/settings'] button[type=submit]").click()
    wait_for(driver, lambda d: "Settings saved" in d.page_source)
    assert css(driver, "#field-timeZone").get_attribute("value") == "Pacific/Auckland"


def fill_signup(driver, name, email, password="a long household passphrase"):
    css(driver, "#field-displayName").send_keys(name)
    css(driver, "#field-email").send_keys(email)
    css(driver, "#field-password").send_keys(password)
    css(driver, "form[action='/signup'] button[type=submit]").click()


def test_sign_up_on_the_web_when_the_server_allows_it(driver, server):
    # The module's server lets people sign up; the owner is another test's account.
    sam = "sam-" + server.email  # signed in with in small letters
    typed = sam.split("@")[0].upper() + "@example.com"  # signed up with in capitals
    driver.get(server.url("/login"))
    css(driver, "#create-account").click()
    wait_for(driver, lambda d: d.current_url.endswith("/signup"))
    axe_check(driver, "signup")
    screenshot(driver, "signup")
    fill_signup(driver, "Sam \u202e<b>", typed, password="short")
    wait_for(driver, lambda d: "8" in css(d, "#field-password-error").text if d.find_elements(By.ID, "field-password-error") else False,
             message="a short password is refused beside its field")
    assert css(driver, "#field-email").get_attribute("value") == typed, "what was typed stays"
    css(driver, "#field-password").send_keys("a long household passphrase")
    css(driver, "form[action='/signup'] button[type=submit]").click()
    wait_for(driver, lambda d: "/diary" in d.current_url, message="signed in as the new person")
    assert "Welcome" in css(driver, ".flash").text
    # The new account signs in with what was chosen (the email compared in any case).
    r = requests.post(server.url("/api/v1/auth/login"), json={"email": sam, "password": "a long household passphrase"})
    assert r.status_code == 200, r.text


def test_the_owner_invites_a_household_member_while_sign_up_is_closed(driver, start_server):
    import requests as plain
    server = start_server()  # sign-up closed (the default), and the first account is the owner
    api_session(server)  # the owner (first account); sign-up is closed by default
    assert plain.get(server.url("/signup")).status_code == 403
    driver.get(server.url("/login"))
    assert not all_css(driver, "#create-account"), "no Create account while sign-up is closed"
    r = plain.post(server.url("/api/v1/auth/register"), json={"email": "x@example.com", "password": "a long household passphrase"})
    assert r.status_code == 403
    sign_in(driver, server)
    driver.get(server.url("/settings"))
    css(driver, "a[href='/settings/invitations']").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "make-invitation"))
    css(driver, "#make-invitation").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "invitation-link"))
    link = css(driver, "#invitation-link").get_attribute("value")
    assert "/signup?invite=" in link
    screenshot(driver, "invitations")
    axe_check(driver, "invitations")
    assert len(all_css(driver, ".invitations .invitation")) == 1
    # Someone else's browser: the link opens sign-up.
    as_someone_else(driver, server)
    driver.get(link)
    assert "You were invited" in css(driver, "main").text
    fill_signup(driver, "Robin", "robin@example.com")
    wait_for(driver, lambda d: "/diary" in d.current_url, message="the invited person is signed in")
    # Used up: the same link creates nothing more, on the web or through the API.
    as_someone_else(driver, server)
    driver.get(link)
    assert "has been used" in css(driver, "#signup-error").text, driver.current_url
    token = link.split("invite=")[1]
    r = plain.post(server.url("/api/v1/auth/register"), json={"email": "third@example.com", "password": "a long household passphrase", "invitation": token})
    assert r.status_code == 403 and "used" in r.json()["detail"], r.text
    # A member who is not the owner cannot invite.
    r = plain.post(server.url("/api/v1/auth/login"), json={"email": "robin@example.com", "password": "a long household passphrase"})
    assert r.status_code == 200
    sign_in(driver, server, email="robin@example.com", password="a long household passphrase")
    driver.get(server.url("/settings/invitations"))
    assert "Only this server's owner" in css(driver, "main").text and not all_css(driver, "#make-invitation")


def test_settings_show_the_household_and_its_owner_renames_it(driver, server):
    s = api_session(server)
    sign_in(driver, server)
    driver.get(server.url("/settings"))
    css(driver, 'a[href="/settings/household"]').click()
    wait_for(driver, lambda d: d.current_url.endswith("/settings/household"))
    assert css(driver, ".household-name").text == "My household"
    [member] = all_css(driver, ".member")
    assert member.text.split("\n") == ["You", "Owner"]
    axe_check(driver, "household")

    # A blank name is refused next to its field and changes nothing.
    field = css(driver, "#field-name")
    field.clear()
    field.send_keys("   ")
    css(driver, "#household-name button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#field-name-error"))
    assert "Give the household a name" in css(driver, "#field-name-error").text
    assert css(driver, "#field-name").get_attribute("aria-invalid") == "true"
    assert s.get(server.url("/api/v1/household")).json()["name"] == "My household"

    name = 'Casa <b>"Ana"</b> \u05e9\u05dc\u05d5\u05dd'
    field = css(driver, "#field-name")
    field.clear()
    field.send_keys(name)
    css(driver, "#household-name button[type=submit]").click()
    wait_for(driver, lambda d: css(d, ".household-name").text == name, message="the new name shows as typed")
    assert s.get(server.url("/api/v1/household")).json()["name"] == name
    screenshot(driver, "household")


def test_a_coach_reads_a_diary_link_until_it_is_revoked(driver, server):
    s = api_session(server)
    food = create_food(s, server, name="Chickpeas <b>", per100={"energyKcal": 164, "protein": 8.9})
    r = s.post(server.url("/api/v1/diary/entries"), json={"foodId": food["id"], "quantity": 200, "unit": "g", "mealType": "lunch"})
    assert r.status_code == 201, r.text
    sign_in(driver, server)
    driver.get(server.url("/settings/data"))
    css(driver, 'a[href="/settings/coach"]').click()
    wait_for(driver, lambda d: d.current_url.endswith("/settings/coach"))
    assert css(driver, "#no-coach-links")
    axe_check(driver, "coach-links")
    css(driver, 'input[name="shows"][value="weights"]').click()  # diary and nutrients only
    css(driver, "#make-coach-link").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#coach-link"))
    link = css(driver, "#coach-link").get_attribute("value")
    assert "/coach/" in link and len(all_css(driver, "#coach-links li")) == 1
    screenshot(driver, "coach-links")

    # Signed out, the link opens the diary read-only: the day's food, no navigation, no weights.
    as_someone_else(driver, server)
    driver.get(link)
    wait_for(driver, lambda d: d.find_elements("css selector", ".coach-food"))
    assert css(driver, ".coach-food").text == "Chickpeas <b>"
    assert not all_css(driver, "nav.tabs") and "Weights" not in css(driver, "main").text
    assert "328" in css(driver, ".coach-totals").text
    axe_check(driver, "coach")
    screenshot(driver, "coach")
    r = requests.get(link)
    assert r.headers["X-Robots-Tag"].startswith("noindex") and r.headers["Cache-Control"] == "no-store"

    # Revoked from Settings: the page is gone at once.
    sign_in(driver, server)
    driver.get(server.url("/settings/coach"))
    css(driver, "#coach-links button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#no-coach-links"))
    assert requests.get(link).status_code == 404


def test_a_person_joins_the_household_with_its_link_and_leaves_with_a_copy(driver, server):
    owner = api_session(server, email="hh-owner@example.com")
    create_meal(owner, server, "Chili")
    joiner = api_session(server, email="hh-joiner@example.com")
    create_meal(joiner, server, "Pancakes")
    sign_in(driver, server, email="hh-owner@example.com")
    driver.get(server.url("/settings/household"))
    css(driver, "#make-household-link").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "household-link"))
    link = css(driver, "#household-link").get_attribute("value")
    assert "/household/join?invite=" in link
    assert len(all_css(driver, "#household-invitations .invitation")) == 1

    # Signed out, the link offers sign-up or sign-in; signed in, it says what moves.
    as_someone_else(driver, server)
    driver.get(link)
    assert css(driver, "#join-signup").get_attribute("href").endswith("/signup?invite=" + link.split("invite=")[1])
    sign_in(driver, server, email="hh-joiner@example.com")
    driver.get(link)
    assert "1 meal," in css(driver, "#join-moves").text
    screenshot(driver, "household-join")
    axe_check(driver, "household-join")
    css(driver, "#join-household").click()
    wait_for(driver, lambda d: d.current_url.endswith("/settings/household"), message="joined, on Settings › Household")
    assert [m.text.split("\n")[1] for m in all_css(driver, ".member")] == ["Owner", "Member"]
    names = sorted(m["description"] for m in joiner.get(server.url("/api/v1/meals")).json()["items"])
    assert names == ["Chili", "Pancakes"]
    assert sorted(m["description"] for m in owner.get(server.url("/api/v1/meals")).json()["items"]) == names
    screenshot(driver, "household-members")

    # Who eats: the owner plans the Chili for themself only, two portions. The member's Today does
    # not offer it; the planner shows who eats, and the member adds themself there.
    me = owner.get(server.url("/api/v1/me")).json()["id"]
    joiner_id = joiner.get(server.url("/api/v1/me")).json()["id"]
    chili = next(m["id"] for m in owner.get(server.url("/api/v1/meals")).json()["items"] if m["description"] == "Chili")
    today = owner.get(server.url("/api/v1/plan")).json()["today"]
    r = owner.post(server.url("/api/v1/plan/assignments"),
                   json={"mealId": chili, "date": today, "mealType": "dinner", "eaters": [{"userId": me, "portions": 2}]})
    assert r.status_code == 201, r.text
    planned = r.json()["id"]
    driver.get(server.url("/diary"))
    assert not all_css(driver, f"#plan-{planned}"), "not on the Today of someone who does not eat it"
    driver.get(server.url(f"/plan?start={today}"))
    summary = css(driver, f"#assignment-{planned} .eaters-edit summary")
    assert "×2" in summary.text
    summary.click()
    css(driver, f"#assignment-{planned} input[name='eater-{planned.upper()}'][value='{joiner_id.upper()}']").click()
    css(driver, f"#assignment-{planned} .eaters-edit button[type=submit]").click()
    wait_for(driver, lambda d: len(joiner.get(server.url(f"/api/v1/plan/assignments/{planned}")).json()["eaters"] or []) == 2,
             message="both eat it now")
    screenshot(driver, "planner-eaters")
    driver.get(server.url("/diary"))
    assert all_css(driver, f"#plan-{planned}"), "on their Today now"
    driver.get(server.url("/settings/household"))

    # Leaving: a household of one's own with a copy; the household keeps the Pancakes.
    css(driver, "#leave-household").click()
    driver.switch_to.alert.accept()
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".member")) == 1, message="alone in a household of one's own")
    assert sorted(m["description"] for m in owner.get(server.url("/api/v1/meals")).json()["items"]) == names
    copies = joiner.get(server.url("/api/v1/meals")).json()["items"]
    assert sorted(m["description"] for m in copies) == names
