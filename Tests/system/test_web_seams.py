"""The seams between the web app's parts, in real Chromium: the offline outbox and the pages kept
offline belong to the account that made them (two people, one browser). The server really stops
and starts again where a test goes offline."""
import datetime
import os
import uuid

import pytest
from selenium.webdriver.common.by import By

from browser import (all_css, api_session, axe_check, css, make_driver, screenshot, sign_in, wait_for,
                     create_food)
from offline_pages import (alert, entries_on, heard, kept_for_offline, outbox, script_errors,
                           start_with_signup, wait_for_outbox_round, watch_page)
from conftest import ROOT

PHOTOS = os.path.join(ROOT, "Tests", "Fixtures", "photos")
A = "ana@example.com"
B = "ben@example.com"


@pytest.fixture
def server(shared_server):
    """The module's server, for the tests that do not stop it; each test has an account of its own."""
    return shared_server


def account_id(s, server):
    return s.get(server.url("/api/v1/me")).json()["id"].lower()


def cached_pages(driver):
    """Every cache of the service worker: name -> [(url, body text)]."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const out = {};
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            out[name] = [];
            for (const request of await cache.keys()) {
              const response = await cache.match(request);
              out[name].push([request.url, (response.headers.get("Content-Type") || "").includes("image") ? "" : await response.text()]);
            }
          }
          return out;
        })().then(done, (e) => done({ error: String(e) }));
    """)


def sign_out(driver, server):
    driver.get(server.url("/settings"))
    css(driver, "form[action='/logout'] button[type=submit]").click()
    wait_for(driver, lambda d: "/login" in d.current_url, message="signed out")


def quick_add_offline(driver, server, name, kcal, meal_type="snack"):
    driver.get(server.url(f"/diary/add?mealType={meal_type}"))
    wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
    css(driver, "#field-quick\\.name").send_keys(name)
    css(driver, "#field-quick\\.energyKcal").send_keys(kcal)
    css(driver, "#plate-form button[type=submit]").click()
    wait_for(driver, lambda d: "kept on this device" in css(d, "#form-message").text)


