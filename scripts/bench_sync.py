#!/usr/bin/env python3
"""Sync benchmark: a year of one person's data (about 10,000 records: meals, foods, a plan and a
diary), then a full pull of the change feed and a push of 500 mutations. Prints time and bytes.

    python3 scripts/bench_sync.py [path/to/forkcast]   # default .build/release/forkcast

It starts its own server on SQLite in a temporary folder (PostgreSQL with DATABASE_URL set), seeds
the data through the sync push itself, and measures over loopback. A benchmark, not a test: the
numbers go in docs/performance.md and the closing note.
"""
import datetime
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_paths import api_paths  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "forkcast")
    with tempfile.TemporaryDirectory(prefix="forkcast-bench-sync-") as data:
        port = free_port()
        env = {**os.environ, "FORKCAST_DATA_DIR": data, "FORKCAST_BCRYPT_COST": "4", "LOG_LEVEL": "error"}
        server = subprocess.Popen([binary, "serve", "--hostname", "127.0.0.1", "--port", str(port)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if requests.get(base + "/healthz", timeout=1).ok:
                        break
                except requests.RequestException:
                    time.sleep(0.1)
            API = api_paths(base)
            token = requests.post(base + API["register"],
                                  json={"email": "bench@example.com", "password": "bench horse battery"}).json()["token"]
            http = requests.Session()
            http.headers["Authorization"] = "Bearer " + token

            start_day = datetime.date(2025, 11, 23)
            now = datetime.datetime.now(datetime.timezone.utc)
            stamp = lambda: now.isoformat().replace("+00:00", "Z")  # noqa: E731
            mutations = []

            def add(kind, record, record_id=None):
                record_id = record_id or str(uuid.uuid4())
                mutations.append({"mutationId": str(uuid.uuid4()), "kind": kind, "id": record_id, "op": "upsert",
                                  "updatedAt": stamp(), "record": record})
                return record_id

            foods = [add("food", {"name": f"Food {i} with a long real name, cooked and seasoned",
                                  "per100": {"energyKcal": 100 + i % 300, "protein": 10, "carbohydrates": 20, "fat": 5}})
                     for i in range(300)]
            meals = [add("meal", {"description": f"Meal {i}: roasted vegetables with grains and a sauce",
                                  "primaryProtein": ["Chicken", "Tofu", "Beef", "Lentils"][i % 4], "otherComponents": ["Garlic", "Onion"],
                                  "ingredients": [{"foodId": foods[i % 300], "quantity": 120, "unit": "g"},
                                                  {"foodId": foods[(i * 7) % 300], "quantity": 80, "unit": "g"}]})
                     for i in range(300)]
            for d in range(365):
                day = start_day + datetime.timedelta(days=d)
                for slot in range(2):
                    add("assignment", {"mealId": meals[(d * 2 + slot) % 300], "date": day.isoformat()})
                for n in range(24):
                    at = datetime.datetime.combine(day, datetime.time(7 + n % 14, (n * 7) % 60), datetime.timezone.utc)
                    add("diaryEntry", {"foodId": foods[(d + n) % 300], "quantity": 50 + n, "unit": "g",
                                       "mealType": ["breakfast", "lunch", "dinner", "snack"][n % 4], "loggedAt": at.isoformat()})
            seeded = time.monotonic()
            for i in range(0, len(mutations), 500):
                answer = http.post(base + API["syncPush"], json={"deviceId": "seed", "mutations": mutations[i:i + 500]})
                answer.raise_for_status()
                bad = [r for r in answer.json()["results"] if r["status"] != "applied"]
                assert not bad, bad[:2]
            seed_seconds = time.monotonic() - seeded
            records = len(mutations)

            # Full pull, as a new device does: pages of 500 until hasMore is false.
            started, cursor, pulled, size, pages = time.monotonic(), None, 0, 0, 0
            while True:
                params = {"limit": 500} | ({"since": cursor} if cursor else {})
                answer = http.get(base + API["syncChanges"], params=params)
                answer.raise_for_status()
                size += len(answer.content)
                body = answer.json()
                pulled += len(body["changes"])
                pages += 1
                cursor = body["cursor"]
                if not body["hasMore"]:
                    break
            pull_seconds = time.monotonic() - started

            # A push of 500 mutations (edits of existing diary entries' notes, one device).
            edits = [m for m in mutations if m["kind"] == "diaryEntry"][:500]
            later = (now + datetime.timedelta(seconds=5)).isoformat().replace("+00:00", "Z")
            batch = [{**m, "mutationId": str(uuid.uuid4()), "updatedAt": later,
                      "record": {**m["record"], "note": "edited on the phone"}} for m in edits]
            started = time.monotonic()
            answer = http.post(base + API["syncPush"], json={"deviceId": "phone", "mutations": batch})
            push_seconds = time.monotonic() - started
            answer.raise_for_status()
            assert all(r["status"] == "applied" for r in answer.json()["results"])
            push_request = len(answer.request.body)
            push_answer = len(answer.content)

            print(f"seeded {records} records through the push in {seed_seconds:.1f} s")
            print(f"full pull: {pulled} changes in {pages} pages, {pull_seconds * 1000:.0f} ms, {size / 1e6:.2f} MB")
            print(f"push of 500 mutations: {push_seconds * 1000:.0f} ms, request {push_request / 1e3:.0f} kB, answer {push_answer / 1e3:.0f} kB")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
