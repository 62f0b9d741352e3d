"""The seams between the web app's parts, in real Chromium: the offline outbox and the pages kept
offline belong to the account that made them (two people, one browser), a photo waiting offline is
kept until the server has it or the person discards it, an offline plate is saved whole or not at
all (and never split across two pushes), and the planner's "Add a meal" dialog saves the slot
chosen under "For". The server really stops and starts again where a test goes offline."""
import datetime
import os
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from browser import (all_css, api_session, axe_check, click_suggestion, browser_errors, create_meal, css, kept_for_offline, make_driver,
                     heard, screenshot, sign_in, wait_for, wait_for_outbox_round, watch_page)
from conftest import ROOT, Server, base_env

PHOTOS = os.path.join(ROOT, "Tests", "Fixtures", "photos")
A = "ana@example.com"
B = "ben@example.com"


@pytest.fixture
def server(shared_server):
    """The module's server, for the tests that do not stop it; each test has an account of its own."""
    return shared_server


def start(data_dir):
    """A Forkcast that lets a second person register (two accounts share one browser below)."""
    return Server(base_env(data_dir, FORKCAST_ALLOW_SIGNUP="true"), data_dir).start()


def create_food(s, server, **body):
    r = s.post(server.url("/api/v1/foods"), json=body)
    assert r.status_code == 201, r.text
    return r.json()


def account_id(s, server):
    return s.get(server.url("/api/v1/me")).json()["id"].lower()


def entries_on(s, server, date):
    day = s.get(server.url(f"/api/v1/diary?date={date}")).json()
    return [dict(e, group=g["mealType"]) for g in day["entries"] for e in g["entries"]]


def outbox(driver):
    """The browser's outbox (IndexedDB), without the photos' bytes."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const open = indexedDB.open("forkcast");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("outbox")) { done([]); return; }
          const read = db.transaction("outbox").objectStore("outbox").getAll();
          read.onsuccess = () => done(read.result.map(({ photo, ...item }) => ({ ...item, hasPhoto: !!photo })));
          read.onerror = () => done(null);
        };
        open.onerror = () => done(null);
    """)


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


def alert(driver):
    """The confirm() the page shows (after reading the outbox, so a moment after the tap)."""
    return wait_for(driver, lambda d: EC.alert_is_present()(d), timeout=5, message="the page asks first")


def script_errors(driver):
    return [e for e in browser_errors(driver) if "sync/events" not in e["message"] and "sw.js" not in e["message"]
            and "/api/v1/" not in e["message"]]


def test_the_outbox_belongs_to_the_account_that_queued_it(data_dir):
    """Ana logs a snack offline and her session ends before it is sent; Ben signs in on the same
    browser: he is not shown her snack, it is not sent into his diary, her food names are not his.
    Signing out with something waiting says so first and still signs out; Ana's next sign-in sends it
    to her diary."""
    server = start(data_dir)
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
    server = start(data_dir)
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


