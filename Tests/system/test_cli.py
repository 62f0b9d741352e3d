"""The `forkcast` command line: migrate, user create, routes."""
import os
import subprocess

import requests

from conftest import BINARY, base_env


def run(data_dir, *args, input=None):
    return subprocess.run([BINARY, *args], env=base_env(data_dir), cwd=data_dir, input=input,
                          capture_output=True, text=True, timeout=120)


def test_migrate_then_user_create_then_sign_in(start_server, data_dir):
    migrate = run(data_dir, "migrate", "--yes")
    assert migrate.returncode == 0, migrate.stderr + migrate.stdout
    created = run(data_dir, "user", "create", "--email", "Cook@Example.com", "--password", "kitchen-secret", "--name", "Cook")
    assert created.returncode == 0, created.stderr + created.stdout
    assert "Created" in created.stdout
    again = run(data_dir, "user", "create", "--email", "cook@example.com", "--password", "kitchen-secret")
    assert again.returncode != 0
    assert "already exists" in (again.stdout + again.stderr)
    weak = run(data_dir, "user", "create", "--email", "other@example.com", "--password", "short")
    assert weak.returncode != 0

    server = start_server()
    r = requests.post(server.url("/api/v1/auth/login"), json={"email": "cook@example.com", "password": "kitchen-secret"})
    assert r.status_code == 200
    assert r.json()["user"]["displayName"] == "Cook"
    # Sign-up stays closed for strangers once an account exists.
    r = requests.post(server.url("/api/v1/auth/register"), json={"email": "stranger@example.com", "password": "password123"})
    assert r.status_code == 403


def test_user_create_works_when_sign_up_is_closed(data_dir):
    assert run(data_dir, "user", "create", "--email", "a@example.com", "--password", "password-one").returncode == 0
    assert run(data_dir, "user", "create", "--email", "b@example.com", "--password", "password-two").returncode == 0


def test_routes_lists_the_api_and_writes_nothing(data_dir):
    store = os.path.join(data_dir, "store")
    out = subprocess.run([BINARY, "routes"], env=base_env(store), cwd=data_dir, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    for path in ["/api/v1/meals", "/api/v1/plan", "/api/v1/auth/login", "/healthz"]:
        assert path in out.stdout
    # No data folder, no empty database (it made both).
    assert not os.path.exists(store) and os.listdir(data_dir) == [], os.listdir(data_dir)
    # Fluent's own `migrate` still makes the folder it needs.
    migrate = subprocess.run([BINARY, "migrate", "--yes"], env=base_env(store), cwd=data_dir, capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0 and os.path.exists(os.path.join(store, "forkcast.sqlite")), migrate.stderr + migrate.stdout


def test_help_reads_and_writes_nothing(data_dir):
    """`forkcast --help` (and `serve --help`, `help`) lists the commands without a database:
    no data folder, no SQLite file, no migrations."""
    import os
    store = os.path.join(data_dir, "store")
    env = base_env(store)
    for args in (["--help"], ["serve", "--help"], ["help"], ["-h"]):
        done = subprocess.run([BINARY, *args], env=env, cwd=data_dir, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (args, done.stderr + done.stdout)
        out = done.stdout + done.stderr
        assert "serve" in out or "Usage" in out or "USAGE" in out, (args, out)
        assert not os.path.exists(store), (args, os.listdir(data_dir))
    assert os.listdir(data_dir) == []


FDC_SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "fooddatacentral", "fooddata-branded-sample.csv")


def test_catalog_import_adds_branded_foods_once_and_the_server_finds_them(start_server, data_dir):
    imported = run(data_dir, "catalog", "import", FDC_SAMPLE)
    assert imported.returncode == 0, imported.stderr + imported.stdout
    assert "Imported 299 branded foods" in imported.stdout, imported.stdout  # the nameless row is left out
    assert "100 % of the file" in imported.stdout
    again = run(data_dir, "catalog", "import", FDC_SAMPLE)
    assert again.returncode == 0 and "imported already: 299" in again.stdout, again.stdout
    status = run(data_dir, "catalog", "status")
    assert "branded: 299 foods, complete" in status.stdout and "generic: 7349 foods, complete" in status.stdout, status.stdout
    # Not FoodData Central, a truncated copy, a missing file: a clear message and a failing exit code.
    junk = os.path.join(data_dir, "junk.csv")
    with open(junk, "w") as f:
        f.write("name,kcal\nx,1\n")
    bad = run(data_dir, "catalog", "import", junk)
    assert bad.returncode != 0 and "is not FoodData Central" in (bad.stdout + bad.stderr)
    assert run(data_dir, "catalog", "import", os.path.join(data_dir, "missing.csv")).returncode != 0
    truncated = os.path.join(data_dir, "truncated.csv")
    with open(FDC_SAMPLE, "rb") as f:
        data = f.read()
    with open(truncated, "wb") as f:
        f.write(data[: len(data) // 2])
    cut = run(data_dir, "catalog", "import", truncated)
    assert cut.returncode == 0, cut.stdout + cut.stderr
    assert "Imported" in cut.stdout and "branded foods" in cut.stdout

    server = start_server()
    token = requests.post(server.url("/api/v1/auth/register"), json={"email": "cook@example.com", "password": "kitchen-secret"}).json()["token"]
    found = requests.get(server.url("/api/v1/foods/catalog"), params={"q": "pepperoni"}, headers={"Authorization": f"Bearer {token}"})
    assert found.status_code == 200, found.text
    names = [i["name"] for i in found.json()["items"]]
    assert any("PEPPERONI" in n for n in names), names
    assert all(i["source"] == "branded" for i in found.json()["items"] if "PEPPERONI" in i["name"])


def test_the_server_says_when_it_stops(start_server, data_dir):
    server = start_server(LOG_LEVEL="notice")
    server.stop()
    log = open(server.log_path, encoding="utf-8", errors="replace").read()
    assert server.proc.returncode == 0, log[-2000:]
    assert "stopping: no new requests" in log and "stopped: every request taken was answered" in log, log[-2000:]


def test_household_list_shows_each_household_and_its_members(data_dir):
    assert "No households" in run(data_dir, "household", "list").stdout
    assert run(data_dir, "user", "create", "--email", "ana@example.com", "--password", "password-one", "--name", "Ana").returncode == 0
    assert run(data_dir, "user", "create", "--email", "ben@example.com", "--password", "password-two").returncode == 0
    listed = run(data_dir, "household", "list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.strip().splitlines()
    assert lines[0].startswith("Ana's household (") and lines[1].split() == ["owner", "ana@example.com", "Ana"]
    assert lines[2].startswith("My household (") and lines[3].split() == ["owner", "ben@example.com"]
    refused = run(data_dir, "household", "rename")
    assert refused.returncode != 0 and "use: household list" in refused.stdout
