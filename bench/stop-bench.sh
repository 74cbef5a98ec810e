#!/bin/bash
# The daemon under load (issue 14): SIGTERM → exit during a ~1 GB Apple Health import and during
# a sync to a slow and to a hung gateway, and the largest gap between watchdog keep-alives.
#
#   bench/stop-bench.sh                        # 1 GB export, generated under $BENCH_DIR if missing
#   SIZE_MB=250 WATCHDOG_USEC=4000000 bench/stop-bench.sh
#
# Environment: SIZE_MB (1000), BENCH_DIR (/tmp/hs-bench), HEALTHSPOOL_BIN (the release build,
# built when missing), WATCHDOG_USEC (30000000, the unit's WatchdogSec=30), IMPORT_SECONDS (5:
# import time before the first SIGTERM), SYNC_SECONDS (20: sync time before the gateway turns
# slow), DELAY (3: how late the slow gateway answers), STOP_BENCH_SMOKE (1: bench/smoke.sh's tiny run, where
# nothing is in flight at a stop). Prints a JSON report (figures in
# BENCHMARKS.md, "The daemon under load").
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
SIZE_MB=${SIZE_MB:-1000}
BENCH_DIR=${BENCH_DIR:-/tmp/hs-bench}
DAYS=$(python3 -c "print(max(1, round($SIZE_MB * 1e6 / 0.9e6)))")
BASE="$BENCH_DIR/$SIZE_MB"
[ -f "$BASE/export.zip" ] || python3 "$ROOT/bench/generate-export.py" --days "$DAYS" --out "$BASE" >&2
if [ -z "${HEALTHSPOOL_BIN:-}" ]; then
    (cd "$ROOT" && swift build -c release >&2)
    HEALTHSPOOL_BIN="$ROOT/.build/release/healthspool"
fi
export HEALTHSPOOL_BIN
exec python3 "$ROOT/bench/stop_bench.py" "$BASE/export.zip"
