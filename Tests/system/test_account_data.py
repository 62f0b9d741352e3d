""""Your data": the Settings page (real Chromium), `forkcast import` and `forkcast backup` while the server runs."""
import io
import json
import os
import sqlite3
import subprocess
import threading
import zipfile

import requests

from browser import api_session, axe_check, css, screenshot, sign_in, wait_for
from conftest import BINARY, ROOT, Server, base_env

PHOTO = os.path.join(ROOT, "Tests", "Fixtures", "photos", "photo.jpg")


def run(data_dir, *args, timeout=120):
    return subprocess.run([BINARY, *args], env=base_env(data_dir), cwd=data_dir, capture_output=True, text=True, timeout=timeout)


def fill(session, server):
    """A food, a meal, diary entries and a photo entry."""
    food = session.post(server.url("/api/v1/foods"), json={"name": "Skyr <b>\"natur\"</b> ü\u0301", "per100": {"energyKcal": 63, "protein": 11}})
    assert food.status_code == 201, food.text
    meal = session.post(server.url("/api/v1/meals"), json={"description": "Skyr bowl",
                                                           "ingredients": [{"foodId": food.json()["id"], "quantity": 200, "unit": "g"}]})
    assert meal.status_code == 201, meal.text
    entry = session.post(server.url("/api/v1/diary/entries"), json={"foodId": food.json()["id"], "quantity": 150, "unit": "g", "mealType": "breakfast"})
    assert entry.status_code == 201, entry.text
    with open(PHOTO, "rb") as f:
        photo = session.post(server.url("/api/v1/photos"), data=f.read(), headers={"Content-Type": "image/jpeg"})
    assert photo.status_code == 201, photo.text
    shown = session.post(server.url("/api/v1/diary/entries"), json={"photoId": photo.json()["id"], "mealType": "lunch"})
    assert shown.status_code == 201, shown.text
    return food.json(), photo.json()


def test_your_data_page_downloads_imports_and_deletes(driver, server):
    session = api_session(server)
    food, photo = fill(session, server)
    sign_in(driver, server)
    driver.get(server.url("/settings"))
    css(driver, 'a[href="/settings/data"]').click()
    wait_for(driver, lambda d: d.current_url.endswith("/settings/data"))
    screenshot(driver, "your-data")
    axe_check(driver, "your-data")

    # Download everything: the link answers the zip to this browser's session.
    href = css(driver, 'a[href="/settings/data/export"]').get_attribute("href")
    cookies = {c["name"]: c["value"] for c in driver.get_cookies()}
    download = requests.get(href, cookies=cookies)
    assert download.status_code == 200 and download.headers["Content-Type"].startswith("application/zip")
    assert "attachment" in download.headers["Content-Disposition"]
    files = zipfile.ZipFile(io.BytesIO(download.content))
    document = json.loads(files.read("forkcast.json"))
    assert [f["name"] for f in document["foods"]] == [food["name"]]
    assert any(p["id"] == photo["id"] for p in document["photos"])
    archive = os.path.join(server.data_dir, "export.zip")
    with open(archive, "wb") as f:
        f.write(download.content)

    # A wrong password deletes nothing and says so next to the field.
    css(driver, "#field-password").send_keys("wrong horse")
    css(driver, 'input[name="confirm"]').click()
    css(driver, "button.danger").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#field-password-error"))
    assert "not your password" in css(driver, "#field-password-error").text
    assert session.get(server.url("/api/v1/me")).status_code == 200
    screenshot(driver, "your-data-wrong-password")

    css(driver, "#field-password").send_keys("correct horse")
    css(driver, 'input[name="confirm"]').click()
    css(driver, "button.danger").click()
    # The only account is gone: the server offers to set one up again, and says what happened.
    wait_for(driver, lambda d: d.current_url.endswith("/setup"), message="after deleting the only account, setup")
    assert "deleted" in driver.page_source
    assert session.get(server.url("/api/v1/me")).status_code == 401

    # A new account restores the download: checked first, then imported.
    css(driver, "#field-email").send_keys("owner@example.com")
    css(driver, "#field-password").send_keys("a new horse battery")
    css(driver, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.endswith("/diary"))
    driver.get(server.url("/settings/data"))
    css(driver, "#field-archive").send_keys(archive)
    css(driver, 'button[formaction*="dryRun=true"]').click()
    wait_for(driver, lambda d: "would create" in d.page_source, message="the check says what an import would create")
    assert "2 diary entries" in driver.page_source and "1 photo" in driver.page_source
    fresh = requests.post(server.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "a new horse battery"}).json()
    headers = {"Authorization": "Bearer " + fresh["token"]}
    assert requests.get(server.url("/api/v1/foods"), headers=headers).json()["metadata"]["total"] == 0, "a check changes nothing"
    css(driver, "#field-archive").send_keys(archive)
    css(driver, "form[enctype] button.primary").click()
    wait_for(driver, lambda d: d.current_url.endswith("/diary"), message="after importing, Today")
    assert "Imported" in driver.page_source
    image = requests.get(server.url(f"/api/v1/photos/{photo['id']}/image"), headers=headers)
    assert image.status_code == 200 and image.content == files.read(next(p["file"] for p in document["photos"]))
    # Importing it again is refused with the reason, on the page.
    driver.get(server.url("/settings/data"))
    css(driver, "#field-archive").send_keys(archive)
    css(driver, "form[enctype] button.primary").click()
    wait_for(driver, lambda d: d.find_elements("css selector", "#import-problem"))
    assert "empty account" in css(driver, "#import-problem").text
    screenshot(driver, "your-data-import-refused")


