#!/usr/bin/env bash
# Paired (issue 42): the same generated export without and with workout routes and ECGs, each
# imported into a fresh store, twice in turn; wall time and peak RSS from /usr/bin/time.
#   bench/parts-import.sh                       # 40 days, 40 routes, 40 ECGs, the debug build
#   DAYS=300 ROUTES=300 ECGS=300 BIN=.build/release/healthspool bench/parts-import.sh
#   SIZE_MB=1000 ROUTES=500 ECGS=300 BIN=.build/release/healthspool bench/parts-import.sh   # issue 42's 1 GB pair
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build/debug/healthspool}
DAYS=${DAYS:-40} ROUTES=${ROUTES:-40} ECGS=${ECGS:-40} ROUNDS=${ROUNDS:-2}
if [ -n "${SIZE_MB:-}" ]; then SPAN=(--size-mb "$SIZE_MB"); LABEL=${SIZE_MB}mb; else SPAN=(--days "$DAYS"); LABEL=$DAYS; fi
DIR=${DIR:-${BENCH_DIR:-/tmp/hs-bench}/parts-$LABEL}
[ -f "$DIR/plain/export.zip" ] || python3 "$ROOT/bench/generate-export.py" "${SPAN[@]}" --out "$DIR/plain" >/dev/null
[ -f "$DIR/parts/export.zip" ] || python3 "$ROOT/bench/generate-export.py" "${SPAN[@]}" --routes "$ROUTES" --ecgs "$ECGS" --out "$DIR/parts" >/dev/null
for round in $(seq "$ROUNDS"); do
  for kind in plain parts; do
    home=$(mktemp -d)
    /usr/bin/time -f "%e s (user %U s, sys %S s) %M KB" -o $DIR/time.txt env HOME=$home XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config TZ=UTC \
      "$BIN" import $DIR/$kind/export.zip --no-progress > $DIR/out.txt
    echo "round $round $kind: $(cat $DIR/time.txt) | load $(cut -d' ' -f1-3 /proc/loadavg) | $(head -1 $DIR/out.txt)"
    rm -rf "$home"
  done
done
