"""The journal scheduler in the real daemon (issue 16): a reminder's Notify reaches the
notification daemon mock on a private session bus at its minute, "Taken" on it logs the dose,
and the day that ended is scored within a minute of midnight. The daemon runs under faketime
(libfaketime) started a few seconds before the reminder or midnight."""
from __future__ import annotations

import datetime
import os
import signal
import json
import re
import shutil
import subprocess

import pytest

from conftest import BIN, wait_until
from test_journal import set_gateway
from test_notifications import session_bus  # noqa: F401  (the fixture)

ZONE = "Europe/Berlin"


# The wall clock only: the daemon's sleeps use the real monotonic clock.
FAKETIME_ENV = {"TZ": ZONE, "FAKETIME_DONT_FAKE_MONOTONIC": "1"}


def faked(hs, start: str, *args, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI with its clock starting at `start` (local time in ZONE)."""
    p = subprocess.run(["faketime", "-f", "@" + start, BIN, *args], env={**hs.env, **FAKETIME_ENV, **(env or {})},
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, f"healthspool {' '.join(args)} at {start} exited {p.returncode}:\n{p.stdout}\n{p.stderr}"
    return p


def start_faked(hs, start: str, env: dict | None = None):
    """The daemon with its clock starting at `start`, so the test waits seconds, not hours.
    `faketime` runs it as a child: it is stopped by the pid in its pid file (`stop_faked`)."""
    hs.daemon = subprocess.Popen(["faketime", "-f", "@" + start, BIN, "daemon"], env={**hs.env, **FAKETIME_ENV, **(env or {})},
                                 stdout=open(hs.log, "a"), stderr=subprocess.STDOUT)
    assert wait_until(lambda: (hs.runtime / "healthspool" / "control.sock").exists(), 15), hs.read_log()


def stop_faked(hs):
    pid_file = hs.runtime / "healthspool" / "daemon.pid"
    pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
    if pid and hs.daemon and hs.daemon.poll() is None:
        os.kill(pid, signal.SIGTERM)
    hs.stop()
    # faketime may return before its child is gone; the next start needs the pid lock free.
    if pid:
        assert wait_until(lambda: not os.path.exists(f"/proc/{pid}") or " Z " in open(f"/proc/{pid}/stat").read(), 30)


@pytest.fixture(autouse=True)
def needs_faketime():
    if shutil.which("faketime") is None:
        pytest.fail("faketime is not installed: scripts/setup-deps.sh --test")
    clear_stale_faketime_state()


def clear_stale_faketime_state():
    """The `faketime` wrapper keeps a named semaphore and shared memory per its own pid in
    /dev/shm and leaves them when it is killed; once that pid comes round again, the wrapper
    fails with "sem_open: File exists" (seen with 523 pairs left on a machine). Those of wrappers
    no longer running are removed."""
    for name in os.listdir("/dev/shm"):
        m = re.fullmatch(r"(?:sem\.faketime_sem_|faketime_shm_)(\d+)", name)
        if m and not os.path.exists(f"/proc/{m.group(1)}"):
            try:
                os.unlink(os.path.join("/dev/shm", name))
            except OSError:
                pass


def tomorrow() -> str:
    return (datetime.date.today() + datetime.timedelta(days=1)).isoformat()


def test_a_reminder_is_notified_at_its_minute_and_taken_logs_the_dose(hs, session_bus):  # noqa: F811
    day = tomorrow()
    faked(hs, f"{day} 07:59:40", "med", "add", "ibuprofen", "--dose", "400 mg")
    rid = json.loads(faked(hs, f"{day} 07:59:40", "remind", "add", "Morning pills", "--times", "08:00", "--med", "ibuprofen",
                           "--json").stdout)["id"]
    try:
        start_faked(hs, f"{day} 07:59:45", env={"DBUS_SESSION_BUS_ADDRESS": session_bus.address})
        assert "'Notify'" not in session_bus.notify_calls()   # not before its time
        assert wait_until(lambda: "'Notify'" in session_bus.notify_calls(), 40), hs.read_log()
        calls = session_bus.notify_calls()
        assert "<'Morning pills'>" in calls and "<'Take ibuprofen (400 mg), due at 08:00'>" in calls, calls
        m = re.search(r"notification\.id=(\d+)", hs.read_log())
        assert m, hs.read_log()
        session_bus.emit_action(int(m.group(1)), "take")
        doses = lambda: json.loads(hs.run("med", "doses", "--all", "--json").stdout)
        assert wait_until(lambda: len(doses()) == 1, 15), hs.read_log()
        d = doses()[0]
        assert d["medication"] == "ibuprofen" and d["reminderId"] == rid, d
        assert d["takenAt"].startswith(f"{day}T08:00:"), d   # the faked clock: pressed at 08:00
        # Fired once: the daemon keeps running past the minute without a second Notify.
        assert session_bus.notify_calls().count("'Notify'") == 1
    finally:
        stop_faked(hs)


def test_the_day_is_scored_within_a_minute_of_midnight(hs, gateway):
    day = tomorrow()
    set_gateway(hs, gateway)
    faked(hs, f"{day} 20:00:00", "symptom", "log", "headache", "--severity", "moderate", "--category", "migraine")
    assert not [s for s in gateway.samples if s["type"] == "symptomScore"]
    try:
        start_faked(hs, f"{day} 23:59:30")
        assert wait_until(lambda: f"scores of {day} stored" in hs.read_log(), 60), hs.read_log()
        headache = lambda: [s for s in gateway.samples if s["type"] == "symptomScore" and s["metadata"]["scope"] == "symptom"
                            and s["metadata"]["name"] == "headache" and s["metadata"]["day"] == day]
        assert wait_until(lambda: headache(), 30), hs.read_log()
        assert headache()[0]["value"] == 2
        assert hs.read_log().count(f"scores of {day} stored") == 1
    finally:
        stop_faked(hs)
    # Started again the next morning: the day is scored already, not again.
    next_day = (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()
    try:
        start_faked(hs, f"{next_day} 09:00:00")
        assert wait_until(lambda: "watching" in hs.read_log(), 10)
    finally:
        stop_faked(hs)
    assert hs.read_log().count(f"scores of {day} stored") == 1
    journal = json.loads(faked(hs, f"{next_day} 09:00:00", "journal", day, "--json").stdout)
    assert journal["complete"] is True
    assert {s["name"]: s["score"] for s in journal["scores"]["symptoms"]} == {"headache": 2}
