"""002 Req 7.1/7.2: a write acknowledged with a 2xx survives SIGKILL of the server; SIGTERM
stops it gracefully, answering the requests it took first."""
import signal
import threading
import time

import requests

from conftest import Server, login, register, requires_postgres


def write_then_kill(server):
    headers = register(server)
    meals = []
    for i in range(20):
        r = requests.post(server.url("/api/v1/meals"), headers=headers,
                          json={"description": f"Meal {i}", "primaryProtein": "Tofu", "otherComponents": ["Garlic"]})
        assert r.status_code == 201, r.text
        meals.append(r.json()["id"])
    r = requests.post(server.url("/api/v1/plan/assignments"), headers=headers, json={"mealId": meals[-1], "date": "2026-12-24"})
    assert r.status_code == 201
    assignment = r.json()["id"]
    # Kill right after the last 2xx: nothing gets a chance to flush.
    server.kill()
    return meals, assignment


def assert_all_there(server, meals, assignment):
    headers = login(server)
    listed = requests.get(server.url("/api/v1/meals?per=100"), headers=headers).json()
    assert sorted(m["id"] for m in listed["items"]) == sorted(meals)
    assert all(m["otherComponents"] == ["Garlic"] for m in listed["items"])
    plan = requests.get(server.url("/api/v1/plan?start=2026-12-24&days=1"), headers=headers).json()
    assert [a["id"] for a in plan["days"][0]["assignments"]] == [assignment]


def test_sqlite_writes_survive_sigkill(start_server, data_dir):
    server = start_server()
    meals, assignment = write_then_kill(server)
    restarted = Server(server.env, data_dir, server.port).start()
    try:
        assert_all_there(restarted, meals, assignment)
    finally:
        restarted.stop()


@requires_postgres
def test_postgres_writes_survive_sigkill(start_server, data_dir, postgres_database):
    server = start_server(DATABASE_URL=postgres_database)
    meals, assignment = write_then_kill(server)
    restarted = Server(server.env, data_dir, server.port).start()
    try:
        assert_all_there(restarted, meals, assignment)
    finally:
        restarted.stop()


def test_first_start_creates_the_data_folder(start_server, data_dir):
    import os
    server = start_server(FORKCAST_DATA_DIR=os.path.join(data_dir, "nested", "data"))
    assert requests.get(server.url("/healthz")).json() == {"status": "ok", "database": "sqlite", "writable": True}
    assert os.path.exists(os.path.join(data_dir, "nested", "data", "forkcast.sqlite"))


def log_concurrently_then_kill(server, writers=8, seconds=2.0, kill=None):
    """Several clients log entries at once (on SQLite they share commits: the group commit of docs/performance.md)
    and the server is killed (`kill`, SIGKILL unless given) while they are still writing. Returns
    the ids answered 201."""
    headers = register(server)
    r = requests.post(server.url("/api/v1/foods"), headers=headers,
                      json={"name": "Rolled oats", "per100": {"energyKcal": 372, "protein": 13, "carbohydrates": 60, "fat": 7}})
    assert r.status_code == 201, r.text
    food = r.json()["id"]
    acknowledged, lock, stop = [], threading.Lock(), threading.Event()

    def write(n):
        session = requests.Session()
        while not stop.is_set():
            try:
                r = session.post(server.url("/api/v1/diary/entries"), headers=headers, timeout=10,
                                 json={"foodId": food, "quantity": 40 + n, "unit": "g", "mealType": "breakfast", "note": f"writer {n}"})
            except requests.RequestException:
                return  # the server is gone mid-request: that entry was never acknowledged
            if r.status_code == 201:
                with lock:
                    acknowledged.append(r.json()["id"])

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    (kill or server.kill)()  # mid-write: several requests are in flight
    stop.set()
    for thread in threads:
        thread.join()
    return acknowledged


def assert_entries_there(server, ids):
    headers = login(server)
    session = requests.Session()
    missing = [i for i in ids if session.get(server.url(f"/api/v1/diary/entries/{i}"), headers=headers).status_code != 200]
    assert not missing, f"{len(missing)} of {len(ids)} acknowledged entries were lost"


def kill_mid_write_and_check(server, data_dir, writers=8, kill=None):
    acknowledged = log_concurrently_then_kill(server, writers=writers, kill=kill)
    assert len(acknowledged) >= 10, "the writers got too few answers to prove anything"
    restarted = Server(server.env, data_dir, server.port).start()
    try:
        assert_entries_there(restarted, acknowledged)
    finally:
        restarted.stop()


def test_sqlite_concurrent_writes_acknowledged_before_sigkill_survive(start_server, data_dir):
    kill_mid_write_and_check(start_server(), data_dir)


@requires_postgres
def test_postgres_concurrent_writes_acknowledged_before_sigkill_survive(start_server, data_dir, postgres_database):
    kill_mid_write_and_check(start_server(DATABASE_URL=postgres_database), data_dir)


def terminate_mid_write_and_check(server, data_dir):
    """SIGTERM while 32 clients log: the process exits cleanly (it used to crash when Fluent's
    databases closed before requests already taken were answered), and every entry answered 201
    is there after a restart."""
    def terminate():
        server.proc.send_signal(signal.SIGTERM)
        status = server.proc.wait(30)
        # A crash report's cause is at its top, its threads after: show both ends of the log.
        log = open(server.log_path).read()
        cause = max(log.find("Fatal error"), log.find("Crash"), log.find("💣"))
        crashed = log.find(" crashed:")
        assert status == 0, f"exit {status}:\n" + "\n…\n".join(
            [log[cause:cause + 300]] * (cause >= 0) + [log[crashed - 12:crashed + 5000]] * (crashed >= 0) + [log[-1000:]])
        log = open(server.log_path).read()
        assert "runtime failure" not in log and "crashed" not in log, log[-3000:]

    kill_mid_write_and_check(server, data_dir, writers=32, kill=terminate)


def test_sqlite_sigterm_under_load_answers_what_it_took_and_exits_cleanly(start_server, data_dir):
    terminate_mid_write_and_check(start_server(), data_dir)


@requires_postgres
def test_postgres_sigterm_under_load_answers_what_it_took_and_exits_cleanly(start_server, data_dir, postgres_database):
    terminate_mid_write_and_check(start_server(DATABASE_URL=postgres_database), data_dir)
