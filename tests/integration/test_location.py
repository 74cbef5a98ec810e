"""The location keep-alive log against a real gpsd: gpsfake (Debian gpsd-clients) runs gpsd on a
free port and replays an NMEA log; the daemon, with a short interval, records one fix per
interval, keeps running while gpsd is stopped, and records again once gpsd is back."""
from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import time
from datetime import datetime, timedelta, timezone

import pytest
from conftest import free_port, wait_until
from test_web_isolation import as_other, other_user  # noqa: F401  (other_user is a fixture)

pytestmark = pytest.mark.skipif(shutil.which("gpsfake") is None, reason="gpsfake missing: scripts/setup-deps.sh --test")

INTERVAL = 2


def nmea(body: str) -> str:
    checksum = 0
    for c in body:
        checksum ^= ord(c)
    return f"${body}*{checksum:02X}\r\n"


def nmea_log(path, seconds: int = 120):
    """A fix each second near Berlin's Brandenburg Gate: GGA (3D position) and RMC."""
    lines = []
    t0 = datetime(2026, 3, 28, 10, 0, 0, tzinfo=timezone.utc)
    for i in range(seconds):
        t = (t0 + timedelta(seconds=i)).strftime("%H%M%S.00")
        lat, lon = "5230.9600", "01322.6620"
        lines.append(nmea(f"GPGGA,{t},{lat},N,{lon},E,1,08,0.9,34.0,M,46.9,M,,"))
        lines.append(nmea(f"GPRMC,{t},A,{lat},N,{lon},E,0.0,0.0,280326,,,A"))
    path.write_text("".join(lines))
    return path


