#!/usr/bin/env bash
# Installs what the tests need and runs every test:
#   1. Swift tests (domain + server) against SQLite in temporary files,
#   2. beside them, at the same time, the server tests against a real PostgreSQL server started here,
#   3. the system tests (pytest): the real `forkcast` binary, SIGKILL durability, outages, CLI,
#      several instances on one PostgreSQL, and the browser suite (Selenium + Chromium, axe-core),
#      which saves screenshots, axe reports and timings under artifacts/.
# Under CI=true a PostgreSQL run that cannot happen is a failure, not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ARTIFACTS=${FORKCAST_ARTIFACTS:-$ROOT/artifacts}
mkdir -p "$ARTIFACTS"
rm -f "$ARTIFACTS/pytest.log"
log() { printf '\n==> %s\n' "$*"; }

# Each phase's time, printed at the end (also when a phase fails) and kept in artifacts/.
PHASES="$ARTIFACTS/phase-times.txt"
: >"$PHASES"
rm -f "$PHASES.parts"
phase_name="" phase_start=$SECONDS run_start=$SECONDS
phase() {
  [ -n "$phase_name" ] && printf '%-40s %5d s\n' "$phase_name" $((SECONDS - phase_start)) >>"$PHASES"
  [ -f "$PHASES.parts" ] && { cat "$PHASES.parts" >>"$PHASES"; rm -f "$PHASES.parts"; }
  phase_name="$1" phase_start=$SECONDS
  [ -n "$1" ] && log "$1"
  return 0
}
report_phases() {
  phase ""
  printf '%-40s %5d s\n' "whole run" $((SECONDS - run_start)) >>"$PHASES"
  echo; echo "==> Phase times"; cat "$PHASES"
  # The test runner's own closing line stays the last one printed.
  [ -s "$ARTIFACTS/pytest.log" ] && { echo; tail -n 1 "$ARTIFACTS/pytest.log"; }
  return 0
}
trap report_phases EXIT

