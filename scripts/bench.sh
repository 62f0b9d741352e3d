#!/usr/bin/env bash
# The API benchmark (a command, not a test): builds the release binary, then scripts/bench.py
# seeds the data set through the API and runs wrk at 8 and 64 connections against the week view,
# a diary day, food search and logging, on SQLite and — when PostgreSQL is installed — on a
# throw-away PostgreSQL cluster started here, reached over TCP and through its Unix socket. Prints a table for docs/performance.md.
#   bash scripts/bench.sh [--duration 15] [--foods 100000] [--only-postgres]
#   bash scripts/bench.sh --against /path/to/an/older/forkcast --rounds 5 [--only day]   (A/B in turns; see bench.py)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
python3 -c "import requests" 2>/dev/null || python3 -m pip install -q requests
swift build -c release --product forkcast 2>&1 | grep -v "^warning: \|^    /" || true
args=("$@")
if initdb=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1) && [ -n "$initdb" ]; then
  PG_BIN=$(dirname "$initdb"); PG_DIR=$(mktemp -d /tmp/forkcast-bench-pg-XXXXXX); PG_PORT=${FORKCAST_BENCH_PG_PORT:-54339}
  PG_USER=postgres; id -u "$PG_USER" >/dev/null 2>&1 || PG_USER=$(id -un)
  as_pg() { if [ "$(id -un)" = "$PG_USER" ]; then "$@"; else runuser -u "$PG_USER" -- "$@"; fi; }
  chown "$PG_USER" "$PG_DIR"
  as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
  trap 'as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" stop -m fast >/dev/null 2>&1; rm -rf "$PG_DIR"' EXIT
  args+=(--postgres "postgres://postgres@127.0.0.1:$PG_PORT/postgres" --postgres-socket "postgres+uds://postgres@localhost$PG_DIR/.s.PGSQL.$PG_PORT#postgres")
fi
python3 scripts/bench.py --bin "$PWD/.build/release/forkcast" "${args[@]}"
