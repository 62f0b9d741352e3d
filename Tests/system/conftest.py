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


def register(server, email="owner@example.com", password="correct horse"):
    r = requests.post(server.url("/api/v1/auth/register"), json={"email": email, "password": password})
    assert r.status_code == 201, r.text
    return {"Authorization": "Bearer " + r.json()["token"]}


def login(server, email="owner@example.com", password="correct horse"):
    r = requests.post(server.url("/api/v1/auth/login"), json={"email": email, "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": "Bearer " + r.json()["token"]}


@pytest.fixture(params=["phone", "desktop"])
def driver(request):
    from browser import browser_errors, make_driver
    d = make_driver(request.param)
    yield d
    errors = browser_errors(d)
    d.quit()
    assert not errors, f"script errors in the browser: {errors}"


@pytest.fixture
def server(start_server):
    """A fresh Forkcast on a temporary SQLite database."""
    return start_server()