def test_import_command_moves_an_account_to_a_new_server(start_server, data_dir, tmp_path):
    old = start_server()
    session = api_session(old)
    food, photo = fill(session, old)
    export = session.get(old.url("/api/v1/export"))
    assert export.status_code == 200
    archive = tmp_path / "forkcast-export.zip"
    archive.write_bytes(export.content)

    new_dir = str(tmp_path / "new-server")
    os.makedirs(new_dir)
    dry = run(new_dir, "import", str(archive), "--email", "moved@example.com", "--dry-run")
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert "would create" in dry.stdout
    broken = tmp_path / "broken.zip"
    broken.write_bytes(export.content[: len(export.content) // 3])
    refused = run(new_dir, "import", str(broken), "--email", "moved@example.com", "--password", "moving day horse")
    assert refused.returncode == 1 and "export" in (refused.stdout + refused.stderr)
    done = run(new_dir, "import", str(archive), "--email", "moved@example.com", "--password", "moving day horse")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Imported" in done.stdout and "2 diary entries" in done.stdout
    again = run(new_dir, "import", str(archive), "--email", "moved@example.com")
    assert again.returncode == 1 and "empty account" in (again.stdout + again.stderr)

    new = Server(base_env(new_dir), new_dir).start()
    try:
        r = requests.post(new.url("/api/v1/auth/login"), json={"email": "moved@example.com", "password": "moving day horse"})
        assert r.status_code == 200, r.text
        headers = {"Authorization": "Bearer " + r.json()["token"]}
        foods = requests.get(new.url("/api/v1/foods"), headers=headers).json()["items"]
        assert [(f["id"], f["name"]) for f in foods] == [(food["id"], food["name"])], "ids and text kept"
        image = requests.get(new.url(f"/api/v1/photos/{photo['id']}/image"), headers=headers)
        assert image.status_code == 200
        assert image.content == requests.get(old.url(f"/api/v1/photos/{photo['id']}/image"), headers=session.headers).content
    finally:
        new.stop()


def test_backup_while_writers_log_is_a_consistent_copy(start_server, data_dir, tmp_path):
    server = start_server()
    session = api_session(server)
    food, photo = fill(session, server)
    stop = threading.Event()
    answered = []

    def writer():
        s = requests.Session()
        s.headers.update(session.headers)
        while not stop.is_set():
            r = s.post(server.url("/api/v1/diary/entries"), json={"foodId": food["id"], "quantity": 10, "unit": "g", "mealType": "snack"})
            assert r.status_code == 201, r.text
            answered.append(r.json()["id"])

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    try:
        while len(answered) < 40:
            threading.Event().wait(0.05)
        before = len(answered)
        backup = run(data_dir, "backup", str(tmp_path / "backups"))
        logged_meanwhile = len(answered) - before
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert backup.returncode == 0, backup.stdout + backup.stderr
    assert logged_meanwhile > 0, "the writers went on while the backup ran"
    folders = os.listdir(tmp_path / "backups")
    assert len(folders) == 1 and folders[0].startswith("forkcast-backup-")
    folder = tmp_path / "backups" / folders[0]
    db = sqlite3.connect(folder / "forkcast.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    entries = db.execute("SELECT count(*) FROM diary_entries").fetchone()[0]
    assert entries >= before + 2, "every entry answered before the backup started is in it"
    feed = db.execute("SELECT count(*) FROM sync_records WHERE kind = 'diaryEntry'").fetchone()[0]
    assert feed == entries, "one snapshot: each entry with its change record"
    photo_id = photo["id"].lower()
    assert (folder / "photos" / photo_id[:2] / f"{photo_id}.full").exists()
    db.close()

    # The backup is a data folder: a server started on it has the account.
    restored = Server(base_env(str(folder)), str(folder)).start()
    try:
        r = requests.post(restored.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "correct horse"})
        assert r.status_code == 200, r.text
        headers = {"Authorization": "Bearer " + r.json()["token"]}
        assert requests.get(restored.url(f"/api/v1/photos/{photo['id']}/image"), headers=headers).status_code == 200
    finally:
        restored.stop()

    # PostgreSQL is backed up with its own tool; the command says so instead of copying nothing.
    pg = subprocess.run([BINARY, "backup", str(tmp_path / "pg")], env=base_env(data_dir, DATABASE_URL="postgres://nobody@127.0.0.1:1/none"),
                        cwd=data_dir, capture_output=True, text=True, timeout=60)
    assert pg.returncode != 0 and "pg_dump" in (pg.stdout + pg.stderr)