def test_a_photo_waiting_offline_is_kept_until_sent_or_discarded(data_dir):
    """Two photos wait offline. When the server is back, this page's CSRF token is stale (403): both
    stay. With a fresh page the photo is saved; the file the server refuses stays with the server's
    reason and a Discard button."""
    server = start(data_dir)
    driver = make_driver("phone")
    watch_page(driver)
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        not_a_photo = os.path.join(data_dir, "not-a-photo.jpg")
        with open(not_a_photo, "w") as f:
            f.write("this is a shopping list, not a photo\n" * 20)
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary"])

        server.go_offline()
        for path in [os.path.join(PHOTOS, "photo.webp"), not_a_photo]:
            css(driver, "#capture-file").send_keys(path)
            wait_for(driver, lambda d: css(d, "#capture-save").is_enabled())
            css(driver, "#capture-save").click()
            wait_for(driver, lambda d: "No connection" in css(d, "#capture-status").text, timeout=15)
            driver.execute_script("document.getElementById('capture-status').textContent = ''")
        wait_for(driver, lambda d: len([i for i in outbox(d) if i["hasPhoto"]]) == 2)
        # The page's token goes stale (signed in again elsewhere): uploads answer 403.
        driver.execute_script("document.querySelector('meta[name=\"csrf-token\"]').content = 'stale-token'")

        server.start()
        wait_for(driver, lambda d: css(d, "#sync-status").get_attribute("data-state") == "failed", timeout=30,
                 message="the refused upload is reported")
        assert len([i for i in outbox(driver) if i["hasPhoto"]]) == 2, "a photo was deleted on a 403"
        assert "Not sent yet: Photo" in css(driver, "#sync-status").text, css(driver, "#sync-status").text
        wait_for_outbox_round(driver, message="another round of the outbox")
        assert len([i for i in outbox(driver) if i["hasPhoto"]]) == 2, "still kept after another round"
        assert entries_on(s, server, today) == []

        # A fresh page (a fresh token): the photo goes; the text file is refused and stays.
        driver.refresh()
        wait_for(driver, lambda d: len(entries_on(s, server, today)) == 1, timeout=30, message="the photo is saved")
        entry = entries_on(s, server, today)[0]
        assert entry["kind"] == "photo" and entry["photo"], entry
        wait_for(driver, lambda d: all_css(d, "#outbox-held [data-discard]"), timeout=15, message="the refused file is shown")
        held = css(driver, "#outbox-held").text
        remaining = outbox(driver)
        assert len(remaining) == 1 and remaining[0]["hasPhoto"] and remaining[0]["refused"]["detail"], remaining
        assert remaining[0]["refused"]["detail"] in held, "the server's reason is shown"
        assert "Not saved" in css(driver, "#sync-status").text
        screenshot(driver, "seams-photo-refused")

        # Discard asks, then removes it.
        css(driver, "#outbox-held [data-discard]").click()
        question = alert(driver)
        assert "only on this device" in question.text
        question.accept()
        wait_for(driver, lambda d: not d.find_elements(By.ID, "outbox-held"))
        assert outbox(driver) == []
        wait_for_outbox_round(driver, message="a round of the outbox after the discard")
        assert len(entries_on(s, server, today)) == 1
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


RECORD_PUSHES = """
window.__pushes = [];
const original = window.fetch;
window.fetch = function (url, init) {
  if (String(url).includes("/api/v1/sync/push")) window.__pushes.push(JSON.parse(init.body));
  return original.apply(this, arguments);
};
"""


def test_an_offline_plate_is_saved_whole_or_not_at_all(data_dir):
    """A plate logged offline goes out as one group; when one of its foods was deleted meanwhile,
    none of it is saved, and the page shows the plate as one refused change to discard."""
    server = start(data_dir)
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        rye = create_food(s, server, name="Rye bread", per100={"energyKcal": 250}, serving={"size": 40, "label": "1 slice"})
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary/add?mealType=lunch", "/diary"])
        driver.get(server.url("/diary/add?mealType=lunch"))
        field = css(driver, "#ingredient-food-1")
        field.send_keys("Rye")
        wait_for(driver, lambda d: any("Rye bread" in o.text for o in all_css(d, "#ingredient-rows .suggestion")))
        click_suggestion(driver, "#ingredient-rows .suggestion", "Rye bread")
        css(driver, "#field-quick\\.name").send_keys("Apple")
        css(driver, "#field-quick\\.energyKcal").send_keys("95")
        # Meanwhile another device deletes the bread.
        assert s.delete(server.url(f"/api/v1/foods/{rye['id']}")).status_code == 204

        server.go_offline()
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "2 items are kept on this device" in css(d, "#form-message").text)
        queued = outbox(driver)
        assert len(queued) == 2 and len({i.get("group") for i in queued}) == 1 and queued[0].get("group"), queued
        driver.execute_script(RECORD_PUSHES)

        server.start()
        wait_for(driver, lambda d: all_css(d, "#outbox-held [data-discard]"), timeout=30, message="the refused plate is shown")
        pushes = driver.execute_script("return window.__pushes")
        sent = [m for p in pushes for m in p["mutations"]]
        assert len(sent) == 2 and len({m.get("group") for m in sent}) == 1 and sent[0].get("group"), sent
        assert entries_on(s, server, today) == [], "part of the plate was saved"
        rows = all_css(driver, "#outbox-held li")
        assert len(rows) == 1, "the plate is one change"
        assert "Rye bread" in rows[0].text and "Apple" in rows[0].text
        assert "Not saved" in css(driver, "#sync-status").text
        assert len(outbox(driver)) == 2 and all(i["refused"] for i in outbox(driver))
        screenshot(driver, "seams-plate-refused")
        axe_check(driver, "seams-plate-refused")
        rows[0].find_element(By.CSS_SELECTOR, "[data-discard]").click()
        alert(driver).accept()
        wait_for(driver, lambda d: outbox(d) == [])
        assert not all_css(driver, "#outbox-held")
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


