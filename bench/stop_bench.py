#!/usr/bin/env python3
"""The daemon under load, on a large Apple Health export: how long a SIGTERM takes to stop it
(SIGTERM → exit) during the import and during a sync to a slow gateway, and the largest gap
between watchdog keep-alives over the whole run. Called by bench/stop-bench.sh.

Phases, one temporary HOME, the real daemon binary, tests/gateway.py as the gateway, a
NOTIFY_SOCKET listener with WATCHDOG_USEC set standing in for systemd:
  1. drop export.zip; SIGTERM after IMPORT_SECONDS of import;
  2. start again: the import resumes (duplicates recognized) and completes, and the sync of its
     samples starts; after SYNC_SECONDS of sync the gateway turns slow (every answer DELAY s
     late) and the daemon gets a SIGTERM with a batch at the gateway;
  3. start again with the gateway hung (answers after 120 s): SIGTERM with a batch in flight;
  4. start again with the gateway well: every sample of the export reaches it, none is left
     queued. The run fails (exit 1) when a stop was not clean or took longer than its bound, or
     a sample was lost.
Settings given as HEALTHSPOOL_* variables in the environment (for example
HEALTHSPOOL_GATEWAY_BACKLOG_BATCH_SIZE=100) reach every daemon the run starts.
"""
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from conftest import Healthspool, wait_until  # noqa: E402
from gateway import Gateway, make_ca  # noqa: E402
from test_daemon_under_load import NotifyListener  # noqa: E402

EXPORT = Path(sys.argv[1])
WATCHDOG_USEC = int(os.environ.get("WATCHDOG_USEC", "30000000"))
IMPORT_SECONDS = float(os.environ.get("IMPORT_SECONDS", "5"))
SYNC_SECONDS = float(os.environ.get("SYNC_SECONDS", "20"))
DELAY = float(os.environ.get("DELAY", "3"))
# bench/smoke.sh: a tiny export is imported and sent whole before a SIGTERM can meet it, so
# the run checks that every phase runs and every stop is clean, not that one met work in flight.
SMOKE = os.environ.get("STOP_BENCH_SMOKE") == "1"


def stop_timed(hs):
    t0 = time.monotonic()
    hs.daemon.send_signal(signal.SIGTERM)
    code = hs.daemon.wait(120)
    hs.daemon = None
    return code, time.monotonic() - t0


