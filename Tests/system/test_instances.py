"""Several stateless instances share one PostgreSQL: tokens, data and throttling are shared."""
import requests

from conftest import Server, base_env, register, requires_postgres


@requires_postgres
def test_two_instances_share_accounts_and_data(start_server, data_dir, postgres_database):
    a = start_server(DATABASE_URL=postgres_database)
    b = start_server(DATABASE_URL=postgres_database)
    headers = register(a)
    meal = requests.post(a.url("/api/v1/meals"), headers=headers, json={"description": "Shared soup"}).json()
    # The token issued by A works on B, and B sees A's meal.
    got = requests.get(b.url(f"/api/v1/meals/{meal['id']}"), headers=headers)
    assert got.status_code == 200 and got.json()["description"] == "Shared soup"
    r = requests.post(b.url("/api/v1/plan/assignments"), headers=headers, json={"mealId": meal["id"], "date": "2026-11-30"})
    assert r.status_code == 201
    plan = requests.get(a.url("/api/v1/plan?start=2026-11-30&days=1"), headers=headers).json()
    assert [x["meal"]["description"] for x in plan["days"][0]["assignments"]] == ["Shared soup"]
    # Logging out on B revokes the token everywhere.
    assert requests.post(b.url("/api/v1/auth/logout"), headers=headers).status_code == 204
    assert requests.get(a.url("/api/v1/me"), headers=headers).status_code == 401


@requires_postgres
def test_failed_logins_are_counted_across_instances(start_server, postgres_database):
    a = start_server(DATABASE_URL=postgres_database, FORKCAST_TRUST_PROXY="true")
    b = start_server(DATABASE_URL=postgres_database, FORKCAST_TRUST_PROXY="true")
    r = requests.post(a.url("/api/v1/auth/register"), json={"email": "owner@example.com", "password": "correct horse"},
                      headers={"X-Forwarded-For": "198.51.100.1"})
    assert r.status_code == 201
    for i in range(5):
        server = a if i % 2 == 0 else b
        r = requests.post(server.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "guess"},
                          headers={"X-Forwarded-For": "203.0.113.7"})
        assert r.status_code == 401
    # The account's bucket for that network is shared: a sixth try from it waits on either instance,
    # even with the right password...
    for server in (a, b):
        r = requests.post(server.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "correct horse"},
                          headers={"X-Forwarded-For": "203.0.113.7"})
        assert r.status_code == 429
        assert int(r.headers["Retry-After"]) > 0
    # ...while the owner, from an address that signed in before or from a new network (a phone on
    # mobile data), is never locked out by them.
    r = requests.post(b.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "correct horse"},
                      headers={"X-Forwarded-For": "198.51.100.1"})
    assert r.status_code == 200
    r = requests.post(a.url("/api/v1/auth/login"), json={"email": "owner@example.com", "password": "correct horse"},
                      headers={"X-Forwarded-For": "192.0.2.50"})
    assert r.status_code == 200


@requires_postgres
def test_instances_starting_together_migrate_once(data_dir, postgres_database):
    """Three instances start at the same moment on an empty database: one migrates, the others
    wait for its advisory lock, and all serve."""
    servers = [Server(base_env(data_dir, DATABASE_URL=postgres_database), data_dir) for _ in range(3)]
    try:
        import threading
        errors = []

        def start(server):
            try:
                server.start(timeout=120)
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=start, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        headers = register(servers[0])
        for s in servers:
            assert requests.get(s.url("/api/v1/meals"), headers=headers).status_code == 200
            assert requests.get(s.url("/healthz")).json()["writable"] is True
    finally:
        for s in servers:
            s.stop()
