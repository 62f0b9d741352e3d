"""Fixtures that run the real `forkcast` binary as a person or an operator would."""
import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("FORKCAST_BIN", os.path.join(ROOT, ".build", "debug", "forkcast")))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `forkcast serve` process on a loopback port."""

    def __init__(self, env, data_dir, port=None):
        self.env = env
        self.data_dir = data_dir
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.log_path = os.path.join(data_dir, f"server-{self.port}.log")

    def start(self, timeout=60):
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [BINARY, "serve", "--hostname", "127.0.0.1", "--port", str(self.port)],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT, cwd=self.data_dir)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"forkcast exited with {self.proc.returncode}: {open(self.log_path).read()[-3000:]}")
            try:
                if requests.get(self.base + "/healthz", timeout=1).status_code in (200, 503):
                    return self
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError("forkcast did not start in time")

    def kill(self):
        """SIGKILL: no chance to flush anything."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def go_offline(self):
        """Gone at once, as a server that cannot be reached (start() brings it back on the same port and
        data): SIGKILL, which keeps what it acknowledged (test_durability.py). A graceful stop waits
        up to 10 s for an event stream a page still holds open."""
        self.kill()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def url(self, path):
        return self.base + path


def base_env(data_dir, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FORKCAST_") and k != "DATABASE_URL"}
    env.update({"FORKCAST_DATA_DIR": data_dir, "FORKCAST_BCRYPT_COST": "4", "LOG_LEVEL": "warning"})
    env.update(extra)
    return env


@pytest.fixture
def data_dir():
    with tempfile.TemporaryDirectory(prefix="forkcast-system-") as d:
        yield d


@pytest.fixture
def start_server(data_dir):
    servers = []

    def start(**env):
        server = Server(base_env(data_dir, **env), data_dir).start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()


PG_URL = os.environ.get("FORKCAST_TEST_PG_URL")
requires_postgres = pytest.mark.skipif(
    not PG_URL and os.environ.get("CI") != "true", reason="PostgreSQL runs only through scripts/test.sh")


@pytest.fixture
def postgres_database():
    """A fresh PostgreSQL database; its URL."""
    if not PG_URL:
        pytest.fail("FORKCAST_TEST_PG_URL is not set (run through scripts/test.sh)")
    name = "sys_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", PG_URL + "/postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
    yield f"{PG_URL}/{name}"
    subprocess.run(["psql", PG_URL + "/postgres", "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)


OWNER = "owner@example.com"


def account_email(server, email=None):
    """The email asked for, else the test's own account on a shared server, else the owner's."""
    return email or getattr(server, "email", OWNER)


def register(server, email=None, password="correct horse"):
    email = account_email(server, email)
    r = requests.post(server.url("/api/v1/auth/register"), json={"email": email, "password": password})
    assert r.status_code == 201, r.text
    return {"Authorization": "Bearer " + r.json()["token"]}


def login(server, email=None, password="correct horse"):
    email = account_email(server, email)
    r = requests.post(server.url("/api/v1/auth/login"), json={"email": email, "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": "Bearer " + r.json()["token"]}


def pytest_configure(config):
    config.addinivalue_line("markers", "viewport(size): the size the `driver` fixture opens Chromium at "
                                       "(\"phone\" unless a test is about the desktop layout)")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """scripts/test.sh runs the tests on two workers (pytest-xdist, --dist loadgroup); the tests on
    the one PostgreSQL server share a worker, since some of them stop that server. First: xdist's
    own hook reads the group marks into the test ids, and after it a mark came too late (the
    outage and SIGTERM tests ran on two workers at once, 2026-12-04)."""
    for item in items:
        if "postgres_database" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("postgres"))


@pytest.fixture
def driver(request, start_server):
    """Chromium at a phone's size: the app is mobile-first, so each browser journey runs once, there;
    test_layout_sweep.py measures every page at every width from 360 to 1440 px. A test about the
    desktop layout asks for it with @pytest.mark.viewport("desktop").

    It asks for start_server only to be closed before the servers a test starts are stopped: a
    server told to stop while a page still holds its event stream open waits 10 s for it."""
    from browser import browser_errors, make_driver
    marker = request.node.get_closest_marker("viewport")
    d = make_driver(marker.args[0] if marker else "phone")
    yield d
    errors = browser_errors(d)
    d.quit()
    assert not errors, f"script errors in the browser: {errors}"


@pytest.fixture
def server(start_server):
    """A fresh Forkcast on a temporary SQLite database."""
    return start_server()


class SharedServer:
    """A module's server as one of its tests sees it: everything the server has, and `email`, the
    test's own account (register, login, api_session and sign_in use it when given no email). The
    server is not the test's to stop: a test that stops, kills or restarts it, changes its settings
    or needs an empty database starts its own (start_server)."""

    def __init__(self, server, email):
        self._server = server
        self.email = email

    def __getattr__(self, name):
        return getattr(self._server, name)

    def _not_yours(self, *args, **kwargs):
        raise AssertionError("this server is shared by the module's tests: start one of your own (start_server)")

    start = stop = kill = _not_yours


@pytest.fixture(scope="module")
def module_server():
    """One Forkcast for a module whose tests only need an account each (sign-up open for them)."""
    with tempfile.TemporaryDirectory(prefix="forkcast-system-") as d:
        server = Server(base_env(d, FORKCAST_ALLOW_SIGNUP="true"), d).start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def shared_server(module_server, request):
    """The module's server with an account of this test's own (an email no other test uses)."""
    name = "".join(c if c.isalnum() else "-" for c in request.node.name.lower())[:40].strip("-")
    return SharedServer(module_server, f"{name}-{uuid.uuid4().hex[:8]}@example.com")
