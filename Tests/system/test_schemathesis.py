"""Schemathesis against the real `forkcast serve`: every operation of the served openapi.json, every
check, a fixed seed and a bounded number of examples (about two minutes beside the browser tests).

The checks (`--checks all`): no 5xx, only documented status codes, documented content types, response
bodies and headers matching their schemas, invalid requests rejected with a 4xx, valid requests
accepted, missing auth and undeclared methods answered properly (405 with an exact Allow), and the
stateful checks over the links schemathesis infers (a created resource can be read, a deleted one is
gone). Phases: the spec's examples, coverage (valid and invalid values at the bounds of every
constraint, about 8,000 requests) and stateful. Random fuzzing is left out: at ten examples per
operation it took 84 of the test's 209 s (2026-12-04) for about 1,250 requests of the kinds coverage
already sends to every operation, and the checks above run on coverage's answers all the same.

Only POST /api/v1/auth/logout is left out: it revokes the bearer token every other request uses.
Open Food Facts is the local fake serving Tests/Fixtures (no test touches the internet); its rate
limits are raised so lookups reach the parsing code instead of the limiter's 503.

A failure lists each problem with a curl line to reproduce it; `st replay <id>` needs the report, which
is kept under $FORKCAST_ARTIFACTS/schemathesis when that is set.
"""
import os
import subprocess
import sys
import time

from conftest import register
from fake_openfoodfacts import FakeOpenFoodFacts

SEED = 20261122
# Examples for the stateful phase (the coverage phase's cases do not depend on it).
MAX_EXAMPLES = 10
# Seconds before the run is stopped (it normally needs about two minutes).
TIME_LIMIT = 480


def schemathesis_command(schema_url, authorization, report_dir):
    return [
        sys.executable, "-m", "schemathesis.cli",
        "--config-file", os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemathesis.toml"),
        "run", schema_url,
        "--header", f"Authorization: {authorization}",
        "--checks", "all",
        "--phases", "examples,coverage,stateful",
        "--exclude-path", "/api/v1/auth/logout",
        "--exclude-path", "/api/v1/sync/events",  # an endless event stream (tested in test_sync.py)
        "--seed", str(SEED),
        "--max-examples", str(MAX_EXAMPLES),
        "--generation-database", "none",
        # Hypothesis' own check that it could generate enough bodies: the plate's rows (a food, a
        # meal or a quick add, each with its own required fields) tripped it at 10 examples. It
        # says nothing about Forkcast's answers.
        "--suppress-health-check", "filter_too_much",
        # One worker: CPython 3.11.7's ast.parse, which Hypothesis calls to describe strategies, can
        # fail with "AST constructor recursion depth mismatch" when two threads parse at once
        # (a SystemError reported as a schemathesis runtime error, not a finding about Forkcast).
        "--workers", "1",
        "--request-timeout", "30",
        "--continue-on-failure",
        "--report", "junit,ndjson", "--report-dir", str(report_dir),
        "--no-color",
    ]


def test_api_conforms_to_its_openapi_document(start_server, tmp_path):
    artifacts = os.environ.get("FORKCAST_ARTIFACTS")
    report_dir = os.path.join(artifacts, "schemathesis") if artifacts else str(tmp_path / "report")
    with FakeOpenFoodFacts() as off:
        server = start_server(
            FORKCAST_OPENFOODFACTS_URL=off.url,
            FORKCAST_ALLOW_SIGNUP="true",  # so register is exercised beyond "sign-up is closed"
            FORKCAST_OPENFOODFACTS_PRODUCTS_PER_MINUTE="100000",
            FORKCAST_OPENFOODFACTS_SEARCHES_PER_MINUTE="100000",
        )
        authorization = register(server)["Authorization"]
        command = schemathesis_command(server.url("/api/v1/openapi.json"), authorization, report_dir)
        started = time.monotonic()
        try:
            here = os.path.dirname(os.path.abspath(__file__))
            env = {**os.environ, "NO_COLOR": "1", "SCHEMATHESIS_HOOKS": "schemathesis_hooks",
                   "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}
            run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=TIME_LIMIT, env=env)
        except subprocess.TimeoutExpired as timeout:
            output = timeout.stdout or ""
            if isinstance(output, bytes):
                output = output.decode(errors="replace")
            raise AssertionError(f"schemathesis did not finish within {TIME_LIMIT} s:\n{output[-20000:]}") from None
        elapsed = time.monotonic() - started
    output = run.stdout + run.stderr
    assert run.returncode == 0, (
        f"schemathesis found problems (exit {run.returncode}, {elapsed:.0f} s, seed {SEED}; "
        f"reports in {report_dir}):\n{output}")
