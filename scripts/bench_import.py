#!/usr/bin/env python3
"""A dry-run import beside other people's writes (a command to run and read, never a test).

Seeds one account through the API (a food and a week of entries), exports it, grows the export's diary
to --entries entries (copies under new ids, a minute apart), then dry-runs the import of that archive
into an empty account while a second account logs an entry every 20 ms. Prints the dry run's time and
the other writer's latencies (p50, p99, max) and failures during it.

    python3 scripts/bench_import.py --bin .build/release/forkcast [--entries 150000] [--postgres postgres://…]
"""
import argparse, datetime, io, json, os, statistics, subprocess, sys, tempfile, threading, time, uuid, zipfile
import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import Server, rss_mb  # noqa: E402


def account(base, name):
    s = requests.Session()
    token = s.post(base + "/api/v1/auth/register", json={"email": f"{name}-{uuid.uuid4().hex[:6]}@example.com",
                                                         "password": "a long benchmark secret", "timeZone": "UTC"}).json()["token"]
    s.headers["Authorization"] = f"Bearer {token}"
    return s


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, type=os.path.abspath)
    parser.add_argument("--entries", type=int, default=150_000)
    parser.add_argument("--postgres")
    parser.add_argument("--rounds", type=int, default=1, help="imports one after another (real ones after the first dry run), RSS after each")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="forkcast-bench-import-")
    env = dict(os.environ, FORKCAST_DATA_DIR=data, LOG_LEVEL="warning", FORKCAST_ALLOW_SIGNUP="true")
    if args.postgres:
        env.update(DATABASE_URL=args.postgres, FORKCAST_DATABASE_SCHEMA="bench_" + uuid.uuid4().hex[:8])
        subprocess.run(["psql", args.postgres, "-qc", f"CREATE SCHEMA {env['FORKCAST_DATABASE_SCHEMA']}"], check=True)
    server = Server(args.bin, env)
    server.start()
    base = server.base
    ann = account(base, "ann")
    food = ann.post(base + "/api/v1/foods", json={"name": "Rolled oats", "basis": "g",
                    "per100": {"energyKcal": 372, "protein": 13, "carbohydrates": 60, "fat": 7}}).json()
    for _ in range(7):
        ann.post(base + "/api/v1/diary/entries", json={"foodId": food["id"], "quantity": 80, "unit": "g", "mealType": "breakfast"})
    archive = zipfile.ZipFile(io.BytesIO(ann.get(base + "/api/v1/export").content))
    document = json.loads(archive.read("forkcast.json"))
    model, start = document["diary"][0], datetime.datetime(2020, 1, 1, 12, tzinfo=datetime.timezone.utc)
    diary = []
    for n in range(args.entries):
        at = start + datetime.timedelta(minutes=n)
        diary.append(dict(model, id=str(uuid.uuid4()), loggedAt=at.isoformat().replace("+00:00", "Z"), date=at.date().isoformat()))
    document["diary"] = diary
    grown = io.BytesIO()
    with zipfile.ZipFile(grown, "w", zipfile.ZIP_DEFLATED) as z:
        for name in archive.namelist():
            z.writestr(name, json.dumps(document) if name == "forkcast.json" else archive.read(name))
    body = grown.getvalue()

    bob, other = account(base, "bob"), account(base, "cat")
    oats = other.post(base + "/api/v1/foods", json={"name": "Oats", "basis": "g", "per100": {"energyKcal": 372}}).json()
    latencies, failures, done = [], [], threading.Event()

    def writer():
        while not done.is_set():
            t = time.perf_counter()
            r = other.post(base + "/api/v1/diary/entries", json={"foodId": oats["id"], "quantity": 50, "unit": "g", "mealType": "snack"})
            latencies.append((time.perf_counter() - t) * 1000)
            if r.status_code != 201: failures.append(r.status_code)
            time.sleep(0.02)

    thread = threading.Thread(target=writer)
    thread.start()
    print(f"RSS before: {rss_mb(server.proc.pid):.0f} MB")
    t = time.perf_counter()
    r = bob.post(base + "/api/v1/import?dryRun=true", data=body, headers={"Content-Type": "application/zip"}, timeout=600)
    elapsed = time.perf_counter() - t
    done.set()
    thread.join()
    print(f"RSS after the dry run: {rss_mb(server.proc.pid):.0f} MB")
    for n in range(1, args.rounds):
        into = account(base, f"round{n}")
        got = into.post(base + "/api/v1/import", data=body, headers={"Content-Type": "application/zip"}, timeout=600)
        print(f"RSS after import {n} ({got.status_code}): {rss_mb(server.proc.pid):.0f} MB")
    time.sleep(10)
    print(f"RSS 10 s later: {rss_mb(server.proc.pid):.0f} MB")
    server.stop()
    cuts = statistics.quantiles(latencies, n=100)
    print(f"dry run of {args.entries:,} entries: {r.status_code} in {elapsed:.1f} s ({len(body) / 1e6:.1f} MB archive)")
    print(f"another account's logging meanwhile: {len(latencies)} writes, p50 {cuts[49]:.1f} ms, p99 {cuts[98]:.1f} ms, "
          f"max {max(latencies):.0f} ms, not 201: {len(failures)} {sorted(set(failures))}")


if __name__ == "__main__":
    main()
