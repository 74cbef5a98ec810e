#!/usr/bin/env bash
# Apple Health import benchmark, paired: on the same generated export, in one run,
#   - healthspool import export.zip   (empty store: XDG_STATE_HOME in a fresh temp dir)
#   - the same file again             (re-import of an identical export: should cost ≤ 5 %)
#   - an export with ~1 % new records (next month's cumulative export: should cost ≤ half)
#   - xmllint --stream --noout export.xml   (libxml2's streaming parse, the yardstick)
#   - healthkit-to-sqlite export.zip db     (the usual Python tool)
#   - parse only (no store): the release test harness, HS_BENCH_FILE=…
# Wall time and peak RSS come from /usr/bin/time -v. Figures go to stdout as a Markdown table.
#
#   bench/import-bench.sh                 # 250 MB export (generated under $BENCH_DIR if missing)
#   SIZE_MB=1000 SKIP_H2S=1 bench/import-bench.sh
#   ROUNDS=3 bench/import-bench.sh        # repeat the pairs, report each round
#   MANY_SOURCES=1 bench/import-bench.sh  # generate-export.py --many-sources (device string per record)
#   HS_BEFORE=/tmp/healthspool-before ROUNDS=3 bench/import-bench.sh
#                                         # also a first import by another build, paired in each round
#   SKIP_BUILD=1 SCRATCH=.build bench/import-bench.sh   # use the release build already there
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZE_MB=${SIZE_MB:-250}
ROUNDS=${ROUNDS:-1}
BENCH_DIR=${BENCH_DIR:-/tmp/hs-bench}
SCRATCH=${SCRATCH:-$ROOT/.build-bench}
SKIP_H2S=${SKIP_H2S:-0}
MANY_SOURCES=${MANY_SOURCES:-0}
HS_BEFORE=${HS_BEFORE:-}
SKIP_BUILD=${SKIP_BUILD:-0}

if [ "$MANY_SOURCES" = 1 ]; then
    GEN_FLAGS=(--many-sources); BYTES_PER_DAY=1.34e6; PREFIX=many
else
    GEN_FLAGS=(); BYTES_PER_DAY=0.9e6; PREFIX=
fi
DAYS=$(python3 -c "print(max(1, round($SIZE_MB * 1e6 / $BYTES_PER_DAY)))")
PLUS_DAYS=$(python3 -c "print(round($DAYS * 1.01) + 1)")
BASE="$BENCH_DIR/$PREFIX$SIZE_MB"
PLUS="$BENCH_DIR/$PREFIX${SIZE_MB}plus"
[ -f "$BASE/export.zip" ] || python3 "$ROOT/bench/generate-export.py" "${GEN_FLAGS[@]}" --days "$DAYS" --out "$BASE" >&2
[ -f "$PLUS/export.zip" ] || python3 "$ROOT/bench/generate-export.py" "${GEN_FLAGS[@]}" --days "$PLUS_DAYS" --out "$PLUS" >&2

if [ "$SKIP_BUILD" != 1 ]; then
    echo "building release binaries…" >&2
    (cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --product healthspool >&2) || true
    (cd "$ROOT" && swift build -c release -Xswiftc -enable-testing --scratch-path "$SCRATCH" --build-tests >&2) || true
fi
HS="$SCRATCH/release/healthspool"
TESTS="$SCRATCH/release/healthspoolPackageTests.xctest"
HAVE_IMPORT=0
if [ -x "$HS" ] && "$HS" import --help >/dev/null 2>&1; then HAVE_IMPORT=1; fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

# measure LABEL CMD… : runs CMD under /usr/bin/time -v, prints a table row.
measure() {
    local label=$1; shift
    local log="$TMP/time.log"
    if ! /usr/bin/time -v -o "$log" "$@" >"$TMP/out.log" 2>&1; then
        echo "| $label | failed: $(tail -1 "$TMP/out.log") | | |"
        failures=$((failures + 1))
        return
    fi
    local wall rss user sys
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$log")
    user=$(awk -F': ' '/User time/ {print $2}' "$log")
    sys=$(awk -F': ' '/System time/ {print $2}' "$log")
    echo "| $label | $wall | $user + $sys | $rss |"
}

echo
echo "Export: $BASE/export.xml $(du -m "$BASE/export.xml" | cut -f1) MB, export.zip $(du -m "$BASE/export.zip" | cut -f1) MB," \
     "$(grep -c '<Record ' "$BASE/export.xml") Record elements; +1 %: $PLUS ($PLUS_DAYS days vs $DAYS)"
echo "Machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
echo
echo "| run | wall (m:ss) | CPU user + sys (s) | peak RSS (MiB) |"
echo "|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
    [ "$ROUNDS" -gt 1 ] && echo "| **round $round** | | | |"
    measure "xmllint --stream --noout export.xml" xmllint --stream --noout "$BASE/export.xml"
    if [ -x "$TESTS" ]; then
        HS_BENCH_FILE="$BASE/export.zip" measure "parse only, export.zip (2 passes, test harness)" \
            "$TESTS" --testing-library swift-testing --filter ParseBenchmark
    fi
    if [ -n "$HS_BEFORE" ]; then
        state0="$TMP/state-before-$round"; mkdir -p "$state0"
        XDG_STATE_HOME="$state0" measure "before: $(basename "$HS_BEFORE") import export.zip (empty store)" "$HS_BEFORE" import "$BASE/export.zip"
        rm -rf "$state0"
    fi
    if [ "$HAVE_IMPORT" = 1 ]; then
        state="$TMP/state-$round"; mkdir -p "$state"
        XDG_STATE_HOME="$state" measure "healthspool import export.zip (empty store)" "$HS" import "$BASE/export.zip"
        XDG_STATE_HOME="$state" measure "healthspool import export.zip again (identical)" "$HS" import "$BASE/export.zip"
        XDG_STATE_HOME="$state" measure "healthspool import export.zip +1 % records" "$HS" import "$PLUS/export.zip"
        state2="$TMP/state-xml-$round"; mkdir -p "$state2"
        XDG_STATE_HOME="$state2" measure "healthspool import export.xml (empty store)" "$HS" import "$BASE/export.xml"
    else
        echo "| healthspool import | n/a: \`healthspool import\` not in this build | | |"
    fi
    if [ "$SKIP_H2S" != 1 ] && command -v healthkit-to-sqlite >/dev/null; then
        rm -f "$TMP/h2s.db"
        measure "healthkit-to-sqlite export.zip" healthkit-to-sqlite "$BASE/export.zip" "$TMP/h2s.db"
    fi
done
# A command that failed fails the run (bench/smoke.sh runs this at a tiny size in `make test`).
[ "$failures" -eq 0 ]