def test_an_offline_plate_sends_what_its_rows_show_and_leaves_servings_and_name_to_the_server(data_dir):
    """Offline, the page sends what the rows show and nothing it decided: a food row with the amount
    the page filled in (one slice's 40 g, in grams), a meal without servings, a quick add without a
    name. The server's one rule makes them 40 g of bread, one serving of the meal, and "Quick add",
    as online."""
    server = start(data_dir)
    driver = make_driver("phone")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        create_food(s, server, name="Rye bread", per100={"energyKcal": 250}, serving={"size": 40, "label": "1 slice"})
        assert s.post(server.url("/api/v1/meals"), json={"description": "Bread roll", "nutrition": {"energyKcal": 120}}).status_code == 201
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary/add?mealType=lunch", "/diary"])
        driver.get(server.url("/diary/add?mealType=lunch"))
        css(driver, "#ingredient-food-1").send_keys("Rye")
        wait_for(driver, lambda d: any("Rye bread" in o.text for o in all_css(d, "#ingredient-rows .suggestion")))
        click_suggestion(driver, "#ingredient-rows .suggestion", "Rye bread")
        Select(css(driver, "#field-mealId")).select_by_visible_text("Bread roll")
        css(driver, "#field-mealServings").clear()
        css(driver, "#field-quick\\.energyKcal").send_keys("95")

        server.go_offline()
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "3 items are kept on this device" in css(d, "#form-message").text)
        records = sorted((i["record"] for i in outbox(driver)), key=lambda r: sorted(r))
        bread = next(r for r in records if "foodId" in r)
        assert (bread["quantity"], bread["unit"]) == (40, "g"), bread
        assert not any("servings" in r or "name" in r for r in records), records
        assert not any("quantity" in r or "unit" in r for r in records if "foodId" not in r), records
        names = sorted(i["display"]["name"] for i in outbox(driver))
        assert names == ["Bread roll", "Quick add", "Rye bread"], names

        server.start()
        wait_for(driver, lambda d: outbox(d) == [], timeout=30, message="the plate was sent")
        logged = {e["name"]: e for e in entries_on(s, server, today)}
        assert sorted(logged) == ["Bread roll", "Quick add", "Rye bread"], logged
        assert (logged["Rye bread"]["quantity"], logged["Rye bread"]["unit"]) == (40, "g"), logged["Rye bread"]
        assert (logged["Bread roll"]["quantity"], logged["Bread roll"]["unit"]) == (1, "serving"), logged["Bread roll"]
        assert logged["Quick add"]["nutrients"]["energyKcal"] == 95, logged["Quick add"]
        assert all(e["group"] == "lunch" for e in logged.values())
        assert not script_errors(driver), script_errors(driver)
    finally:
        driver.quit()
        server.stop()