need_apt=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
command -v psql >/dev/null 2>&1 || need_apt+=(postgresql-client)
# The browser suite drives Debian's Chromium, as its headless shell, through its WebDriver.
[ -x /usr/lib/chromium/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)
[ -x /usr/bin/chromedriver ] || need_apt+=(chromium-driver)
fc-list 2>/dev/null | grep -qi dejavu || need_apt+=(fonts-dejavu-core)
if [ ${#need_apt[@]} -gt 0 ]; then
  phase "Installing ${need_apt[*]} (Debian packages)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  fi
fi

phase "Installing Python test tools"
python3 -m pip install -q --disable-pip-version-check -r Tests/system/requirements.txt

phase "Building"
# With the index store (the default), not without it: test discovery on Linux reads it.
# Under CI, a build from nothing, each module is one compiler job (whole-module, still -Onone):
# 847 CPU-s and 480 s instead of 1,506 CPU-s and 783 s (2026-12-04), since batch mode parses and
# checks a module's declarations again in every batch. -num-threads keeps the object file per
# source file that SwiftPM links. Elsewhere batch mode keeps a rebuild to the files that changed.
build_flags=()
[ "${CI:-}" = "true" ] && build_flags=(-Xswiftc -wmo -Xswiftc -num-threads -Xswiftc 2)
swift build --build-tests "${build_flags[@]}"

# A failing run ends by repeating what failed (the top of a long log is often cut off).
failed_summary() {
  echo; echo "==> FAILED: $1 — the failing tests and issues:"
  grep -aE "✘|recorded an issue|Fatal error|error:" "$2" | grep -av "passed after" | head -60 || true
}

# The test bundle itself, as `swift test --skip-build` runs it: that command first plans the build
# again (11 s of CPU each time here).
SWIFT_TESTS="$(swift build --show-bin-path)/forkcastPackageTests.xctest"
swift_tests() { NO_COLOR=1 "$SWIFT_TESTS" --testing-library swift-testing "$@"; }

# Swift Testing starts every test of the process at once. On two cores, with Swift concurrency on
# the two event loops (production's executor), ~450 tests at once left the in-process servers and
# fakes (Open Food Facts, Apple's keys) unanswered past their clients' timeouts: connect timeouts
# and 503s in tests that pass alone, with no change to the code (seen on the commit before too).
# Four at a time stay within them: with eight, a machine half as fast (2026-11-26) still kept
# sixteen concurrent writers waiting past the write gate's 15 s beside seven other tests.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-4}

# --- PostgreSQL: a throw-away cluster owned by the postgres user, on a loopback port ---
PG_BIN=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
PG_PORT=${FORKCAST_TEST_PG_PORT:-54329}
PG_DIR=$(mktemp -d /tmp/forkcast-pg-XXXXXX)
PG_USER=postgres
id -u "$PG_USER" >/dev/null 2>&1 || PG_USER=$(id -un)
as_pg() { if [ "$(id -un)" = "$PG_USER" ]; then "$@"; else runuser -u "$PG_USER" -- "$@"; fi; }
stop_pg() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" stop -m fast >/dev/null 2>&1 || true; rm -rf "$PG_DIR"; }
trap 'stop_pg; report_phases' EXIT

phase "Starting PostgreSQL"
pg_ok=false
chown "$PG_USER" "$PG_DIR"
# Swift Testing runs many server tests at once, each with its own connection pool: 200 connections
# ran out on a CI machine ("sorry, too many clients already").
if as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >"$PG_DIR/initdb.log" 2>&1 \
   && as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
        -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=1000" start >/dev/null; then
  psql "postgres://postgres@127.0.0.1:$PG_PORT/postgres" -qc "CREATE ROLE forkcast LOGIN SUPERUSER PASSWORD 'forkcast'" \
    && psql "postgres://postgres@127.0.0.1:$PG_PORT/postgres" -qc "CREATE DATABASE forkcast_test OWNER forkcast" \
    && pg_ok=true
fi
if ! $pg_ok; then
  cat "$PG_DIR"/*.log 2>/dev/null || true
  if [ "${CI:-}" = "true" ]; then echo "PostgreSQL could not be started; CI requires the PostgreSQL run." >&2; exit 1; fi
  echo "WARNING: PostgreSQL could not be started; skipping the PostgreSQL runs (they are required under CI=true)." >&2
fi

# The two runs side by side: each alone left a quarter of the two cores idle (waiting on fsync,
# on PostgreSQL, on its slowest tests), 194 s and 275 s one after the other (2026-12-04).
phase "Swift tests on SQLite and on PostgreSQL, side by side"
SQLITE_LOG="$ARTIFACTS/swift-test-sqlite.log" POSTGRES_LOG="$ARTIFACTS/swift-test-postgres.log"
rm -f "$POSTGRES_LOG"
# Each run's own time, printed under the phase's.
timed() {
  local start=$SECONDS status=0
  "$@" || status=$?
  printf '  %-38s %5d s\n' "$TIMED_AS" $((SECONDS - start)) >>"$PHASES.parts"
  return $status
}
# Left out: suites and tests about parsing, validation, pages, headers, tokens, the client's
# transport and the tests' executor, whose outcome does not depend on the engine; what they
# store, other tests store here. Whole suites:
not_storage="MultipartTests|HealthImportHardeningTests|RecipeImportAPITests|RecipeNutritionTests|RecipeWebTests"
not_storage+="|CookWebTests|ClientRetryTests|ExecutorTests|OpenAPIConformanceCheckTests|ModelFieldsTests"
# and single tests (about 60 CPU-s with the PostgreSQL server's share, 2026-12-04):
engine_free="HardeningTests/(hugeAndNegativePages|anIdThatIsNotOne|aParameterOutsideTheBounds|aFractionOrAHugeNumber"
engine_free+="|instantsAndDatesAreReadStrictly|escapingWorksOnBytes|noTextCanAddElements|aHostileSearchIsShownAsText"
engine_free+="|everyAnswerCarriesTheSecurityHeaders|signInNeverRedirectsOffSite|csrfIsNotSkipped|cookiesAreSecure"
engine_free+="|undeclaredMethodsAre405)"
engine_free+="|AuthTests/(registrationValidatesEveryField|aNetworkIsAnIPv4Address|commonAndBlankPasswords"
engine_free+="|wrongPasswordIsUnauthorized|missingOrBogusTokens)"
engine_free+="|SignInTests/(badTokensAreEachRefused|theSecondFormOfAnECDSASignature|rotatedKeysAreFetchedOnce"
engine_free+="|unreachableKeysAreFetchedOnce|hangingKeysAreGivenUp|theRealAppleTokenParses)"
engine_free+="|SystemTests/(theScriptsPathTable|databaseURLsOfPostgreSQL|unknownPathsAreProblemDocuments"
engine_free+="|openAPIDescribesEveryRoute|aFullDiskIsReported|sqliteCommitsAreDurable)"
engine_free+="|WebPageTests/(userTextIsEscapedInPages|pagesNeedASignedInUser|formsWithoutTheTokenAreRefused"
engine_free+="|signInOnlyRedirectsToLocalPaths|everyWebRouteComesFromSiteURL|everyPageStatesCores|siteURLsEncodeFilters)"
engine_free+="|ReviewFindingTests/(anAuthorizationHeaderOnAWebPage|strayPercentSigns"
engine_free+="|aWeighingCannotBeInTheFuture|aVeryLongPathIsNotFound|publicFilesAreServed|csvCellsNeverStartAFormula"
engine_free+="|csvShowsLocalTime|aZipWhoseHeaderUnderstates)"
# A test renamed or moved would run on PostgreSQL again unnoticed: each name left out must name one.
left_out=()
for suite in ${not_storage//|/ }; do left_out+=("$suite/"); done
for group in ${engine_free//)|/ }; do
  group=${group%)} suite=${group%%/*} tests=${group#*/(}
  for test in ${tests//|/ }; do left_out+=("$suite/$test"); done
done
listed=$(swift_tests --list-tests 2>/dev/null)
for name in "${left_out[@]}"; do
  grep -q "^ForkcastServerTests\.$name" <<<"$listed" \
    || { echo "scripts/test.sh leaves $name out on PostgreSQL, but no test has that name" >&2; exit 1; }
done

TIMED_AS="SQLite" timed swift_tests >"$SQLITE_LOG" 2>&1 &
sqlite_run=$!
postgres_status=0
if $pg_ok; then
  # Two at a time: the PostgreSQL server shares the two cores and the disk with the tests, and at
  # four a test's pool waited past its 5 s for a connection while sixteen writers committed one
  # by one beside it (2026-11-27).
  FORKCAST_TEST_DATABASE_URL="postgres://forkcast:forkcast@127.0.0.1:$PG_PORT/forkcast_test" \
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${FORKCAST_TEST_PG_WIDTH:-2} TIMED_AS="PostgreSQL (port $PG_PORT)" \
    timed swift_tests --filter ForkcastServerTests --skip "ForkcastServerTests\.(($not_storage)/|$engine_free)" >"$POSTGRES_LOG" 2>&1 \
    || postgres_status=$?
fi
sqlite_status=0
wait $sqlite_run || sqlite_status=$?
for log in "$SQLITE_LOG" "$POSTGRES_LOG"; do [ -f "$log" ] && tail -n 1 "$log"; done
[ $sqlite_status = 0 ] || failed_summary "Swift tests on SQLite (all of it: $SQLITE_LOG)" "$SQLITE_LOG"
[ $postgres_status = 0 ] || failed_summary "Swift server tests on PostgreSQL (all of it: $POSTGRES_LOG)" "$POSTGRES_LOG"
[ $sqlite_status = 0 ] && [ $postgres_status = 0 ] || exit 1
if $pg_ok; then
  export FORKCAST_TEST_PG_URL="postgres://forkcast:forkcast@127.0.0.1:$PG_PORT"
  export FORKCAST_TEST_PG_CTL="$PG_BIN/pg_ctl" FORKCAST_TEST_PG_DATA="$PG_DIR/data" FORKCAST_TEST_PG_USER="$PG_USER"
  export FORKCAST_TEST_PG_OPTIONS="-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1"
fi

phase "System tests (pytest)"
export FORKCAST_BIN="$ROOT/.build/debug/forkcast" FORKCAST_ARTIFACTS="$ARTIFACTS"
set +e
# Two workers (pytest-xdist): most of a browser test is waiting for a page, a server or a timer, so
# two at once share the two cores; the tests on the one PostgreSQL server keep to one worker
# (conftest.py), since some of them stop it.
python3 -m pytest Tests/system -q -p no:cacheprovider --durations=25 -n "${FORKCAST_PYTEST_WORKERS:-2}" --dist loadgroup "$@" 2>&1 \
  | tee "$ARTIFACTS/pytest.log"
status=${PIPESTATUS[0]}
set -e
# pytest exits 5 when it collected nothing: that is a failure here too.
exit $status