def main():
    home = Path(tempfile.mkdtemp(prefix="hs-stop-bench-"))
    certs = make_ca(home / "ca")
    gw = Gateway(certs)
    notify = NotifyListener(home / "notify.sock")
    hs = Healthspool(home)
    env = {"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": str(WATCHDOG_USEC)}
    env.update({k: v for k, v in os.environ.items() if k.startswith("HEALTHSPOOL_") and k != "HEALTHSPOOL_BIN"})
    hs.run("gateway", "set", gw.url, "--ca-file", str(certs["ca"]))
    report = {"export": str(EXPORT), "export_bytes": EXPORT.stat().st_size, "watchdog_sec": WATCHDOG_USEC / 1e6}
    marks = {}
    try:
        # 1. SIGTERM during the import.
        marks["import_start"] = time.monotonic()
        hs.start(env=env)
        data = EXPORT.read_bytes()
        hs.drop("export.zip", data, by_rename=True)
        wait_until(lambda: hs.status()["store"]["samples"] > 0, 120)
        time.sleep(IMPORT_SECONDS)
        marks["import_sigterm"] = time.monotonic()
        code, report["stop_during_import_s"] = stop_timed(hs)
        report["import_stop_exit"] = code
        report["kept_at_import_stop"] = hs.status()["store"]["samples"]
        report["file_still_in_spool"] = (hs.spool / "export.zip").exists()

        # 2. Resume, finish, sync; SIGTERM while a slow gateway holds a batch.
        t0 = marks["resume_start"] = time.monotonic()
        hs.start(env=env)
        wait_until(lambda: not (hs.spool / "export.zip").exists(), 1800, interval=0.5)
        report["resumed_import_s"] = time.monotonic() - t0
        report["samples"] = hs.status()["store"]["samples"]
        marks["sync_start"] = time.monotonic()
        time.sleep(SYNC_SECONDS)
        gw.delay_next(10**6, DELAY)
        time.sleep(DELAY * 1.5)
        marks["sync_end"] = time.monotonic()
        code, report["stop_during_slow_sync_s"] = stop_timed(hs)
        report["slow_sync_stop_exit"] = code
        gw.faults.clear()
        status = hs.status()["store"]
        accepted = len(set(gw.sample_ids()))
        report["accepted_by_gateway"] = accepted
        report["marked_synced"] = status["synced"]
        report["samples_at_slow_sync_stop"] = status["samples"]

        # 3. A hung gateway: the stop gives up on the batch in flight after the grace.
        release = threading.Event()
        hung = []
        gw.faults.append(lambda _r: (hung.append(1), release.wait(120), None)[2])
        hs.start(env=env)
        wait_until(lambda: hung, 5 if SMOKE else 60)
        time.sleep(1)
        code, report["stop_during_hung_sync_s"] = stop_timed(hs)
        report["hung_sync_stop_exit"] = code
        release.set()
        after = hs.status()["store"]
        report["queued_after"], report["synced_after"] = after["queued"], after["synced"]
        # Retention may have pruned synced samples (store.max_mb): they count as synced here.
        report["pruned_by_retention"] = report["samples"] - after["samples"]

        # 4. The gateway well again: everything imported arrives, once or (at-least-once) more.
        gw.faults.clear()
        t0 = time.monotonic()
        hs.start(env=env)
        wait_until(lambda: hs.status()["store"]["queued"] == 0, 1800, interval=1)
        report["final_sync_s"] = time.monotonic() - t0
        ids = gw.sample_ids()
        report["accepted_distinct"], report["accepted_total"] = len(set(ids)), len(ids)
        report["queued_at_end"] = hs.status()["store"]["queued"]
        marks["final_sigterm"] = time.monotonic()
        code, report["final_stop_s"] = stop_timed(hs)
        report["final_stop_exit"] = code
    finally:
        if hs.daemon:
            hs.stop()
        notify.close()
        gw.stop()

    def largest_gap(since, until):
        pings = notify.keepalives(since, until)
        gaps = [b - a for a, b in zip(pings, pings[1:])]
        return (round(max(gaps), 3) if gaps else None), len(pings)
    # Within one daemon's life (a restart is not a missed keep-alive): the interrupted import,
    # the resumed import, then the sync.
    g1, n1 = largest_gap(marks["import_start"], marks["import_sigterm"])
    g2, n2 = largest_gap(marks["resume_start"], marks["sync_start"])
    report["largest_keepalive_gap_import_s"], report["keepalives_import"] = max(g or 0 for g in (g1, g2)), n1 + n2
    report["largest_keepalive_gap_sync_s"], report["keepalives_sync"] = largest_gap(marks["sync_start"], marks["sync_end"])
    for k in ("stop_during_import_s", "stop_during_slow_sync_s", "stop_during_hung_sync_s", "resumed_import_s"):
        report[k] = round(report[k], 3)
    # Bounds: the import and a slow gateway stop within a few seconds; a hung gateway within the
    # stop grace (Daemon.stopGraceSeconds, 10 s) plus a second; every stop exits 0.
    problems = [k for k in ("import_stop_exit", "slow_sync_stop_exit", "hung_sync_stop_exit", "final_stop_exit") if report.get(k) != 0]
    problems += [k for k, bound in (("stop_during_import_s", 3), ("stop_during_slow_sync_s", DELAY + 2), ("stop_during_hung_sync_s", 11),
                                    ("final_stop_s", 3)) if report[k] > bound]
    if not report.get("file_still_in_spool") and not SMOKE:
        problems.append("file_still_in_spool")
    # Every sample stored reached the gateway (retention prunes only synced samples, so the
    # count after the import is the floor) and none is left in line.
    if report.get("accepted_distinct", 0) < report["samples"] or report.get("queued_at_end") != 0:
        problems.append("lost: accepted_distinct < samples or queued_at_end != 0")
    report["verdict"] = "ok" if not problems else "FAILED: " + ", ".join(problems)
    report["final_stop_s"] = round(report["final_stop_s"], 3)
    print(json.dumps(report, indent=1))
    print(hs.read_log()[-3000:], file=sys.stderr)
    shutil.rmtree(home, ignore_errors=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
