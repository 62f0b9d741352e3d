"""002 Req 7.4 in a server's terms: when PostgreSQL goes down, writes answer 503 saying nothing was
saved, the server stays up, and everything works again once the database is back."""
import os
import subprocess
import time

import requests

from conftest import register, requires_postgres


def pg_ctl(*args):
    cmd = [os.environ["FORKCAST_TEST_PG_CTL"], "-D", os.environ["FORKCAST_TEST_PG_DATA"], *args]
    user = os.environ.get("FORKCAST_TEST_PG_USER", "postgres")
    if os.geteuid() == 0 and user != "root":
        cmd = ["runuser", "-u", user, "--", *cmd]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def start_pg():
    pg_ctl("start", "-w", "-l", os.path.join(os.environ["FORKCAST_TEST_PG_DATA"], "..", "server.log"),
           "-o", os.environ["FORKCAST_TEST_PG_OPTIONS"])


@requires_postgres
def test_postgres_outage_is_a_503_and_recovers(start_server, postgres_database):
    server = start_server(DATABASE_URL=postgres_database)
    headers = register(server)
    before = requests.post(server.url("/api/v1/meals"), headers=headers, json={"description": "Before the outage"})
    assert before.status_code == 201

    pg_ctl("stop", "-m", "fast", "-w")
    try:
        r = requests.post(server.url("/api/v1/meals"), headers=headers, json={"description": "During the outage"}, timeout=30)
        assert r.status_code == 503, r.text
        assert r.headers["Content-Type"].startswith("application/problem+json")
        assert "nothing was saved" in r.json()["detail"]
        assert requests.get(server.url("/healthz"), timeout=30).status_code == 503
        # The process is still up and answering.
        assert requests.get(server.url("/api/v1/openapi.json"), timeout=10).status_code == 200
        assert server.proc.poll() is None
    finally:
        start_pg()

    deadline = time.time() + 30
    while time.time() < deadline and requests.get(server.url("/healthz")).status_code != 200:
        time.sleep(0.2)
    assert requests.get(server.url("/healthz")).status_code == 200
    after = requests.post(server.url("/api/v1/meals"), headers=headers, json={"description": "After the outage"})
    assert after.status_code == 201, after.text
    names = [m["description"] for m in requests.get(server.url("/api/v1/meals"), headers=headers).json()["items"]]
    assert sorted(names) == ["After the outage", "Before the outage"]
