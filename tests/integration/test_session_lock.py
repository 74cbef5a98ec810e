"""The real lock (issue 31): the daemon follows the user's logind session lock and suspends,
against python3-dbusmock's logind template on a private dbus-daemon used as the system bus
(DBUS_SYSTEM_BUS_ADDRESS). A locked session holds the spool and the queue as the lock flag
does; the flag stays the manual override; no bus means the flag alone, said once."""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from conftest import bus_has, samples, wait_until
from test_notifications import SYSTEM_PYTHON, gdbus

LOGIND = "org.freedesktop.login1"
MANAGER = "/org/freedesktop/login1"


class SystemBus:
    """dbus-daemon on a private socket standing in for the system bus, with logind mocked on it."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.socket = directory / "system_bus_socket"
        self.address = f"unix:path={self.socket}"
        self.bus = self.mock = None
        self.start()

    def start(self):
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={self.address}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The socket's file appears at bind(), before dbus-daemon listens: wait for an answer.
        assert wait_until(lambda: bus_has(self.address, "org.freedesktop.DBus"), 10), "dbus-daemon did not start"
        self.mock = subprocess.Popen([SYSTEM_PYTHON, "-m", "dbusmock", "--template", "logind"],
                                     env={**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": self.address},
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(lambda: bus_has(self.address, LOGIND), 15), \
            "dbusmock did not take org.freedesktop.login1"

    def call(self, path: str, method: str, *args: str) -> str:
        return gdbus(self.address, LOGIND, path, method, *args)

    def add_session(self, session_id: str, session_type: str = "wayland") -> str:
        path = f"{MANAGER}/session/{session_id}"
        self.call(MANAGER, "org.freedesktop.DBus.Mock.AddSession", session_id, "seat0", f"uint32 {os.getuid()}", "tester", "true")
        self.call(path, "org.freedesktop.DBus.Properties.Set", "org.freedesktop.login1.Session", "Type", f"<'{session_type}'>")
        return path

    def prepare_for_sleep(self, sleeping: bool):
        self.call(MANAGER, "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.login1.Manager", "PrepareForSleep", "b",
                  f"[<{'true' if sleeping else 'false'}>]")

    def stop(self):
        for p in (self.mock, self.bus):
            if p and p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        if self.socket.exists():
            self.socket.unlink()


@pytest.fixture
def system_bus(tmp_path):
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run([SYSTEM_PYTHON, "-c", "import dbusmock"]).returncode != 0:
        pytest.fail("python3-dbusmock is not installed: scripts/setup-deps.sh --test")
    directory = tmp_path / "sysbus"
    directory.mkdir()
    bus = SystemBus(directory)
    yield bus
    bus.stop()


def start(hs, gateway, system_bus_address: str, **env):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    hs.start(env={"DBUS_SYSTEM_BUS_ADDRESS": system_bus_address, **env})


def holders(hs) -> list[str]:
    return [h["by"] for h in hs.status()["lock"]["holds"]]


def assert_held(hs, gateway, name: str, sent: int):
    """`name` was dropped into the spool and must stay there, nothing more sent."""
    time.sleep(1.5)  # give a wrongly unlocked daemon the chance to misbehave
    assert (hs.spool / name).exists(), f"a locked daemon must not read the spool:\n{hs.read_log()}"
    assert len(gateway.sample_ids()) == sent


def test_a_locked_session_holds_the_spool_and_unlock_drains_it(hs, gateway, system_bus):
    session = system_bus.add_session("c1")
    start(hs, gateway, system_bus.address)
    assert wait_until(lambda: "following the lock of logind session c1 (wayland)" in hs.read_log()), hs.read_log()
    hs.drop("before.json", json.dumps(samples(3)))
    gateway.wait_for_samples(3)

    system_bus.call(session, "org.freedesktop.login1.Session.Lock")
    st = wait_until(lambda: (s := hs.status())["daemon"]["state"] == "locked" and s)
    assert st, hs.read_log()
    assert st["locked"] is True and [h["by"] for h in st["lock"]["holds"]] == ["session"]
    assert st["lock"]["holds"][0]["since"] and st["lock"]["session"] == {"id": "c1", "type": "wayland"}
    assert "locked (session)" in st["daemon"]["statusLine"]
    hs.drop("while-locked.json", json.dumps(samples(4, start=100)))
    assert_held(hs, gateway, "while-locked.json", 3)
    text = hs.run("status", check=False).stdout
    assert "lock:        LOCKED by the session lock since " in text and "until the session is unlocked" in text, text
    assert "session:     following the lock of logind session c1 (wayland)" in text, text
    p = hs.run("sync", check=False)
    assert p.returncode != 0 and "unlocking the session" in p.stderr, p.stderr

    system_bus.call(session, "org.freedesktop.login1.Session.Unlock")
    assert len({s["id"] for s in gateway.wait_for_samples(7)}) == 7
    assert wait_until(lambda: (hs.spool / "archive" / "while-locked.json").exists())
    assert hs.status()["locked"] is False and "LOCKED" not in hs.run("status", check=False).stdout


def test_locked_hint_at_start_and_the_flag_outlasting_the_session_unlock(hs, gateway, system_bus):
    session = system_bus.add_session("c2", "x11")
    system_bus.call(session, "org.freedesktop.login1.Session.SetLockedHint", "true")
    hs.spool.mkdir()
    hs.drop("early.json", json.dumps(samples(2)))
    start(hs, gateway, system_bus.address)
    # The session was locked before the daemon started: the file already there waits too.
    assert wait_until(lambda: holders(hs) == ["session"]), hs.read_log()
    assert_held(hs, gateway, "early.json", 0)

    hs.run("lock")
    assert wait_until(lambda: holders(hs) == ["flag", "session"])
    system_bus.call(session, "org.freedesktop.login1.Session.SetLockedHint", "false")
    assert wait_until(lambda: holders(hs) == ["flag"]), hs.read_log()
    assert hs.status()["daemon"]["state"] == "locked"
    assert_held(hs, gateway, "early.json", 0)
    assert "until 'healthspool unlock'" in hs.run("status", check=False).stdout

    hs.run("unlock")
    assert len(gateway.wait_for_samples(2)) == 2


def test_prepare_for_sleep_locks_until_the_resume(hs, gateway, system_bus):
    system_bus.add_session("c3")
    start(hs, gateway, system_bus.address)
    assert wait_until(lambda: "following the lock of logind session c3" in hs.read_log()), hs.read_log()
    system_bus.prepare_for_sleep(True)
    assert wait_until(lambda: holders(hs) == ["sleep"]), hs.read_log()
    hs.drop("asleep.json", json.dumps(samples(3)))
    assert_held(hs, gateway, "asleep.json", 0)
    assert "LOCKED by a suspend since" in hs.run("status", check=False).stdout
    system_bus.prepare_for_sleep(False)
    assert len(gateway.wait_for_samples(3)) == 3
    assert holders(hs) == []


def test_the_bus_going_away_unlocks_and_the_daemon_reconnects(hs, gateway, system_bus):
    session = system_bus.add_session("c4")
    start(hs, gateway, system_bus.address)
    # Lock once the daemon follows the session (a lock sent before it listens is not this test's
    # subject; CI's busy run sent it first once).
    assert wait_until(lambda: "following the lock of logind session c4" in hs.read_log()), hs.read_log()
    system_bus.call(session, "org.freedesktop.login1.Session.Lock")
    assert wait_until(lambda: holders(hs) == ["session"]), hs.read_log()
    hs.drop("held.json", json.dumps(samples(2)))
    assert_held(hs, gateway, "held.json", 0)

    system_bus.stop()
    # The session's lock is no longer known: the flag alone, which is not set.
    assert len(gateway.wait_for_samples(2)) == 2
    assert wait_until(lambda: "the session lock is not followed: the system bus connection was lost" in hs.read_log())
    assert wait_until(lambda: hs.status()["lock"]["session"] is None)

    system_bus.start()
    system_bus.add_session("c4")
    assert wait_until(lambda: hs.read_log().count("following the lock of logind session c4") == 2, 20), hs.read_log()
    assert wait_until(lambda: hs.status()["lock"]["session"] == {"id": "c4", "type": "wayland"})


def test_no_system_bus_means_the_flag_alone_said_once(hs, gateway, tmp_path):
    start(hs, gateway, f"unix:path={tmp_path}/no-such-bus")
    hs.drop("a.json", json.dumps(samples(2)))
    assert len(gateway.wait_for_samples(2)) == 2
    time.sleep(4)  # several tries to connect, 1 s then 2 s apart
    log = hs.read_log()
    assert log.count("the session lock is not followed") == 1, log
    assert f"no D-Bus system bus at unix:path={tmp_path}/no-such-bus" in log
    st = hs.status()
    assert st["lock"]["session"] is None and st["lock"]["sessionNote"].startswith("no D-Bus system bus")
    assert "session:     lock not followed: no D-Bus system bus" in hs.run("status", check=False).stdout
    hs.run("lock")
    assert wait_until(lambda: holders(hs) == ["flag"])
    hs.drop("b.json", json.dumps(samples(2, start=50)))
    assert_held(hs, gateway, "b.json", 2)
    hs.run("unlock")
    assert len(gateway.wait_for_samples(4)) == 4


def test_auto_passes_over_a_text_session_and_off_follows_none(hs, gateway, system_bus):
    session = system_bus.add_session("c5", "tty")
    start(hs, gateway, system_bus.address)
    assert wait_until(lambda: "no graphical logind session of this user" in hs.read_log()), hs.read_log()
    system_bus.call(session, "org.freedesktop.login1.Session.Lock")
    hs.drop("a.json", json.dumps(samples(2)))
    assert len(gateway.wait_for_samples(2)) == 2, "a text session's lock is not followed under auto"
    hs.stop()

    # on: the same text session is followed (its LockedHint read at start).
    system_bus.call(session, "org.freedesktop.login1.Session.SetLockedHint", "true")
    hs.start(env={"DBUS_SYSTEM_BUS_ADDRESS": system_bus.address, "HEALTHSPOOL_LOCK_FOLLOW_SESSION": "on"})
    assert wait_until(lambda: holders(hs) == ["session"]), hs.read_log()
    hs.stop()

    hs.start(env={"DBUS_SYSTEM_BUS_ADDRESS": system_bus.address, "HEALTHSPOOL_LOCK_FOLLOW_SESSION": "off"})
    hs.drop("b.json", json.dumps(samples(2, start=50)))
    assert len(gateway.wait_for_samples(4)) == 4
    assert "session:     lock not followed (lock.follow_session = off)" in hs.run("status", check=False).stdout
