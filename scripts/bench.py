#!/usr/bin/env python3
"""The benchmark of docs/performance.md: seeds one account through the API (500 foods, 500 meals with two
ingredients each, 2,000 plan entries and 2,000 diary entries over a year, then 100,000 foods for
search), runs wrk against the week view, a diary day, food search and logging a food at 8 and 64
connections, and prints a table (req/s, p50, p99, errors, the server's RSS). Also start-up time to
the first answer and idle memory. A command to run and read (scripts/bench.sh), never a test.

    python3 scripts/bench.py --bin .build/release/forkcast [--postgres postgres://…] [--duration 15]

With --against OTHER_BINARY both binaries run at once, each on its own data set, and every request is
measured in turns (A B, B A, …) --rounds times: a small difference on a noisy machine shows as the
median of the rounds' ratios, beside the spread of each side.
"""
import argparse, collections, concurrent.futures, datetime, json, os, re, socket, subprocess, sys, tempfile, time, uuid
import requests

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from api_paths import api_paths  # noqa: E402

# The API's paths by operationId, read from the server once it runs.
API = {}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Server:
    def __init__(self, binary, env):
        self.binary, self.env, self.port = binary, env, free_port()
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self):
        started = time.perf_counter()
        self.proc = subprocess.Popen([self.binary, "serve", "--hostname", "127.0.0.1", "--port", str(self.port)], env=self.env,
                                     cwd=self.env["FORKCAST_DATA_DIR"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while True:
            try:
                if requests.get(self.base + "/healthz", timeout=0.2).ok:
                    return time.perf_counter() - started
            except requests.RequestException:
                if self.proc.poll() is not None: raise RuntimeError("forkcast exited")
                time.sleep(0.005)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(20)


def seed(base, email, password):
    s = requests.Session()
    token = s.post(base + API["register"], json={"email": email, "password": password, "timeZone": "UTC"}).json()["token"]
    s.headers["Authorization"] = f"Bearer {token}"
    today = datetime.date.today()
    pool = concurrent.futures.ThreadPoolExecutor(8)

    def post(path, body):
        r = s.post(base + path, json=body, timeout=60)
        if not r.ok: raise RuntimeError(f"{path}: {r.status_code} {r.text[:200]}")
        return r.json()

    words = ["chicken", "brown rice", "greek yogurt", "rolled oats", "broccoli", "salmon fillet", "whole wheat pasta", "lentils",
             "cheddar cheese", "banana", "almond butter", "sweet potato", "spinach", "black beans", "tofu", "quinoa"]
    foods = list(pool.map(lambda i: post(API["createFood"], {
        "name": f"{words[i % 16].capitalize()} {i} — a long real-world product name, organic, family pack", "basis": "g",
        "per100": {"energyKcal": 50 + i % 400, "protein": i % 30, "carbohydrates": i % 50, "fat": i % 20},
        "serving": {"size": 100, "unit": "g"}, "price": {"amount": 3.5, "per": "package", "packageSize": 500}}), range(500)))
    meals = list(pool.map(lambda i: post(API["createMeal"], {
        "description": f"Meal {i}: {words[i % 16]} with {words[(i + 5) % 16]}", "primaryProtein": words[i % 16].capitalize(),
        "primaryCarb": words[(i + 5) % 16].capitalize(), "otherComponents": ["Garlic", "Onion"], "servings": 2,
        "ingredients": [{"foodId": foods[i]["id"], "quantity": 150, "unit": "g"},
                        {"foodId": foods[(i + 1) % 500]["id"], "quantity": 80, "unit": "g"}]}), range(500)))
    start = today - datetime.timedelta(days=182)
    list(pool.map(lambda i: post(API["createAssignment"], {
        "mealId": meals[(i * 7) % 500]["id"], "date": (start + datetime.timedelta(days=i % 365)).isoformat(),
        "mealType": ["breakfast", "lunch", "dinner", "snack"][i % 4]}), range(2000)))
    def plate(d):
        day = today - datetime.timedelta(days=d)
        count = 6 if d < 175 else 5
        return post(API["logPlate"], {"mealType": "lunch", "loggedAt": f"{day.isoformat()}T12:00:00Z", "items": [
            {"foodId": foods[(d * 3 + k) % 500]["id"], "quantity": 100 + k * 10, "unit": "g"} for k in range(count)]})
    list(pool.map(plate, range(365)))
    return token, foods


WRK_POST = """
wrk.method = "POST"
wrk.body = '%s'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer %s"
"""


WRK_SPREAD = """
local paths = { %s }
-- Each wrk thread runs this in a Lua state of its own: seeded by the time alone, both asked for
-- the same paths in the same order, so every answer not yet kept was built twice at once.
math.randomseed(os.time() + tonumber(tostring({}):match("0x(%%x+)"), 16) %% 100000)
request = function() return wrk.format(nil, paths[math.random(#paths)]) end
"""


def wrk(url, token, connections, duration, script=None):
    command = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s", "--latency", "-H", f"Authorization: Bearer {token}"]
    if script: command += ["-s", script]
    out = subprocess.run(command + [url], capture_output=True, text=True).stdout

    def ms(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not m: return float("nan")
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if m: errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m: errors += sum(int(x) for x in m.groups())
    return rps, ms("50"), ms("99"), errors


ONLY = None


Prepared = collections.namedtuple("Prepared", "server token startup idle measured")


def prepare(binary, storage_env, label, food_count):
    """Starts a server on a fresh data set, seeds it, restarts it; answers the running server, its
    start-up time and idle RSS, and the requests measured: (name, path, wrk script or None)."""
    data = tempfile.mkdtemp(prefix="forkcast-bench-")
    env = dict(os.environ, FORKCAST_DATA_DIR=data, LOG_LEVEL="warning", FORKCAST_ALLOW_SIGNUP="true", **storage_env)
    server = Server(binary, env)
    server.start()
    API.update(api_paths(server.base))
    email, password = f"bench-{uuid.uuid4().hex[:8]}@example.com", "a long benchmark secret"
    t = time.time()
    token, foods = seed(server.base, email, password)
    subprocess.run([binary, "seed-foods", "--email", email, "--count", str(food_count - 500)], env=env, cwd=data, check=True,
                   stdout=subprocess.DEVNULL)
    print(f"[{label}] seeded through the API and {food_count - 500} more foods in {time.time() - t:.0f} s", flush=True)
    server.stop()
    startup = server.start()
    time.sleep(2)
    idle = rss_mb(server.proc.pid)
    script = os.path.join(data, "post.lua")
    with open(script, "w") as f:
        f.write(WRK_POST % (json.dumps({"foodId": foods[7]["id"], "quantity": 120, "unit": "g", "mealType": "snack"}), token))
    # Reads are spread the way people ask them: 267 different weeks of the year's plan, 365 diary
    # days and 16 search words, each request picking one at random, so no answer is asked twice in a row.
    def spread(name, paths):
        lua = os.path.join(data, f"{name}.lua")
        with open(lua, "w") as f:
            f.write(WRK_SPREAD % ", ".join(json.dumps(p) for p in paths))
        return lua
    day = datetime.date.today()
    weeks = [f"{API['getPlan']}?start={(day + datetime.timedelta(days=d)).isoformat()}&days=7" for d in range(-182, 85)]
    days = [f"{API['getDiaryDay']}?date={(day - datetime.timedelta(days=d)).isoformat()}" for d in range(365)]
    words = ["chick", "rice", "yogurt", "oats", "brocc", "salmon", "pasta", "lentil", "cheddar", "banana", "almond", "potato",
             "spinach", "beans", "tofu", "quinoa"]
    searches = [f"{API['listFoods']}?q={w}&per=20" for w in words]
    measured = [
        (f"GET {API['getPlan']}?start=…&days=7 (267 weeks)", weeks[0], spread("weeks", weeks)),
        (f"GET {API['getDiaryDay']}?date=… (365 days)", days[0], spread("days", days)),
        (f"GET {API['listFoods']}?q=…&per=20 (16 words)", searches[0], spread("search", searches)),
        (f"POST {API['createDiaryEntry']}", API["createDiaryEntry"], script),
    ]
    return Prepared(server, token, startup, idle, [m for m in measured if not ONLY or ONLY in m[0]])


def run(binary, storage_env, label, duration, food_count):
    server, token, startup, idle, measured = prepare(binary, storage_env, label, food_count)
    rows = []
    for name, path, lua in measured:
        wrk(server.base + path, token, 8, 2, lua)  # warm-up (first answers, SQLite's page cache), not recorded
        for connections in (8, 64):
            rps, p50, p99, errors = wrk(server.base + path, token, connections, duration, lua)
            rows.append((name, connections, rps, p50, p99, errors, rss_mb(server.proc.pid)))
            print(f"[{label}] {name} c={connections}: {rps:.0f} req/s p50 {p50:.2f} ms p99 {p99:.2f} ms errors {errors}", flush=True)
    server.stop()
    return startup, idle, rows


def compare(binaries, storage_envs, label, duration, food_count, rounds):
    """Two binaries, each on its own data set (and schema), both running; every request and
    connection count is measured in turns, A then B, then B then A, `rounds` times, so that the
    machine's drift falls on both alike. Answers rows of (name, conns, A's req/s, B's req/s, A's p99 ms,
    B's p99 ms, errors), each side's figures one per round."""
    prepared = [prepare(b, env, f"{label} {'AB'[i]}", food_count) for i, (b, env) in enumerate(zip(binaries, storage_envs))]
    rows = []
    for index, (name, _, _) in enumerate(prepared[0].measured):
        for side in prepared:  # warm-up, not recorded
            _, path, lua = side.measured[index]
            wrk(side.server.base + path, side.token, 8, 2, lua)
        for connections in (8, 64):
            rps, p99, errors = ([], []), ([], []), 0
            for r in range(rounds):
                for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                    side = prepared[i]
                    _, path, lua = side.measured[index]
                    value, _, tail, failed = wrk(side.server.base + path, side.token, connections, duration, lua)
                    rps[i].append(value)
                    p99[i].append(tail)
                    errors += failed
            rows.append((name, connections, rps[0], rps[1], p99[0], p99[1], errors))
            print(f"[{label}] {name} c={connections}: A {rps[0]} p99 {p99[0]} B {rps[1]} p99 {p99[1]}", flush=True)
    for side in prepared:
        side.server.stop()
    return rows


def print_comparison(label, binaries, rows):
    import statistics
    print(f"### {label}: A = {binaries[0]}, B = {binaries[1]} (req/s and p99: median, lowest–highest of the rounds)\n")
    print("| request | conns | A req/s | B req/s | B/A, median of the rounds' ratios | A p99 ms | B p99 ms | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for name, c, a, b, a99, b99, errors in rows:
        ratio = statistics.median(y / x for x, y in zip(a, b) if x > 0) if any(a) else float("nan")
        cell = lambda v: f"{statistics.median(v):,.0f} ({min(v):,.0f}–{max(v):,.0f})"
        tail = lambda v: f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})"
        print(f"| `{name}` | {c} | {cell(a)} | {cell(b)} | {ratio - 1:+.1%} | {tail(a99)} | {tail(b99)} | {errors} |")
    print()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(HERE), ".build", "release", "forkcast"), type=os.path.abspath)
    parser.add_argument("--postgres", help="postgres://… of a server to also measure (a fresh schema is used)")
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--foods", type=int, default=100_000)
    parser.add_argument("--postgres-socket", help="postgres+uds://… of the same server through its Unix socket, measured too")
    parser.add_argument("--only", help="measure only the requests whose name holds this text (e.g. POST)")
    parser.add_argument("--only-postgres", action="store_true", help="measure PostgreSQL alone (with --postgres)")
    parser.add_argument("--against", type=os.path.abspath,
                        help="a second binary: both run at once and each request is measured in turns (A/B), --rounds times")
    parser.add_argument("--rounds", type=int, default=5, help="turns of each binary per request and connection count (with --against)")
    args = parser.parse_args()
    global ONLY
    ONLY = args.only
    runs = [] if args.only_postgres and args.postgres else [("SQLite", {})]
    if args.postgres:
        runs.append(("PostgreSQL", {"DATABASE_URL": args.postgres, "FORKCAST_DATABASE_SCHEMA": "bench_" + uuid.uuid4().hex[:8]}))
        if args.postgres_socket:
            runs.append(("PostgreSQL, Unix socket", {"DATABASE_URL": args.postgres_socket, "FORKCAST_DATABASE_SCHEMA": "bench_" + uuid.uuid4().hex[:8]}))
    if args.against:
        for label, storage in runs:
            envs = []
            for _ in range(2):  # each binary on a schema of its own
                env = dict(storage)
                if "FORKCAST_DATABASE_SCHEMA" in env:
                    env["FORKCAST_DATABASE_SCHEMA"] = "bench_" + uuid.uuid4().hex[:8]
                    subprocess.run(["psql", args.postgres, "-qc", f"CREATE SCHEMA {env['FORKCAST_DATABASE_SCHEMA']}"], check=True)
                envs.append(env)
            rows = compare([args.bin, args.against], envs, label, args.duration, args.foods, args.rounds)
            print()
            print_comparison(label, [args.bin, args.against], rows)
        return
    results = []
    for label, storage in runs:
        if "FORKCAST_DATABASE_SCHEMA" in storage:
            subprocess.run(["psql", args.postgres, "-qc", f"CREATE SCHEMA {storage['FORKCAST_DATABASE_SCHEMA']}"], check=True)
        results.append((label, *run(args.bin, storage, label, args.duration, args.foods)))
    print()
    for label, startup, idle, rows in results:
        print(f"### {label}: start-up to first answer {startup * 1000:.0f} ms, idle RSS {idle:.0f} MB\n")
        print("| request | conns | req/s | p50 ms | p99 ms | errors | RSS MB |")
        print("|---|---|---|---|---|---|---|")
        for name, c, rps, p50, p99, errors, rss in rows:
            print(f"| `{name}` | {c} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {errors} | {rss:.0f} |")
        print()


if __name__ == "__main__":
    sys.exit(main())