def test_the_outbox_belongs_to_the_account_that_queued_it(data_dir):
    """Ana logs a snack offline and her session ends before it is sent; Ben signs in on the same
    browser: he is not shown her snack, it is not sent into his diary, her food names are not his.
    Signing out with something waiting says so first and still signs out; Ana's next sign-in sends it
    to her diary."""
    server = start_with_signup(data_dir)
    driver = make_driver("phone")
    watch_page(driver)
    try:
        ana = api_session(server, A)
        ben = api_session(server, B)
        today = ana.get(server.url("/api/v1/plan")).json()["today"]
        yesterday = (datetime.date.fromisoformat(today) - datetime.timedelta(days=1)).isoformat()
        muesli = create_food(ana, server, name="Alpine muesli", per100={"energyKcal": 370}, serving={"size": 50, "label": "1 bowl"})
        r = ana.post(server.url("/api/v1/diary/plate"), json={"loggedAt": yesterday + "T07:00:00Z", "mealType": "snack",
                                                             "items": [{"foodId": muesli["id"], "quantity": 1, "unit": "serving"}]})
        assert r.status_code == 201, r.text  # eaten before: one of Ana's usual foods, remembered on the plate
        sign_in(driver, server, A)
        kept_for_offline(driver, server, ["/diary/add?mealType=snack", "/diary"])

        server.go_offline()
        quick_add_offline(driver, server, "Ana's secret snack", "111")
        driver.get(server.url("/diary"))
        wait_for(driver, lambda d: "1 change waiting" in css(d, "#sync-status").text)
        # Her session ends before the snack could be sent (the browser dropped the cookie, the tab closed).
        driver.get("about:blank")
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})

        server.start()  # back: same port, same database
        sign_in(driver, server, B)
        driver.get(server.url("/diary"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "meal-groups"))
        # The event stream's first answer (it sends what waits, when it opens), then a whole round of
        # the outbox timer: either would have sent Ana's snack.
        wait_for(driver, lambda d: heard(d)["streamOpened"] > 0, timeout=15, message="the event stream opened")
        wait_for_outbox_round(driver)
        assert not all_css(driver, ".entry.pending"), "Ben is shown Ana's waiting snack"
        status = css(driver, "#sync-status")
        assert "waiting" not in status.text and "snack" not in status.text.lower(), status.text
        assert "Ana's secret snack" not in css(driver, "body").text
        assert entries_on(ben, server, today) == [], "Ana's snack was sent into Ben's diary"
        assert [i["display"]["name"] for i in outbox(driver)] == ["Ana's secret snack"], "kept for Ana"

        # Offline, Ana's foods are not Ben's: her food's name means nothing on his plate.
        kept_for_offline(driver, server, ["/diary/add?mealType=snack"])
        server.go_offline()
        driver.get(server.url("/diary/add?mealType=snack"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
        css(driver, "#ingredient-food-1").send_keys("Alpine muesli")
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "not among the foods this device has seen" in css(d, "#error-banner").text,
                 message="Ana's food was taken as Ben's")
        assert len(outbox(driver)) == 1
        server.start()

        # Ben has nothing waiting: no note beside Sign out.
        driver.get(server.url("/settings"))
        # The page has read the outbox once it says how it stands (outbox-status.js sets the status's
        # state, then the note beside Sign out, in one go).
        wait_for(driver, lambda d: css(d, "#sync-status").get_attribute("data-state"), message="the outbox was read")
        assert not all_css(driver, "#sign-out-outbox")
        sign_out(driver, server)

        # Ana again, while her changes cannot get through: Settings says so beside Sign out, and
        # signing out still works.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/sync/push*"]})
        sign_in(driver, server, A)
        driver.get(server.url("/settings"))
        wait_for(driver, lambda d: all_css(d, "#sign-out-outbox"), message="the note beside Sign out")
        note = css(driver, "#sign-out-outbox").text
        assert "1 entry is waiting to be sent" in note and "stays on this device" in note and "sign in again" in note, note
        assert css(driver, "form[action='/logout'] button").get_attribute("aria-describedby") == "sign-out-outbox"
        screenshot(driver, "seams-sign-out-note")
        axe_check(driver, "seams-sign-out-note")
        sign_out(driver, server)
        assert entries_on(ana, server, today) == []

        # Her next sign-in sends it, to her diary only.
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        sign_in(driver, server, A)
        wait_for(driver, lambda d: [e["name"] for e in entries_on(ana, server, today)] == ["Ana's secret snack"], timeout=30,
                 message="Ana's snack reaches her diary")
        wait_for(driver, lambda d: outbox(d) == [], timeout=10)
        assert entries_on(ben, server, today) == []
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


def test_changes_kept_before_the_outbox_knew_accounts_are_never_sent(server):
    """An outbox item from before items carried their account could be anybody's: it is shown (as a
    count, not by name), never sent, and goes only when the person confirms the Discard."""
    s = api_session(server)
    today = s.get(server.url("/api/v1/plan")).json()["today"]
    driver = make_driver("phone")
    watch_page(driver)
    try:
        sign_in(driver, server)
        driver.get(server.url("/diary"))
        wait_for(driver, lambda d: outbox(d) == [], message="the outbox is open")
        # What an earlier version of offline.js stored: no account.
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        driver.execute_async_script("""
            const [item, done] = arguments;
            const open = indexedDB.open("forkcast");
            open.onsuccess = () => {
              const tx = open.result.transaction("outbox", "readwrite");
              tx.objectStore("outbox").put(item);
              tx.oncomplete = () => done(true);
            };
        """, {"mutationId": str(uuid.uuid4()), "kind": "diaryEntry", "id": str(uuid.uuid4()), "op": "upsert", "updatedAt": now,
              "queuedAt": now, "record": {"mealType": "snack", "date": today, "quickAdd": {"energyKcal": 500}, "name": "Somebody's cake"},
              "display": {"name": "Somebody's cake", "amount": "quick add, 500 kcal", "date": today, "mealType": "snack"}})
        driver.refresh()
        wait_for_outbox_round(driver)
        assert entries_on(s, server, today) == [], "an unowned change was sent into the signed-in account"
        wait_for(driver, lambda d: all_css(d, "#outbox-held"), message="the unowned change is shown")
        held = css(driver, "#outbox-held").text
        assert "1 change kept by an earlier version" in held and "never sent" in held, held
        assert "Somebody's cake" not in css(driver, "body").text, "whose it is is unknown: its name is not shown"
        screenshot(driver, "seams-unowned")

        # Discard asks first; no keeps it.
        css(driver, "#outbox-held [data-discard-unowned]").click()
        alert(driver).dismiss()
        # A discard would start its delete as confirm() answers, before this read of the outbox, which
        # IndexedDB then runs after it: no wait.
        assert len(outbox(driver)) == 1 and all_css(driver, "#outbox-held")
        css(driver, "#outbox-held [data-discard-unowned]").click()
        alert(driver).accept()
        wait_for(driver, lambda d: not d.find_elements(By.ID, "outbox-held"))
        assert outbox(driver) == []
        assert entries_on(s, server, today) == []
    finally:
        driver.quit()


def test_pages_kept_offline_are_only_shown_to_the_account_that_saw_them(data_dir):
    """Ana's pages kept for offline use are never shown to Ben: neither when her session ended
    without signing out and Ben signed in on a sign-in page already open in another tab, nor after
    she signed out. Ben's own pages still open offline."""
    server = start_with_signup(data_dir)
    driver = make_driver("phone")
    try:
        ana = api_session(server, A)
        ben = api_session(server, B)
        create_food(ana, server, name="Alpine muesli", per100={"energyKcal": 370})
        ben_id = account_id(ben, server)

        def offline_page_is_bens(path):
            driver.get(server.url(path))
            wait_for(driver, lambda d: d.find_elements(By.ID, "main"))
            body = css(driver, "body").text
            assert "Alpine muesli" not in body, f"Ben was shown Ana's kept {path}"
            accounts = [m.get_attribute("content") for m in all_css(driver, "meta[name='forkcast-account']")]
            assert accounts in ([], [ben_id]), f"{path} offline is a page of {accounts}"
            return body

        # 1. A sign-in page is open in one tab; Ana signs in in another and opens her pages.
        driver.get(server.url("/login"))
        first_tab = driver.current_window_handle
        driver.switch_to.new_window("tab")
        sign_in(driver, server, A)
        kept_for_offline(driver, server, ["/diary", "/foods"])
        assert "Alpine muesli" in css(driver, "body").text
        # Her session ends without signing out (it expired); her tab is closed.
        for cookie in driver.get_cookies():
            if cookie["name"] == "forkcast-session":
                driver.delete_cookie(cookie["name"])
        driver.close()
        driver.switch_to.window(first_tab)
        # Ben signs in on the sign-in page that was open all along.
        css(driver, "#field-email").send_keys(B)
        css(driver, "#field-password").send_keys("correct horse")
        css(driver, "form button[type=submit]").click()
        wait_for(driver, lambda d: "/diary" in d.current_url)
        wait_for(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=15)
        driver.get(server.url("/diary"))

        server.go_offline()
        assert "cannot be reached" in offline_page_is_bens("/foods")
        offline_page_is_bens("/diary")
        assert all_css(driver, "#meal-groups"), "Ben's own Today still opens offline"
        server.start()

        # 2. Ben signs out; Ana signs in, opens her pages and signs out; Ben signs in again.
        sign_out(driver, server)
        sign_in(driver, server, A)
        kept_for_offline(driver, server, ["/diary", "/foods"])
        sign_out(driver, server)
        sign_in(driver, server, B)
        driver.get(server.url("/diary"))
        kept = cached_pages(driver)
        assert "error" not in kept, kept
        leaks = [(name, url) for name, pages in kept.items() for url, text in pages if "Alpine muesli" in text]
        assert leaks == [], f"Ana's pages are still kept: {leaks}"

        server.go_offline()
        assert "cannot be reached" in offline_page_is_bens("/foods")
        offline_page_is_bens("/diary")
        assert all_css(driver, "#meal-groups")
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()
