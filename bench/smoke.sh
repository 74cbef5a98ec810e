#!/usr/bin/env bash
# Every benchmark in its smoke mode: tiny sizes, a few seconds each, so a benchmark that rots
# (a schema change, a renamed option, a moved helper) fails `make test` instead of the next
# measurement. The figures mean nothing at these sizes; a script's exit status is what counts.
#
#   bench/smoke.sh [BINARY]        # BINARY defaults to $HEALTHSPOOL_BIN, then .build-release/release/healthspool
#   bench/smoke.sh BINARY NAME…    # only the benchmarks named (see `smoke_*` below)
#
# The parts that want a release scratch folder use what `make build` (the release build, with the
# tests) left: the binary and the test bundle (the parse-only harness, ParseBenchmark). Runs the benchmarks one after the other (they are small; most wait on a
# daemon); each log is in $LOGS (default .build-test/bench), and the summary says which failed.
# Needs what the benchmarks need: scripts/setup-deps.sh --test, plus nginx for gateway-bench.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BIN=$(realpath "${1:-${HEALTHSPOOL_BIN:-.build-release/release/healthspool}}")
[ $# -gt 0 ] && shift
[ -x "$BIN" ] || { echo "bench smoke: no binary at $BIN (make build)" >&2; exit 1; }
TESTS="$(dirname "$BIN")/healthspoolPackageTests.xctest"
LOGS=${LOGS:-$ROOT/.build-test/bench}
mkdir -p "$LOGS"
WORK=$(mktemp -d /tmp/healthspool-bench-smoke.XXXXXX)
chmod 0755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
export HEALTHSPOOL_BIN="$BIN"

# A scratch folder as bench/import-bench.sh expects it, made of that build's files.
SCRATCH="$WORK/scratch"
mkdir -p "$SCRATCH/release"
ln -s "$BIN" "$SCRATCH/release/healthspool"
[ -e "$TESTS" ] && ln -s "$TESTS" "$SCRATCH/release/healthspoolPackageTests.xctest"

# Two tiny exports (2 and 3 days), made once: the base and its "+1 %" successor.
exports() {
    [ -f "$WORK/hs-bench/1/export.zip" ] && return
    python3 bench/generate-export.py --days 2 --out "$WORK/hs-bench/1" >/dev/null &&
        python3 bench/generate-export.py --days 3 --out "$WORK/hs-bench/1plus" >/dev/null
}

smoke_import() { exports && SIZE_MB=1 BENCH_DIR="$WORK/hs-bench" SKIP_BUILD=1 SCRATCH="$SCRATCH" SKIP_H2S=1 bench/import-bench.sh; }
smoke_paired_import() { exports && A="$SCRATCH" B="$SCRATCH" ROUNDS=1 EXPORT_DIR="$WORK/hs-bench/1" bench/paired-import.sh; }
smoke_zip_import() { exports && ROUNDS=1 bench/zip-import-bench.sh "$WORK/hs-bench/1/export.zip" "$BIN"; }
smoke_rollup_import() { exports && bench/rollup-import-bench.sh "$BIN" "$BIN" 1 "$WORK/hs-bench/1" "$WORK/hs-bench/1plus"; }
smoke_insert_floor() { exports && bench/insert-floor.sh "$BIN" "$WORK/hs-bench/1/export.zip"; }
smoke_journal() { bench/journal-bench.sh "$BIN" 2400 2; }
smoke_views() { KEEP="$WORK/views" bench/views-bench.sh "$BIN" 3 -- --runs 2 --requests 2 --rss-rounds 1 --settle 0.5; }
smoke_scrape() { SETTLE_SECONDS=0.5 bench/scrape-bench.sh "$BIN" "$WORK/views" 3; }
smoke_report_year() {
    python3 bench/report_year.py "$BIN" "$WORK/report-year" 3 &&
        env HOME="$WORK/report-year" XDG_RUNTIME_DIR="$WORK/report-year/run" TZ=Europe/Berlin HEALTHSPOOL_SYSTEM_CONFIG=/nonexistent \
            "$BIN" report --from 2025-11-26 --to 2025-11-28 --out "$WORK/report-year/year.html" && [ -s "$WORK/report-year/year.html" ]
}
smoke_stop() { exports && STOP_BENCH_SMOKE=1 SIZE_MB=1 BENCH_DIR="$WORK/hs-bench" WATCHDOG_USEC=4000000 IMPORT_SECONDS=0.2 SYNC_SECONDS=0.5 DELAY=0.5 bench/stop-bench.sh; }
smoke_retry() { HEALTHSPOOL_SYNC_SPREAD_SECONDS=0 python3 bench/retry-bench.py --samples 600 --every 3; }
smoke_gateway() {   # against nginx where it is installed, else the tests' Python gateway (--receiver python)
    local receiver=(); command -v nginx >/dev/null || { receiver=(--receiver python); echo "no nginx: the Python receiver"; }
    bench/gateway-bench.sh --samples 600 --batches 100 --repeat 1 --keepalive on --gzip on --ceiling-rounds 1 "${receiver[@]}"
}
smoke_delivery_pair() {   # the same binary as A and B, on nginx where it is installed
    local receiver=(); command -v nginx >/dev/null || receiver=(--receiver python)
    python3 bench/delivery-pair.py --a "$BIN" --b "$BIN" --samples 600 --rounds 2 --types 2 --files 2 "${receiver[@]}"
}
# bench/ingest-flood.py --smoke runs in the integration tests (test_ingest.py), as root with its second user.
smoke_fleet() {
    DAEMONS=3 OUT="$WORK/fleet" bench/fleet.sh --setup-allowance 4 --backlog 5 --export-every 2 --journal-every 1 --start-window 2 --steady 3 \
        --throttle 2 --retry-after 1 --after-throttle 2 --outage 2 --midnight-at 16 --after-midnight 3 --workdir "$WORK"
}
smoke_durable_commit() { mkdir -p "$WORK/durable" && python3 bench/durable-commit.py "$WORK/durable" 5; }
smoke_delivered_ids() { python3 bench/delivered-ids.py 2000; }
smoke_parts_import() { BIN="$BIN" BENCH_DIR="$WORK/parts" DAYS=2 ROUTES=2 ECGS=2 bench/parts-import.sh; }
smoke_layout_import() { SMOKE=1 A="$BIN" B="$BIN" bench/layout-import.sh; }
# bench/deletions-bench.sh runs in its smoke mode in the integration tests (test_deletions.py);
# bench/large-store.sh under views and scrape above.
smoke_native() { python3 bench/generate-native.py --size-mb 0.05 --out "$WORK/native.json" && "$BIN" --version >/dev/null; }

export WORK BIN SCRATCH TESTS
export -f exports $(compgen -A function smoke_)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    names=(import paired_import zip_import rollup_import insert_floor journal views scrape report_year stop retry gateway delivery_pair
           fleet durable_commit delivered_ids native parts_import layout_import)
fi
failed=()
T0=$SECONDS
for n in "${names[@]}"; do
    t=$SECONDS
    if timeout -k 10 600 bash -c "smoke_$n" >"$LOGS/$n.log" 2>&1 </dev/null; then
        printf 'bench smoke %-14s ok      %4d s\n' "$n" $((SECONDS - t))
    else
        printf 'bench smoke %-14s FAILED  %4d s  (%s)\n' "$n" $((SECONDS - t)) "$LOGS/$n.log"
        tail -15 "$LOGS/$n.log" | sed 's/^/    /'
        failed+=("$n")
    fi
done
echo "bench smoke: ${#names[@]} benchmarks in $((SECONDS - T0)) s, ${#failed[@]} failed${failed:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
