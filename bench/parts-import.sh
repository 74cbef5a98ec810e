#!/usr/bin/env bash
# Paired (issue 42): the same generated export without and with workout routes and ECGs, each
# imported into a fresh store, twice in turn; wall time and peak RSS from /usr/bin/time.
#   bench/parts-import.sh                       # 40 days, 40 routes, 40 ECGs, the debug build
#   DAYS=300 ROUTES=300 ECGS=300 BIN=.build/release/healthspool bench/parts-import.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build/debug/healthspool}
DAYS=${DAYS:-40} ROUTES=${ROUTES:-40} ECGS=${ECGS:-40}
DIR=${BENCH_DIR:-/tmp/hs-bench}/parts-$DAYS
[ -f "$DIR/plain/export.zip" ] || python3 "$ROOT/bench/generate-export.py" --days "$DAYS" --out "$DIR/plain" >/dev/null
[ -f "$DIR/parts/export.zip" ] || python3 "$ROOT/bench/generate-export.py" --days "$DAYS" --routes "$ROUTES" --ecgs "$ECGS" --out "$DIR/parts" >/dev/null
for round in 1 2; do
  for kind in plain parts; do
    home=$(mktemp -d)
    /usr/bin/time -f "%e s %M KB" -o $DIR/time.txt env HOME=$home XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config TZ=UTC \
      "$BIN" import $DIR/$kind/export.zip --no-progress > $DIR/out.txt
    echo "round $round $kind: $(cat $DIR/time.txt) | $(head -1 $DIR/out.txt)"
    rm -rf "$home"
  done
done
