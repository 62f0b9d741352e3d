"""Sync through the real binary: the event stream wakes an open client when data changes (on one
SQLite instance, and across two instances sharing PostgreSQL), a reconnect with Last-Event-ID
misses nothing, and a device's push shows up in another device's pull."""
import queue
import socket
import threading
import time
import uuid

import requests

from conftest import register, requires_postgres


class EventStream:
    """Reads `event: changes` messages from /api/v1/sync/events in a thread, over a socket of its
    own so that closing it is immediate."""

    def __init__(self, server, headers, last_event_id=None):
        self.events = queue.Queue()
        lines = [f"GET /api/v1/sync/events HTTP/1.1", f"Host: 127.0.0.1:{server.port}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if last_event_id:
            lines.append(f"Last-Event-ID: {last_event_id}")
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.file = self.sock.makefile("rb")
        status = self.file.readline().decode()
        assert " 200 " in status, status
        head = {}
        while (line := self.file.readline().decode().strip()):
            key, _, value = line.partition(":")
            head[key.lower()] = value.strip()
        assert head["content-type"].startswith("text/event-stream")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        event = {}
        try:
            for raw in self.file:
                line = raw.decode(errors="replace").rstrip("\r\n")
                if line == "":
                    if event.get("event") == "changes":
                        self.events.put(event)
                    event = {}
                elif not line.startswith(":") and ":" in line:
                    key, value = line.split(":", 1)
                    event[key] = value.strip()
        except (OSError, ValueError):  # the test closed the stream
            pass

    def next(self, timeout=10):
        return self.events.get(timeout=timeout)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def test_the_server_stops_at_once_with_an_event_stream_open(start_server):
    """SIGTERM with a page's event stream open: the stream ends and the process exits within
    seconds (it waited 10 s for the stream's connection)."""
    server = start_server()
    headers = register(server)
    stream = EventStream(server, headers)
    try:
        time.sleep(0.3)
        started = time.monotonic()
        server.proc.terminate()
        server.proc.wait(30)
        took = time.monotonic() - started
        assert server.proc.returncode == 0, server.proc.returncode
        assert took < 3, f"stopped after {took:.1f} s"
    finally:
        stream.close()


def test_an_open_stream_hears_about_changes_at_once(server):
    headers = register(server)
    # A new account's feed holds its settings and its seven meal types.
    before = requests.get(server.url("/api/v1/sync/changes"), headers=headers).json()["cursor"]
    stream = EventStream(server, headers)
    try:
        time.sleep(0.3)
        started = time.monotonic()
        requests.post(server.url("/api/v1/meals"), headers=headers, json={"description": "Soup"}).raise_for_status()
        event = stream.next()
        assert event["id"].startswith("c") and event["id"] in event["data"]
        print(f"change to event: {(time.monotonic() - started) * 1000:.0f} ms")
        feed = requests.get(server.url("/api/v1/sync/changes"), headers=headers, params={"since": before}).json()
        assert [c["kind"] for c in feed["changes"]] == ["meal"] and feed["cursor"] == event["id"]
    finally:
        stream.close()
    # Reconnecting with the last id seen, after more changes, brings a catch-up event at once.
    requests.post(server.url("/api/v1/meals"), headers=headers, json={"description": "Stew"}).raise_for_status()
    again = EventStream(server, headers, last_event_id=event["id"])
    try:
        caught_up = again.next()
        assert caught_up["id"] != event["id"]
    finally:
        again.close()


def test_another_users_changes_are_not_announced(start_server):
    server = start_server(FORKCAST_ALLOW_SIGNUP="true")
    alice = register(server, "alice@example.com")
    bob = register(server, "bob@example.com")
    stream = EventStream(server, bob)
    try:
        time.sleep(0.3)
        requests.post(server.url("/api/v1/meals"), headers=alice, json={"description": "Alice's soup"}).raise_for_status()
        try:
            stream.next(timeout=2)
            raise AssertionError("bob heard about alice's change")
        except queue.Empty:
            pass
    finally:
        stream.close()


def test_a_push_from_one_device_reaches_another(server):
    headers = register(server)
    meal_id = str(uuid.uuid4())
    push = requests.post(server.url("/api/v1/sync/push"), headers=headers, json={
        "deviceId": "phone",
        "mutations": [{"mutationId": "m1", "kind": "meal", "id": meal_id, "op": "upsert",
                       "updatedAt": "2026-11-22T08:00:00.000Z", "record": {"description": "Pho"}}]})
    assert push.status_code == 200 and push.json()["results"][0]["status"] == "applied"
    feed = requests.get(server.url("/api/v1/sync/changes"), headers=headers).json()
    meal = next(c for c in feed["changes"] if c["kind"] == "meal")
    assert meal["id"].lower() == meal_id and meal["deviceId"] == "phone" and meal["record"]["description"] == "Pho"


@requires_postgres
def test_events_cross_instances_on_postgresql(start_server, postgres_database):
    a = start_server(DATABASE_URL=postgres_database)
    b = start_server(DATABASE_URL=postgres_database)
    headers = register(a)
    stream = EventStream(b, headers)
    try:
        time.sleep(1.0)  # B's LISTEN is up
        requests.post(a.url("/api/v1/meals"), headers=headers, json={"description": "Made on A"}).raise_for_status()
        event = stream.next(timeout=15)
        feed = requests.get(b.url("/api/v1/sync/changes"), headers=headers).json()
        assert feed["cursor"] == event["id"]
        assert "Made on A" in [c["record"]["description"] for c in feed["changes"] if c["kind"] == "meal"]
    finally:
        stream.close()
