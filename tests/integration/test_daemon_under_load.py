"""The daemon under load: a SIGTERM stops it in bounded time during an import and during a slow
sync, losing nothing; the systemd watchdog keeps getting its keep-alives while the coordination
queue waits on SQLite. The real daemon binary, real SQLite, the real TLS test gateway, and a
NOTIFY_SOCKET listener standing in for systemd's end of sd_notify.

The import test generates an Apple Health export with bench/generate-export.py (size:
HS_LOAD_EXPORT_MB, 40 MB by default so that the test stays within about a minute on 2 cores;
bench/stop-bench.sh runs the same steps on 1 GB with the release binary)."""
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import BIN, samples, wait_until

ROOT = Path(__file__).resolve().parent.parent.parent
STOP_GRACE_SECONDS = 10  # Daemon.stopGraceSeconds


def set_gateway(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))


def stop_timed(hs) -> tuple[int, float]:
    """SIGTERM → exit: the exit status and the seconds it took."""
    t0 = time.monotonic()
    hs.daemon.send_signal(signal.SIGTERM)
    code = hs.daemon.wait(60)
    elapsed = time.monotonic() - t0
    hs.daemon = None
    return code, elapsed


def store_counts(hs) -> dict:
    return hs.status()["store"]


class NotifyListener:
    """systemd's end of sd_notify: a datagram socket that timestamps every message."""

    def __init__(self, path: Path):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.messages: list[tuple[float, str]] = []
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode(errors="replace")))

    def keepalives(self, since: float = 0, until: float = float("inf")) -> list[float]:
        return [t for t, m in list(self.messages) if "WATCHDOG=1" in m.split("\n") and since <= t <= until]

    def close(self):
        self.running = False
        self.thread.join(2)
        self.sock.close()


@pytest.fixture
def notify(tmp_path):
    listener = NotifyListener(tmp_path / "notify.sock")
    yield listener
    listener.close()


def test_sigterm_during_a_large_import_stops_at_a_batch_boundary_and_the_next_start_finishes_it(hs, tmp_path):
    size_mb = float(os.environ.get("HS_LOAD_EXPORT_MB", "40"))
    out = tmp_path / "export"
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate-export.py"), "--size-mb", str(size_mb), "--out", str(out)],
                   check=True, capture_output=True)
    hs.start()
    hs.drop("export.zip", (out / "export.zip").read_bytes(), by_rename=True)
    # Under way: samples committed, the file still being read.
    assert wait_until(lambda: store_counts(hs)["samples"] > 0, 60), hs.read_log()
    assert (hs.spool / "export.zip").exists(), "the import finished before the stop: make HS_LOAD_EXPORT_MB larger"

    code, elapsed = stop_timed(hs)
    assert code == 0, hs.read_log()
    assert elapsed < 3, f"stop took {elapsed:.2f} s during an import"
    assert (hs.spool / "export.zip").exists(), "the interrupted file stays in the spool"
    assert not list((hs.spool / "failed").glob("*")) if (hs.spool / "failed").exists() else True
    kept = store_counts(hs)["samples"]
    assert kept > 0
    assert "interrupted by the stop" in hs.read_log()

    # The next start imports it again: the committed part is recognized, nothing stored twice.
    hs.start()
    assert wait_until(lambda: not (hs.spool / "export.zip").exists(), 300), hs.read_log()
    total = store_counts(hs)["samples"]
    assert total > kept
    line = [ln for ln in hs.read_log().splitlines() if "imported export.zip:" in ln][-1]
    found = re.search(r"imported export\.zip: (\d+) new, (\d+) duplicate", line)
    new, duplicates = int(found.group(1)), int(found.group(2))
    # Every sample kept at the stop comes back as a duplicate (the export also repeats some of
    # its own records: blood-pressure parts appear inside and outside their correlation).
    assert new == total - kept and duplicates >= kept, line
    assert hs.stop() == 0


