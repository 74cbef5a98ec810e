#!/bin/sh
# The import cost of keeping daily rollups at import (issue 18), paired: the same export
# imported by two release binaries, interleaved (A B, then B A, …), each into a fresh store,
# then the +1 % export into that store. Wall and CPU time from /usr/bin/time.
#
#   bench/rollup-import-bench.sh BEFORE AFTER [ROUNDS] [EXPORT_DIR] [PLUS_DIR]
#
# BEFORE is a release build of 33720a6 (the parent of bef8025, "Daily rollups"), AFTER the
# current one. EXPORT_DIR/PLUS_DIR default to bench/import-bench.sh's 250 MB pair under
# /tmp/hs-bench (generated with bench/generate-export.py when missing).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
A=$(realpath "$1") B=$(realpath "$2")
ROUNDS=${3:-3}
BASE=${4:-/tmp/hs-bench/250} PLUS=${5:-/tmp/hs-bench/250plus}
[ -f "$BASE/export.zip" ] || python3 "$ROOT/bench/generate-export.py" --days 278 --out "$BASE" >&2
[ -f "$PLUS/export.zip" ] || python3 "$ROOT/bench/generate-export.py" --days 282 --out "$PLUS" >&2
TMP=$(mktemp -d /tmp/healthspool-rollup-import.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export TZ=Europe/Berlin HOME="$TMP" XDG_RUNTIME_DIR="$TMP/run" HEALTHSPOOL_WEB_ENABLED=false
mkdir -m 700 "$TMP/run"

one() { # label binary round
  state="$TMP/state-$1-$3"
  for f in "$BASE/export.zip" "$PLUS/export.zip"; do
    XDG_STATE_HOME="$state" /usr/bin/time -o "$TMP/t" -f "%e %U %S" "$2" import "$f" --no-progress >/dev/null
    set -- "$1" "$2" "$3" "$(cat "$TMP/t")"
    printf '%s %s %s %s %s\n' "$1" "$3" "$([ "$f" = "$BASE/export.zip" ] && echo first || echo plus1)" "$4" "$(cut -d' ' -f1 /proc/loadavg)"
  done
  rm -rf "$state"
}
echo "label round import wall user sys load"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  if [ $((r % 2)) -eq 1 ]; then one before "$A" "$r"; one rollups "$B" "$r"; else one rollups "$B" "$r"; one before "$A" "$r"; fi
  r=$((r + 1))
done
