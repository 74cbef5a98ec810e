#!/usr/bin/env python3
"""Delivery time of ~80k samples with one connection reset in seven requests, against the same
delivery without faults (issue 14: the backoff must reset while a job makes progress; target:
within 2x). The real daemon and the real TLS test gateway (tests/gateway.py), default retry
settings (retry.base_seconds 1, retry.max_seconds 300).

    HEALTHSPOOL_BIN=.build/debug/healthspool python3 bench/retry-bench.py [--samples 82000] [--every 7]

HEALTHSPOOL_* settings in the environment reach the daemon (HEALTHSPOOL_SYNC_SPREAD_SECONDS=0: no
start-up spread, as bench/smoke.sh runs it).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from gateway import Gateway, make_ca  # noqa: E402

BIN = os.environ.get("HEALTHSPOOL_BIN", str(ROOT / ".build" / "debug" / "healthspool"))
TYPES = [("heartRate", "count/min"), ("respiratoryRate", "count/min"), ("restingHeartRate", "count/min"),
         ("walkingHeartRateAverage", "count/min")]


def reset_every(n: int):
    """A fault that resets the connection (RST) on every n-th POST."""
    count = [0]
    lock = threading.Lock()

    def fault(_request):
        with lock:
            count[0] += 1
            return (0, {}, b"") if count[0] % n == 0 else None
    return fault


def run(total: int, every: int | None) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "run").mkdir(mode=0o700)
        env = {"HOME": str(home), "XDG_RUNTIME_DIR": str(home / "run"), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "HEALTHSPOOL_SYSTEM_CONFIG": str(home / "none.conf")}
        # Settings given as HEALTHSPOOL_* variables reach the daemon (bench/smoke.sh: no start-up spread).
        env.update({k: v for k, v in os.environ.items() if k.startswith("HEALTHSPOOL_") and k != "HEALTHSPOOL_BIN"})
        certs = make_ca(home / "ca")
        g = Gateway(certs)
        try:
            rows = []
            for i in range(total):
                t, unit = TYPES[i % len(TYPES)]
                n = i // len(TYPES)
                at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_735_689_600 + n * 60))
                rows.append(json.dumps({"type": t, "value": 40 + n % 80, "unit": unit, "source": "bench", "startDate": at}))
            (home / "bench.ndjson").write_text("\n".join(rows))
            imported = subprocess.run([BIN, "import", "--no-progress", str(home / "bench.ndjson")], env=env, capture_output=True, text=True)
            if imported.returncode != 0:
                raise SystemExit(f"import failed:\n{imported.stdout[-2000:]}\n{imported.stderr[-2000:]}")
            subprocess.run([BIN, "gateway", "set", g.url, "--ca-file", str(certs["ca"]), "--no-test"], env=env, check=True,
                           capture_output=True)
            if every:
                g.faults.append(reset_every(every))
            start = time.time()
            daemon = subprocess.Popen([BIN, "daemon"], env=env, stdout=open(home / "daemon.log", "w"), stderr=subprocess.STDOUT)
            try:
                while len(set(g.sample_ids())) < total:
                    if time.time() - start > 1800 or daemon.poll() is not None:
                        raise SystemExit(f"gave up: {len(set(g.sample_ids()))} of {total}\n" + (home / "daemon.log").read_text()[-3000:])
                    time.sleep(0.1)
                elapsed = time.time() - start
            finally:
                daemon.send_signal(signal.SIGTERM)
                daemon.wait(30)
            resets = sum(1 for r in g.requests if r["status"] == 0)
            return elapsed, len(g.requests), resets
        finally:
            g.stop()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--samples", type=int, default=82_000)
    p.add_argument("--every", type=int, default=7)
    a = p.parse_args()
    clean, clean_requests, _ = run(a.samples, None)
    print(f"fault-free: {a.samples} samples in {clean:.1f} s ({clean_requests} requests)", flush=True)
    faulty, requests, resets = run(a.samples, a.every)
    print(f"one reset in {a.every} requests: {a.samples} samples in {faulty:.1f} s ({requests} requests, {resets} resets)")
    print(f"ratio: {faulty / clean:.2f}x (target: within 2x)")


if __name__ == "__main__":
    main()
