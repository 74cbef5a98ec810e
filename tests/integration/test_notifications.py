"""Desktop notifications (issue 16): healthspool notify-test against a real private session
bus (dbus-daemon) with python3-dbusmock's notification_daemon template as the notification
service. The mock records every Notify call (org.freedesktop.DBus.Mock.GetCalls)."""
from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from conftest import BIN, bus_has, wait_until

SYSTEM_PYTHON = "/usr/bin/python3"  # python3-dbusmock is a Debian package


def gdbus(address: str, dest: str, path: str, method: str, *args: str) -> str:
    p = subprocess.run(["gdbus", "call", "--address", address, "--dest", dest, "--object-path", path,
                        "--timeout", "5", "--method", method, "--", *args], capture_output=True, text=True, timeout=15)
    assert p.returncode == 0, p.stderr
    return p.stdout


class SessionBus:
    """dbus-daemon on a socket in a temporary directory, and the notification daemon mock on it."""

    def __init__(self, directory: Path):
        self.socket = directory / "bus"
        self.address = f"unix:path={self.socket}"
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={self.address}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The socket's file appears at bind(), before dbus-daemon listens: wait for an answer.
        assert wait_until(lambda: bus_has(self.address, "org.freedesktop.DBus"), 10), "dbus-daemon did not start"
        self.mock = subprocess.Popen([SYSTEM_PYTHON, "-m", "dbusmock", "--template", "notification_daemon"],
                                     env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": self.address},
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(lambda: bus_has(self.address, "org.freedesktop.Notifications"), 15), \
            "dbusmock did not take org.freedesktop.Notifications"

    def notify_calls(self) -> str:
        return gdbus(self.address, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                     "org.freedesktop.DBus.Mock.GetCalls")

    def emit_action(self, notification_id: int, key: str):
        gdbus(self.address, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
              "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "ActionInvoked", "us",
              f"[<uint32 {notification_id}>, <'{key}'>]")

    def stop(self):
        for p in (self.mock, self.bus):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


@pytest.fixture
def session_bus(tmp_path):
    if not Path(SYSTEM_PYTHON).exists() or subprocess.run([SYSTEM_PYTHON, "-c", "import dbusmock"]).returncode != 0:
        pytest.fail("python3-dbusmock is not installed: scripts/setup-deps.sh --test")
    bus = SessionBus(tmp_path)
    yield bus
    bus.stop()


def test_notify_test_posts_the_reminder_with_summary_body_actions_and_hints(hs, session_bus):
    p = hs.run("notify-test", "Iron & B12", "--medication", "Ferrous sulfate", "--dose", "200 mg",
               env={"DBUS_SESSION_BUS_ADDRESS": session_bus.address})
    assert re.search(r"^shown: notification \d+$", p.stdout, re.M), p.stdout
    calls = session_bus.notify_calls()
    assert "'Notify'" in calls, calls
    assert "<'healthspool'>, <uint32 0>, <''>, <'Iron & B12'>" in calls, calls
    assert "<'Take Ferrous sulfate (200 mg), due at " in calls, calls
    assert "<['take', 'Taken']>" in calls, calls
    assert "'urgency': <byte 0x01>" in calls and "'desktop-entry': <'healthspool'>" in calls \
        and "'category': <'reminder'>" in calls, calls
    assert calls.rstrip().endswith("<-1>])],)"), calls  # expire_timeout -1
    # The journal entry (stderr outside systemd) names the event and the reminder.
    assert "event=reminder" in p.stderr and "reminder.name=Iron & B12" in p.stderr and "notification.id=" in p.stderr, p.stderr


def test_action_invoked_take_reaches_the_daemon_code_and_logs_the_dose(hs, session_bus):
    proc = subprocess.Popen([BIN, "notify-test", "Morning pills", "--medication", "Ibuprofen", "--wait-action", "--timeout", "20"],
                            env={**hs.env, "DBUS_SESSION_BUS_ADDRESS": session_bus.address},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r"shown: notification (\d+)$", line.strip())
        assert m, line
        session_bus.emit_action(int(m.group(1)) + 7, "take")  # another notification's button: ignored
        session_bus.emit_action(int(m.group(1)), "take")
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (out, err)
    assert out.startswith("action: take (dose of Ibuprofen taken at "), out
    assert "event=dose" in err and "dose.medication=Ibuprofen" in err, err


def test_a_dismissed_notification_is_reported_as_closed(hs, session_bus):
    proc = subprocess.Popen([BIN, "notify-test", "Stretch", "--wait-action", "--timeout", "20"],
                            env={**hs.env, "DBUS_SESSION_BUS_ADDRESS": session_bus.address},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        m = re.match(r"shown: notification (\d+)$", proc.stdout.readline().strip())
        assert m
        gdbus(session_bus.address, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
              "org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "NotificationClosed", "uu",
              f"[<uint32 {m.group(1)}>, <uint32 2>]")
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out == "closed: dismissed\n", (out, err)


def test_without_a_session_bus_it_logs_a_clear_message_and_exits_0(hs, tmp_path):
    start = time.monotonic()
    p = hs.run("notify-test", "--wait-action", env={"DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-such-bus"}, timeout=20)
    assert time.monotonic() - start < 10
    assert "not shown" in p.stdout, p.stdout
    assert f"no D-Bus session bus at unix:path={tmp_path}/no-such-bus" in p.stderr, p.stderr
    assert "event=reminder" in p.stderr and "notification=not shown" in p.stderr, p.stderr


def test_without_a_notification_daemon_it_says_so(hs, tmp_path):
    socket = tmp_path / "bus"
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:path={socket}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: bus_has(f"unix:path={socket}", "org.freedesktop.DBus"), 10)
        p = hs.run("notify-test", env={"DBUS_SESSION_BUS_ADDRESS": f"unix:path={socket}"}, timeout=20)
        assert "no notification daemon on the session bus" in p.stderr, p.stderr
    finally:
        bus.terminate()
        bus.wait(5)
