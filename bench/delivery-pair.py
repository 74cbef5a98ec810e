#!/usr/bin/env python3
"""Delivery paired between two healthspool binaries (issue 44: "delivery to the test gateway not
lower than today's"): samples a second and CPU a sample of `healthspool sync`, A and B in turn on
fresh copies of stores that each binary filled itself from the same samples.

    bench/delivery-pair.py --a BEFORE/healthspool --b AFTER/healthspool [--samples 100000] [--rounds 6]
        [--types 1] [--files 1] [--receiver nginx|python] [--set gateway.batch_size=500 …] [--b-sql FILE]

The receiver is nginx answering 200 to every POST (bench/gateway_bench.py's, one worker, TLS), or
with --receiver python the integration tests' gateway (tests/gateway.py, which parses and keeps
every batch: it is the bottleneck there, so CPU a sample is the sender's figure to read). --types
spreads the samples over that many types, --files imports them in that many files (a queue in
many runs: a type's rows of one file are one run). Rounds alternate the order (A then B, B then
A). Per run: the sync's own time (its jobs' longest `durationMs`: first read to last batch
recorded), the process's wall time, and its CPU (user + system of the reaped child). Prints each run and
a Markdown table of medians. --b-sql runs a file of SQL on B's filled store before the rounds (a
trigger as another build would create it: the same binary, only the store's SQL changed).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gateway_bench import Nginx, PythonGateway, make_ca  # noqa: E402

TYPES = [("heartRate", "count/min"), ("respiratoryRate", "count/min"), ("restingHeartRate", "count/min"),
         ("walkingHeartRateAverage", "count/min")]


def sample_files(n: int, types: int, files: int, out: Path) -> list[Path]:
    """n samples over `types` types, every 5 s from 2026-01-01, written as `files` NDJSON files
    (consecutive stretches of time, each holding every type)."""
    paths, per = [], -(-n // files)
    for f in range(files):
        lines = []
        for i in range(f * per, min(n, (f + 1) * per)):
            t, unit = TYPES[i % types]
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_767_225_600 + i * 5))
            lines.append(json.dumps({"type": t, "value": 55 + i % 60, "unit": unit, "startDate": stamp,
                                     "source": {"name": "Polar H10", "version": "3.1", "device": "strap"},
                                     "metadata": {"context": "bench"}}))
        p = out / f"samples-{f}.ndjson"
        p.write_text("\n".join(lines))
        paths.append(p)
    return paths


class Binary:
    """One binary with its own HOME, configured for the receiver, and the store it filled."""

    def __init__(self, name: str, path: str, work: Path, url: str, ca: Path, files: list[Path], sql: str | None = None):
        self.name, self.path = name, path
        self.home = work / name
        (self.home / "run").mkdir(parents=True)
        os.chmod(self.home / "run", 0o700)
        self.env = {"HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.home / "run"), "PATH": os.environ["PATH"],
                    "HEALTHSPOOL_SYSTEM_CONFIG": str(work / "none.conf"), "HEALTHSPOOL_USER_ID": "bench",
                    "HEALTHSPOOL_DEVICE_ID": "00000000-0000-8000-8000-000000000000"}
        self.run("gateway", "set", url, "--ca-file", str(ca), "--no-test")
        for f in files:
            self.run("import", "--no-progress", str(f))
        self.db = self.home / ".local" / "state" / "healthspool" / "healthspool.db"
        if sql:
            subprocess.run(["sqlite3", str(self.db)], input=sql, text=True, check=True, capture_output=True)
        subprocess.run(["sqlite3", str(self.db), "PRAGMA wal_checkpoint(TRUNCATE);"], check=True, capture_output=True)
        self.template = work / f"{name}.db"
        shutil.copy(self.db, self.template)

    def run(self, *args) -> subprocess.CompletedProcess:
        p = subprocess.run([self.path, *args], env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"{self.name}: healthspool {' '.join(args)}: {p.stdout}\n{p.stderr}")
        return p

    def sync(self, settings: list[str]) -> dict:
        """One sync of the whole queue on a fresh copy of the filled store."""
        for suffix in ("-wal", "-shm"):
            Path(str(self.db) + suffix).unlink(missing_ok=True)
        shutil.copy(self.template, self.db)
        args = [self.path, "sync", "--json"] + [x for s in settings for x in ("--set", s)]
        t0 = time.perf_counter()
        p = subprocess.Popen(args, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = p.communicate()
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise SystemExit(f"{self.name}: sync exited {p.returncode}: {out}\n{err}")
        report = json.loads(out)
        return {"report": report, "wall": wall}


def timed_sync(b: Binary, settings: list[str]) -> dict:
    """`b.sync` with the child's CPU: user + system of the children reaped meanwhile."""
    before = os.times()
    r = b.sync(settings)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    report = r["report"]
    sent = report["sent"]
    job = max(j["durationMs"] for j in report["results"]) / 1000
    return {"sent": sent, "job": job, "wall": r["wall"], "cpu": cpu}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="the binary before")
    ap.add_argument("--b", required=True, help="the binary after")
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--types", type=int, default=1, choices=range(1, len(TYPES) + 1))
    ap.add_argument("--files", type=int, default=1)
    ap.add_argument("--receiver", choices=["nginx", "python"], default="nginx")
    ap.add_argument("--set", action="append", default=[], help="a setting for `sync --set`, e.g. gateway.batch_size=500")
    ap.add_argument("--b-sql", help="a file of SQL run on B's store after its import")
    a = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="hs-delivery-pair-"))
    try:
        certs = make_ca(work / "certs")
        receiver = Nginx(work, certs) if a.receiver == "nginx" else PythonGateway(work)
        ca = certs["ca"] if a.receiver == "nginx" else receiver.ca
        try:
            files = sample_files(a.samples, a.types, a.files, work)
            bins = [Binary("A", a.a, work, receiver.url, ca, files), Binary("B", a.b, work, receiver.url, ca, files,
                                                                        Path(a.b_sql).read_text() if a.b_sql else None)]
            runs = {"A": [], "B": []}
            print(f"{a.samples} samples, {a.types} type(s), {a.files} file(s), receiver {a.receiver}, settings {a.set or 'defaults'}",
                  file=sys.stderr)
            for r in range(a.rounds):
                order = bins if r % 2 == 0 else bins[::-1]
                load = Path("/proc/loadavg").read_text().split()[:3]
                for b in order:
                    x = timed_sync(b, a.set)
                    assert x["sent"] == a.samples, f"{b.name} sent {x['sent']} of {a.samples}"
                    runs[b.name].append(x)
                    print(f"round {r + 1} {b.name}: job {x['job']:.2f} s ({a.samples / x['job']:,.0f} samples/s), "
                          f"process {x['wall']:.2f} s wall, {x['cpu']:.2f} s CPU ({1e6 * x['cpu'] / a.samples:.1f} µs a sample); "
                          f"load {' '.join(load)}", file=sys.stderr, flush=True)
        finally:
            receiver.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def med(name, key):
        return statistics.median(x[key] for x in runs[name])
    print(f"{a.samples} samples, {a.types} type(s) in {a.files} file(s), receiver {a.receiver}, {a.rounds} rounds "
          f"(order alternating), medians; settings {a.set or 'defaults'}")
    print()
    print("| | samples/s (the sync's own time) | samples/s (whole process) | CPU a sample (user + sys) |")
    print("|---|---:|---:|---:|")
    for name in ("A", "B"):
        print(f"| {name} | {a.samples / med(name, 'job'):,.0f} | {a.samples / med(name, 'wall'):,.0f} | "
              f"{1e6 * med(name, 'cpu') / a.samples:.1f} µs |")
    ratios = sorted(x["cpu"] / y["cpu"] for x, y in zip(runs["B"], runs["A"]))
    rates = sorted(y["job"] / x["job"] for x, y in zip(runs["B"], runs["A"]))
    print(f"| B / A, paired by round (median; range) | {statistics.median(rates):.2f} ({rates[0]:.2f}–{rates[-1]:.2f}) | | "
          f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}–{ratios[-1]:.2f}) |")


if __name__ == "__main__":
    main()
