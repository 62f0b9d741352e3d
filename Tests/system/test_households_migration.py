"""Households come to databases made before them: today's server, started on a SQLite database and a
PostgreSQL dump made by main before migration M021_Households (Tests/Fixtures/main-2026-12-02),
gives each account a household of its own and loses nothing the accounts had."""
import shutil
import subprocess
from pathlib import Path

import requests

from conftest import login, requires_postgres

FIXTURES = Path(__file__).resolve().parent.parent / "Fixtures" / "main-2026-12-02"
DAY = "2026-12-02"


def check_accounts(server):
    households = set()
    for email, name in (("ana@example.com", "Ana's household"), ("ben@example.com", "My household")):
        headers = login(server, email)
        me = requests.get(server.url("/api/v1/me"), headers=headers).json()
        household = requests.get(server.url("/api/v1/household"), headers=headers).json()
        assert household["name"] == name
        assert household["members"] == [{"id": me["id"], "displayName": me.get("displayName"), "role": "owner"}]
        households.add(household["id"])
        # What the account had is all there.
        foods = requests.get(server.url("/api/v1/foods"), headers=headers).json()["items"]
        assert [f["name"] for f in foods] == ["Chickpeas"]
        meals = requests.get(server.url("/api/v1/meals"), headers=headers).json()["items"]
        assert [(m["description"], m["servings"], len(m["ingredients"])) for m in meals] == [("Chili", 2, 1)]
        plan = requests.get(server.url("/api/v1/plan"), params={"start": DAY, "days": 1}, headers=headers).json()
        assert [a["meal"]["description"] for day in plan["days"] for a in day["assignments"]] == ["Chili"]
        day = requests.get(server.url("/api/v1/diary"), params={"date": DAY}, headers=headers).json()
        entries = [e for group in day["entries"] for e in group["entries"]]
        assert [(e["name"], float(e["quantity"])) for e in entries] == [("Chickpeas", 120.0)]
        weights = requests.get(server.url("/api/v1/weights"), headers=headers).json()["items"]
        assert [float(w["weightKg"]) for w in weights] == [70.5]
        lists = requests.get(server.url("/api/v1/shopping-lists"), headers=headers).json()
        assert len(lists["items"] if isinstance(lists, dict) else lists) == 1
    assert len(households) == 2


def test_a_sqlite_database_of_main_gets_households(data_dir, start_server):
    shutil.copy(FIXTURES / "forkcast.sqlite", Path(data_dir) / "forkcast.sqlite")
    check_accounts(start_server())


@requires_postgres
def test_a_postgres_database_of_main_gets_households(data_dir, postgres_database, start_server):
    dump = (FIXTURES / "forkcast-postgres.sql").read_text()
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", postgres_database], input=dump, text=True, check=True,
                   stdout=subprocess.DEVNULL)
    check_accounts(start_server(DATABASE_URL=postgres_database))