def start_gpsfake(log, port: int) -> subprocess.Popen:
    p = subprocess.Popen(["gpsfake", "-q", "-n", "-c", "0.2", "-P", str(port), str(log)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    def listening():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            return False
    assert wait_until(listening, 15), "gpsfake did not start gpsd"
    return p


def stop_gpsfake(p: subprocess.Popen):
    import os, signal
    os.killpg(p.pid, signal.SIGTERM)
    p.wait(timeout=10)


def fixes(hs) -> list[tuple[int, float, dict]]:
    db = sqlite3.connect(hs.state / "healthspool.db")
    try:
        rows = db.execute("SELECT s.start_ms, s.value, s.metadata FROM samples s JOIN types t ON t.id = s.type "
                          "WHERE t.name = 'location' ORDER BY s.start_ms").fetchall()
    finally:
        db.close()
    return [(r[0], r[1], json.loads(r[2])) for r in rows]


def test_one_fix_per_interval_and_recovery_after_gpsd_restarts(hs, tmp_path):
    log = nmea_log(tmp_path / "walk.nmea")
    port = free_port()
    gps = start_gpsfake(log, port)
    env = {"HEALTHSPOOL_LOCATION_ENABLED": "true", "HEALTHSPOOL_LOCATION_INTERVAL_SECONDS": str(INTERVAL),
           "HEALTHSPOOL_LOCATION_RETRY_SECONDS": "1", "HEALTHSPOOL_LOCATION_GPSD": f"127.0.0.1:{port}"}
    try:
        hs.start(env=env)
        assert wait_until(lambda: len(fixes(hs)) >= 4, 30), hs.read_log()
        got = fixes(hs)
        ms, lat, meta = got[0]
        assert abs(lat - 52.516) < 0.001 and abs(float(meta["longitude"]) - 13.3777) < 0.001
        assert meta["mode"] == "3" and float(meta["altitude"]) > 0
        gaps = [b[0] - a[0] for a, b in zip(got, got[1:])]
        # One fix per interval: never two in one interval, and none skipped while gpsd answers. The
        # first waited for gpsd's first report after it opened the device, so its gap is shorter.
        assert all(g >= 500 for g in gaps), gaps
        assert all(abs(g - INTERVAL * 1000) <= 500 for g in gaps[1:]), gaps
        status = json.loads(hs.run("status", "--json", env=env).stdout)
        assert status["location"]["enabled"] and status["location"]["lastFix"]["latitude"].startswith("52.51")
        assert "location:    last fix 52.51" in hs.run("status", env=env).stdout

        # gpsd goes away: the daemon keeps running and records nothing.
        stop_gpsfake(gps)
        time.sleep(0.5)
        before = len(fixes(hs))
        time.sleep(3 * INTERVAL)
        assert len(fixes(hs)) <= before + 1
        assert hs.daemon.poll() is None
        # gpsd is back on the same port: positions again.
        gps = start_gpsfake(log, port)
        n = len(fixes(hs))
        assert wait_until(lambda: len(fixes(hs)) >= n + 2, 30), hs.read_log()
        assert hs.daemon.poll() is None
        assert "answers again" in hs.read_log() or "gpsd" in hs.read_log()
    finally:
        hs.stop()
        if gps.poll() is None:
            stop_gpsfake(gps)


def test_off_by_default_no_position_is_recorded(hs, tmp_path):
    log = nmea_log(tmp_path / "walk.nmea", seconds=30)
    port = free_port()
    gps = start_gpsfake(log, port)
    try:
        hs.start(env={"HEALTHSPOOL_LOCATION_GPSD": f"127.0.0.1:{port}", "HEALTHSPOOL_LOCATION_INTERVAL_SECONDS": "1"})
        time.sleep(3)
        assert fixes(hs) == []
        assert json.loads(hs.run("status", "--json").stdout)["location"] == {"enabled": False, "gpsd": "127.0.0.1:2947", "lastFix": None}
        assert "location log" not in hs.read_log()
    finally:
        hs.stop()
        stop_gpsfake(gps)


FAKE_GPSD = """
import json, socket, sys, threading, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", {port}))
s.listen()
print("listening", flush=True)
def serve(c):
    try:
        c.sendall(b'{{"class":"VERSION","release":"3.22"}}\\n')
        c.recv(1024)
        for _ in range(40):
            c.sendall(json.dumps({{"class": "TPV", "mode": 3, "lat": 48.8584, "lon": 2.2945, "alt": 35.0,
                                   "time": "2026-03-28T10:00:00.000Z"}}).encode() + b"\\n")
            time.sleep(0.25)
    except OSError:
        pass
    c.close()
deadline = time.time() + 40
s.settimeout(1)
while time.time() < deadline:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    threading.Thread(target=serve, args=(c,), daemon=True).start()
"""


def test_a_gpsd_another_user_started_is_refused_and_the_persons_own_is_taken(hs, other_user):
    """Issue 39: anything on the machine can listen on gpsd's port and feed positions. A fake
    gpsd of another user is refused with a plain line; the same program run by the person (or
    root, systemd's gpsd.socket) is taken."""
    import textwrap
    port = free_port()
    env = {"HEALTHSPOOL_LOCATION_ENABLED": "true", "HEALTHSPOOL_LOCATION_INTERVAL_SECONDS": "1",
           "HEALTHSPOOL_LOCATION_RETRY_SECONDS": "1", "HEALTHSPOOL_LOCATION_GPSD": f"127.0.0.1:{port}"}
    fake = as_other(other_user, FAKE_GPSD.format(port=port))
    try:
        assert fake.stdout.readline().startswith("listening"), fake.stderr.read()
        hs.start(env=env)
        assert wait_until(lambda: "not by the system's gpsd or you" in hs.read_log(), 20), hs.read_log()
        time.sleep(2)
        assert fixes(hs) == []
        assert f"user '{other_user.pw_name}'" in hs.read_log()
    finally:
        fake.kill()
        fake.wait()
    own = subprocess.Popen(["python3", "-c", textwrap.dedent(FAKE_GPSD.format(port=port))], stdout=subprocess.PIPE, text=True)
    try:
        assert own.stdout.readline().startswith("listening")
        assert wait_until(lambda: len(fixes(hs)) >= 1, 20), hs.read_log()
        assert abs(fixes(hs)[0][1] - 48.8584) < 0.001
    finally:
        own.kill()
        own.wait()
        hs.stop()
