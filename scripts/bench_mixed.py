#!/usr/bin/env python3
"""Logging and diary-day reads at once, 8 connections each, on SQLite (docs/performance.md).

    python3 scripts/bench_mixed.py --bin .build/release/forkcast --logger same|other [--today]

Seeds as bench.py does. Reads spread over the year's days (with --today, today among them); the
entries are logged by the same person, into today, or by another person (--logger other)."""
import argparse, datetime, json, os, sys, threading
import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=os.path.join(os.path.dirname(bench.HERE), ".build", "release", "forkcast"), type=os.path.abspath)
parser.add_argument("--logger", choices=["same", "other"], default="same")
parser.add_argument("--today", action="store_true", help="read today too (the day every entry is logged into)")
parser.add_argument("--duration", type=int, default=15)
args = parser.parse_args()

server, token, _, _, measured = bench.prepare(args.bin, {}, "SQLite", 3000)
post_path, post_lua = next((path, lua) for name, path, lua in measured if name.startswith("POST"))
today = datetime.date.today()
days = [f"{bench.API['getDiaryDay']}?date={(today - datetime.timedelta(days=d)).isoformat()}" for d in range(0 if args.today else 1, 365)]
days_lua = os.path.join(os.path.dirname(post_lua), "mixed-days.lua")
with open(days_lua, "w") as f:
    f.write(bench.WRK_SPREAD % ", ".join(json.dumps(p) for p in days))
log_token = token
if args.logger == "other":
    other = requests.post(server.base + bench.API["register"], json={"email": "other@example.com", "password": "a long benchmark secret",
                                                                      "timeZone": "UTC"}).json()["token"]
    food = requests.post(server.base + bench.API["createFood"], headers={"Authorization": f"Bearer {other}"},
                         json={"name": "Carrot", "basis": "g", "per100": {"energyKcal": 41}}).json()
    post_lua, log_token = os.path.join(os.path.dirname(post_lua), "mixed-other.lua"), other
    with open(post_lua, "w") as f:
        f.write(bench.WRK_POST % (json.dumps({"foodId": food["id"], "quantity": 120, "unit": "g", "mealType": "snack"}), other))
print("days alone: %.0f req/s, p50 %.2f ms, p99 %.2f ms, errors %d" % bench.wrk(server.base + days[0], token, 8, 5, days_lua), flush=True)
results = {}
runs = [threading.Thread(target=lambda: results.__setitem__("days", bench.wrk(server.base + days[0], token, 8, args.duration, days_lua))),
        threading.Thread(target=lambda: results.__setitem__("logging", bench.wrk(server.base + post_path, log_token, 8, args.duration, post_lua)))]
for run in runs: run.start()
for run in runs: run.join()
for name, (rps, p50, p99, errors) in results.items():
    print(f"{name} at once: {rps:.0f} req/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms, errors {errors}")
server.stop()
