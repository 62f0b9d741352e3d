"""The `forkcast` command line: migrate, user create, routes."""
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


def test_routes_lists_the_api(data_dir):
    out = run(data_dir, "routes")
    assert out.returncode == 0
    for path in ["/api/v1/meals", "/api/v1/plan", "/api/v1/auth/login", "/healthz"]:
        assert path in out.stdout


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
