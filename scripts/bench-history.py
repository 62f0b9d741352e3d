#!/usr/bin/env python3
"""Meal-first history with years of entries (seed 004): seeds an account through the API and times
the History page and the occasions API. A benchmark to run and read, not a test.

    python3 scripts/bench-history.py [--years 5] [--bin .build/release/forkcast]

Seeds three occasions a day (breakfast, lunch, dinner; two quick adds each, a photo entry every
tenth lunch) over the years before today, then requests each address 50 times one after another
and prints the median and 95th percentile and the size of the answer."""
import argparse, datetime, os, socket, statistics, subprocess, sys, tempfile, time
import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_paths import api_paths  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--bin", default=os.environ.get("FORKCAST_BIN", os.path.join(ROOT, ".build", "release", "forkcast")))
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="forkcast-bench-history-")
    port = free_port()
    env = dict(os.environ, FORKCAST_DATA_DIR=data, LOG_LEVEL="warning")
    server = subprocess.Popen([args.bin, "serve", "--hostname", "127.0.0.1", "--port", str(port)], env=env, cwd=data,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if requests.get(base + "/healthz", timeout=1).ok: break
            except requests.RequestException:
                time.sleep(0.1)
        API = api_paths(base)
        s = requests.Session()
        token = s.post(base + API["register"], json={"email": "bench@example.com", "password": "a long benchmark secret",
                                                             "timeZone": "UTC"}).json()["token"]
        s.headers["Authorization"] = f"Bearer {token}"
        photo = open(os.path.join(ROOT, "Tests", "Fixtures", "photos", "photo.jpg"), "rb").read()
        today = datetime.date.today()
        days = args.years * 365
        started = time.time()
        entries = 0
        for back in range(days, 0, -1):
            day = today - datetime.timedelta(days=back)
            for hour, meal in ((8, "breakfast"), (12, "lunch"), (19, "dinner")):
                items = [{"quickAdd": {"energyKcal": 300 + back % 200, "protein": 20}, "name": f"{meal} item {i} of a long day with a long name"} for i in range(2)]
                r = s.post(base + API["logPlate"], json={"mealType": meal, "loggedAt": f"{day.isoformat()}T{hour:02d}:15:00Z", "items": items})
                r.raise_for_status()
                entries += 2
            if back % 10 == 0:
                p = s.post(base + API["uploadPhoto"], data=photo, headers={"Content-Type": "image/jpeg"}).json()
                s.post(base + API["createDiaryEntry"], json={"photoId": p["id"], "mealType": "lunch",
                                                            "loggedAt": f"{day.isoformat()}T12:40:00Z"}).raise_for_status()
                entries += 1
        print(f"seeded {entries} entries over {days} days in {time.time() - started:.0f} s")
        web = requests.Session()
        web.get(base + "/login")
        csrf = web.get(base + "/login").text.split('name="csrf-token" content="')[1].split('"')[0]
        web.post(base + "/login", data={"_csrf": csrf, "email": "bench@example.com", "password": "a long benchmark secret"})
        middle = (today - datetime.timedelta(days=days // 2)).isoformat()
        targets = [
            ("GET /history", web, "/history"),
            ("GET /history?date=<middle>", web, f"/history?date={middle}"),
            (f"GET {API['listOccasions']}?limit=20", s, f"{API['listOccasions']}?limit=20"),
            (f"GET {API['listOccasions']}?before=<middle>&limit=100", s, f"{API['listOccasions']}?before={middle}&limit=100"),
            (f"GET {API['getDiaryDay']}?date=<middle>", s, f"{API['getDiaryDay']}?date={middle}"),
        ]
        print(f"{'request':50} {'median ms':>10} {'p95 ms':>8} {'bytes':>8}")
        for label, session, path in targets:
            times = []
            size = 0
            for _ in range(50):
                t = time.perf_counter()
                r = session.get(base + path)
                times.append((time.perf_counter() - t) * 1000)
                assert r.ok, (path, r.status_code, r.text[:200])
                size = len(r.content)
            times.sort()
            print(f"{label:50} {statistics.median(times):10.1f} {times[int(len(times) * 0.95) - 1]:8.1f} {size:8d}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