def test_a_plate_is_never_split_across_two_pushes(data_dir):
    """499 changes wait, then a plate of two: the first push takes the 499 (the plate does not fit
    under the push limit of 500), the next one the whole plate; everything is saved once."""
    server = start(data_dir)
    driver = make_driver("desktop")
    try:
        s = api_session(server)
        today = s.get(server.url("/api/v1/plan")).json()["today"]
        assert s.post(server.url("/api/v1/meals"), json={"description": "Bread roll", "nutrition": {"energyKcal": 120}}).status_code == 201
        sign_in(driver, server)
        kept_for_offline(driver, server, ["/diary/add?mealType=lunch", "/diary"])

        server.go_offline()  # offline for a long time: 499 changes wait
        driver.get(server.url("/diary/add?mealType=lunch"))
        wait_for(driver, lambda d: d.find_elements(By.ID, "plate-form"))
        fillers = [{"record": {"date": "2020-01-01", "mealType": "snack", "quickAdd": {"energyKcal": 1}, "name": f"Filler {n}"},
                    "display": {"name": f"Filler {n}", "amount": "quick add, 1 kcal", "date": "2020-01-01", "mealType": "snack"}}
                   for n in range(499)]
        driver.execute_async_script("""
            const [entries, done] = arguments;
            import("/js/offline.js").then((m) => m.queueEntries(entries)).then(() => done(true), (e) => done(String(e)));
        """, fillers)
        # The plate: a meal from the library and a quick add, two items.
        Select(css(driver, "#field-mealId")).select_by_visible_text("Bread roll")
        css(driver, "#field-quick\\.name").send_keys("Soup")
        css(driver, "#field-quick\\.energyKcal").send_keys("200")
        assert len(outbox(driver)) == 499
        driver.execute_script(RECORD_PUSHES)
        css(driver, "#plate-form button[type=submit]").click()
        wait_for(driver, lambda d: "2 items are kept on this device" in css(d, "#form-message").text)

        server.start()
        wait_for(driver, lambda d: outbox(d) == [], timeout=90, message="everything was sent")
        pushes = driver.execute_script("return window.__pushes")
        assert all(len(p["mutations"]) <= 500 for p in pushes)
        groups = {}
        for n, p in enumerate(pushes):
            for m in p["mutations"]:
                if m.get("group"):
                    groups.setdefault(m["group"], set()).add(n)
        assert groups and all(len(pushed_in) == 1 for pushed_in in groups.values()), f"a group was split: {groups}"
        assert len(entries_on(s, server, "2020-01-01")) == 499
        assert sorted(e["name"] for e in entries_on(s, server, today)) == ["Bread roll", "Soup"]
    finally:
        driver.quit()
        server.stop()


def test_the_planner_dialog_saves_the_chosen_meal_slot(driver, server):
    """"Add a meal" with For: Dinner saves the assignment for Dinner, and the card says so."""
    s = api_session(server)
    create_meal(s, server, "Chicken curry", "Chicken", "Rice")
    dinner = next(t for t in s.get(server.url("/api/v1/meal-types")).json() if t["key"] == "dinner")
    sign_in(driver, server)
    driver.get(server.url("/plan?start=2026-11-23"))
    monday = lambda d: css(d, "#day-2026-11-23")
    monday(driver).find_element(By.CSS_SELECTOR, "[data-pick-day]").click()
    wait_for(driver, lambda d: css(d, "#picker-dialog").get_attribute("open") is not None)
    Select(css(driver, "#picker-slot")).select_by_visible_text(dinner["displayName"])
    wait_for(driver, lambda d: len(all_css(d, "#picker-results [data-pick-form]")) == 1)
    css(driver, "#picker-results button[type=submit]").click()
    wait_for(driver, lambda d: css(d, "#picker-dialog").get_attribute("open") is None)
    wait_for(driver, lambda d: "Chicken curry" in monday(d).text)
    plan = s.get(server.url("/api/v1/plan?start=2026-11-23&days=1")).json()
    assignments = plan["days"][0]["assignments"]
    assert [(a["meal"]["description"], a.get("mealType")) for a in assignments] == [("Chicken curry", dinner["key"])], assignments
    card = monday(driver).find_element(By.CSS_SELECTOR, ".planned-meal")
    assert card.find_element(By.CSS_SELECTOR, ".slot-label").get_attribute("textContent") == dinner["displayName"]
    # After a reload too (the saved plan, not just the swapped-in day).
    driver.refresh()
    assert monday(driver).find_element(By.CSS_SELECTOR, ".planned-meal .slot-label").get_attribute("textContent") == dinner["displayName"]
