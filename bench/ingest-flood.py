#!/usr/bin/env python3
"""The ingest endpoint under another local user's attack (issue 39): how often, and how fast, the
phone's push gets through. Root only: the attacker runs as a second account (hs-other, made as
tests/integration/test_web_isolation.py makes it), loopback only; every phase stops by itself.

Phases, one temporary HOME, the real daemon binary ($HEALTHSPOOL_BIN), the endpoint on a free
loopback port, pushes of a real Health Auto Export payload from 127.0.0.1:
  quiet   a push every PERIOD s, no attack;
  flood   a push every PERIOD s while 127.0.0.2 and 127.0.0.3 each keep 200 connections open
          (a ClientHello each, never finished; every one closed is opened again at once, up
          to 500 a second per address), for SECONDS s;
  slow    a slow push (its ClientHello 1.5 s after the connection) every PERIOD s while
          127.0.0.2-4 each keep 4 connections that send nothing, for SECONDS s.
Each push gives up after 30 s. Prints one JSON report; --markdown also a table for BENCHMARKS.md.

    sudo HEALTHSPOOL_BIN=.build/debug/healthspool python3 bench/ingest-flood.py            # 60 s each
    sudo HEALTHSPOOL_BIN=.build/debug/healthspool python3 bench/ingest-flood.py --smoke    # seconds
"""
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "integration"))
from conftest import Healthspool, wait_until  # noqa: E402
from test_ingest import GOLDEN, Endpoint, attack_as_other, attack_report, metric_values, timed_post  # noqa: E402
from test_web_isolation import make_other_user  # noqa: E402


def pushes(ep, body: bytes, seconds: float, period: float, hello_delay: float = 0.0) -> list:
    results = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        status, took = timed_post(ep, body, 30, hello_delay=hello_delay)
        results.append({"status": status, "seconds": round(took, 3)})
        time.sleep(max(0.0, period - (time.monotonic() - started)))
    return results


def summary(results: list) -> dict:
    ok = [r["seconds"] for r in results if r["status"] == 200]
    return {"pushes": len(results), "ok": len(ok), "success_rate": round(len(ok) / len(results), 3) if results else None,
            "median_s": round(statistics.median(ok), 3) if ok else None, "max_s": round(max(ok), 3) if ok else None,
            "statuses": [r["status"] for r in results]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="tiny: 6 s phases, 20 connections per address")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--period", type=float, default=10)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root: the attacker runs as a second user")
    seconds, period, conns = (6, 2, 20) if args.smoke else (args.seconds, args.period, 200)
    user = make_other_user()
    home = Path(tempfile.mkdtemp(prefix="hs-ingest-flood-"))
    hs = Healthspool(home)
    textfile = home / "metrics.prom"
    hs.env["HEALTHSPOOL_METRICS_TEXTFILE"] = str(textfile)
    ep = Endpoint(hs)
    body = (GOLDEN / "hae-us-minutes.json").read_bytes()
    report = {"seconds": seconds, "period": period, "binary": os.environ.get("HEALTHSPOOL_BIN", ""), "payload_bytes": len(body)}
    try:
        ep.start()
        report["quiet"] = summary(pushes(ep, body, seconds / 2, period))
        attacker = attack_as_other(user, ep.port, ["127.0.0.2", "127.0.0.3"], conns, seconds + 3, "flood")
        time.sleep(2)
        flood = pushes(ep, body, seconds - 2, period)
        report["flood"] = {**summary(flood), "attacker": attack_report(attacker)}
        attacker = attack_as_other(user, ep.port, ["127.0.0.2", "127.0.0.3", "127.0.0.4"], 4, seconds + 3, "slow")
        time.sleep(2)
        slow = pushes(ep, body, seconds - 2, period, hello_delay=1.5)
        report["slow"] = {**summary(slow), "attacker": attack_report(attacker)}
        wait_until(lambda: textfile.exists() and time.time() - textfile.stat().st_mtime < 6, 10)
        time.sleep(6)
        report["refused"] = metric_values(textfile, "healthspool_ingest_connections_refused_total")
        log = hs.read_log()
        report["log_lines"] = len(log.splitlines())
        report["summary_lines"] = log.count("without the token turned away")
    finally:
        hs.stop()
        shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(report, indent=1))
    if args.markdown:
        print("\n| phase | pushes ok | median | max |\n|---|---|---|---|")
        for phase in ("quiet", "flood", "slow"):
            r = report[phase]
            print(f"| {phase} | {r['ok']}/{r['pushes']} | {r['median_s']} s | {r['max_s']} s |")
    failed = [p for p in ("quiet", "flood", "slow") if report[p]["ok"] != report[p]["pushes"]]
    if failed:
        sys.exit(f"pushes failed in: {', '.join(failed)}")


if __name__ == "__main__":
    main()