def test_a_sigterm_sent_while_the_daemon_is_still_starting_is_a_clean_stop(hs):
    """A stop sent the moment the daemon's process exists (before it read its configuration,
    opened the store and listened for signals: up to a second on a busy machine) ended it by the
    signal's default action (status 143, no "stopped" line). It now holds the stop signals from
    its first instruction until its service group collects them. The test sends SIGTERM as soon as
    /proc shows SIGTERM held (so before the group listens, on any machine but a very fast one)."""
    hs.started_with.append(dict(hs.env))
    hs.daemon = subprocess.Popen([BIN, "daemon"], env=hs.env, stdout=open(hs.log, "a"), stderr=subprocess.STDOUT)

    def holds_sigterm() -> bool:
        try:
            text = Path(f"/proc/{hs.daemon.pid}/status").read_text()
        except FileNotFoundError:
            return False
        m = re.search(r"^SigBlk:\s*([0-9a-f]+)", text, re.M)
        return bool(m and int(m.group(1), 16) & (1 << (signal.SIGTERM - 1)))
    assert wait_until(holds_sigterm, 30, 0.001), "the daemon never held SIGTERM"
    code, _ = stop_timed(hs)
    assert code == 0, (code, hs.read_log())
    assert "stopped in" in hs.read_log(), hs.read_log()


def test_sigterm_during_a_slow_sync_stops_within_the_grace_and_loses_nothing(hs, gateway):
    set_gateway(hs, gateway)
    release = threading.Event()
    seen = []

    def hang_the_fourth(_request):
        # The first three batches are answered at once, the fourth hangs (a gateway gone slow).
        seen.append(1)
        if len(seen) == 4:
            release.wait(60)
        return None
    gateway.faults.append(hang_the_fourth)
    try:
        hs.start(env={"HEALTHSPOOL_GATEWAY_BATCH_SIZE": "100", "HEALTHSPOOL_GATEWAY_BACKLOG_BATCH_SIZE": "100"})
        hs.drop("a.json", json.dumps(samples(1000)))
        gateway.wait_for_samples(300)
        assert wait_until(lambda: len(seen) >= 4, 20)
        time.sleep(0.3)
        code, elapsed = stop_timed(hs)
        assert code == 0, hs.read_log()
        assert elapsed < STOP_GRACE_SECONDS + 3, f"stop took {elapsed:.2f} s with a batch hanging at the gateway"
        # What the gateway accepted is marked synced; the unanswered batch and the rest stay queued.
        accepted = len(set(gateway.sample_ids()))
        counts = store_counts(hs)
        assert counts["synced"] == accepted == 300, (counts, accepted)
        assert counts["queued"] == 700
    finally:
        release.set()
    gateway.faults.remove(hang_the_fourth)
    hs.start()
    assert wait_until(lambda: len(set(gateway.sample_ids())) == 1000, 60)
    assert wait_until(lambda: store_counts(hs)["queued"] == 0, 20)
    assert hs.stop() == 0


