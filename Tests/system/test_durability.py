"""002 Req 7.1/7.2: a write acknowledged with a 2xx survives SIGKILL of the server."""
import requests

from conftest import Server, base_env, login, register, requires_postgres


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