def test_watchdog_keepalives_continue_while_the_coordination_queue_waits_on_sqlite(hs, gateway, notify):
    """Another process holds the store's write lock for 9 s (a second `healthspool import`, a
    backup tool) while a batch is at the gateway. Marking it waits out the 5 s busy timeout on the
    sender's queue; then the coordination queue's own write (recordSync, the sync history) waits
    for the rest. The keep-alives must not: WatchdogSec 8 s, no gap of 4 s or more."""
    watchdog_usec = 8_000_000
    set_gateway(hs, gateway)
    in_flight = threading.Event()

    def answer_late(_request):
        if not in_flight.is_set():
            in_flight.set()
            time.sleep(0.5)
        return None
    gateway.faults.append(answer_late)
    hs.start(env={"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": str(watchdog_usec)})
    t_start = time.monotonic()
    hs.drop("a.json", json.dumps(samples(10)))
    assert in_flight.wait(20), hs.read_log()
    db = sqlite3.connect(str(hs.state / "healthspool.db"), timeout=10, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    time.sleep(9)
    db.execute("ROLLBACK")
    db.close()
    gateway.wait_for_samples(10)
    time.sleep(1.5)
    pings = notify.keepalives(since=t_start)
    assert len(pings) >= 5, notify.messages
    gaps = [b - a for a, b in zip(pings, pings[1:])]
    assert max(gaps) < watchdog_usec / 2e6, f"largest gap between keep-alives {max(gaps):.2f} s: {gaps}"
    assert hs.stop() == 0


def lowest_free_fd(pid: int) -> int:
    """The number the kernel gives the next descriptor: a soft limit at it makes every new one fail.
    The count of open descriptors is not it: a descriptor closed early leaves a gap below the count."""
    used = {int(name) for name in os.listdir(f"/proc/{pid}/fd")}
    return next(n for n in range(len(used) + 1) if n not in used)


def starve_of_descriptors(pid: int) -> None:
    """Lowers the soft limit to the lowest free descriptor, again until no descriptor below it was
    closed in the meantime (the daemon may close one while the limit is being set)."""
    for _ in range(20):
        limit = lowest_free_fd(pid)
        subprocess.run(["prlimit", f"--pid={pid}", f"--nofile={limit}:4096"], check=True)
        time.sleep(0.2)
        if lowest_free_fd(pid) >= limit:
            return
    raise AssertionError("the daemon's descriptors kept changing; it could not be starved")


def soft_nofile(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-files limit in /proc/PID/limits")


def test_keepalives_go_on_while_the_daemon_is_out_of_file_descriptors_and_the_import_resumes(hs, notify):
    """Issue 26: under descriptor exhaustion no WATCHDOG=1 was sent for 80 s (libsystemd's
    sd_notify opens a socket per call, which fails with EMFILE). The daemon's soft limit is
    lowered to its lowest free descriptor, so every new descriptor fails; keep-alives must go on
    (sent on the socket opened at start), the file dropped meanwhile waits, and is imported
    once descriptors are back."""
    if not shutil.which("prlimit"):
        pytest.skip("prlimit (util-linux) is needed to starve the daemon of descriptors")
    watchdog_usec = 2_000_000
    hs.start(env={"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": str(watchdog_usec),
                  "HEALTHSPOOL_SPOOL_RETRY_BASE_SECONDS": "1", "HEALTHSPOOL_SPOOL_RETRY_MAX_SECONDS": "2"})
    pid = hs.daemon.pid
    assert wait_until(lambda: any("READY=1" in m for _, m in notify.messages), 15), notify.messages
    time.sleep(1)
    starved_at = time.monotonic()
    starve_of_descriptors(pid)
    hs.drop("starved.json", json.dumps(samples(5)))
    time.sleep(3 * watchdog_usec / 1e6)   # keep-alives over three watchdog periods at least
    # ...and until the daemon has met the limit on the file dropped: on a busy machine its first
    # try can come after those 6 s, and then it meets no limit at all.
    assert wait_until(lambda: "out of resources" in hs.read_log(), 60), hs.read_log()
    assert hs.daemon.poll() is None, hs.read_log()
    starved_until = time.monotonic()
    subprocess.run(["prlimit", f"--pid={pid}", "--nofile=4096:4096"], check=True)
    pings = notify.keepalives(since=starved_at, until=starved_until)
    assert len(pings) >= 4, f"{len(pings)} keep-alive(s) in {starved_until - starved_at:.1f} s out of descriptors: {notify.messages[-5:]}"
    gaps = [b - a for a, b in zip([starved_at, *pings], [*pings, starved_until])]
    assert max(gaps) < watchdog_usec / 1e6, f"largest gap without a keep-alive {max(gaps):.2f} s: {gaps}"
    # Work resumes: the file that could not be opened is imported.
    assert wait_until(lambda: (hs.spool / "archive" / "starved.json").exists(), 20), hs.read_log()
    assert "out of resources" in hs.read_log()
    assert len(notify.keepalives(since=starved_until)) >= 2
    assert hs.stop() == 0


def test_the_daemon_raises_its_soft_open_file_limit_to_the_hard_one(hs):
    if not shutil.which("prlimit"):
        pytest.skip("prlimit (util-linux) is needed to start the daemon with a low soft limit")
    hs.daemon = subprocess.Popen(["prlimit", "--nofile=256:8192", BIN, "daemon"], env=hs.env,
                                 stdout=open(hs.log, "a"), stderr=subprocess.STDOUT)
    assert wait_until(lambda: (hs.runtime / "healthspool" / "control.sock").exists(), 15), hs.read_log()
    assert soft_nofile(hs.daemon.pid) == 8192
    unit = (ROOT / "etc" / "systemd" / "user" / "healthspool.service").read_text()
    assert re.search(r"^LimitNOFILE=65536$", unit, re.M), "the unit gives the daemon room for descriptors"
