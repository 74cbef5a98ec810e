#!/bin/bash
# The cost of inferring deletions from full exports (issue 43), paired: per round, with binary A
# (before) then B (after), a fresh store imports the export (a), then the same export a week
# later with COUNT samples removed (b, bench/remove-samples.py): the re-import is what is timed
# (wall, user, system seconds, peak RSS KiB). B also marks the COUNT samples deleted. C (optional):
# a third binary timed the same way after B in each round. SAME=1: B also re-imports b-same.xml,
# b.xml carrying the first export's ExportDate (no newer: nothing inferred, no ids kept), which
# is B's import without the compare.
#   A=/path/to/old/healthspool B=/path/to/new/healthspool DAYS=111 COUNT=1000 ROUNDS=2 bench/deletions-bench.sh
# SMOKE=1: 3 days, 20 samples, 1 round, B only, SAME=1 (seconds).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${SMOKE:-0}" = 1 ]; then DAYS=3; COUNT=20; ROUNDS=1; A=${A:-${B}}; SAME=1; fi
DAYS=${DAYS:-111}; COUNT=${COUNT:-1000}; ROUNDS=${ROUNDS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
F=${EXPORT_DIR:-$TMP/export}
[ -f "$F/export.xml" ] || python3 "$here/generate-export.py" --days "$DAYS" --out "$F" >/dev/null
[ -f "$F/b.xml" ] || python3 "$here/remove-samples.py" --count "$COUNT" "$F/export.xml" "$F/b.xml" >/dev/null
if [ "${SAME:-0}" = 1 ] && [ ! -f "$F/b-same.xml" ]; then
    sed '0,/<ExportDate value="2026-01-08 09:00:00 +0100"\/>/s//<ExportDate value="2026-01-01 09:00:00 +0100"\/>/' "$F/b.xml" >"$F/b-same.xml"
fi
for r in $(seq 1 "$ROUNDS"); do
    echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
    for v in A B ${C:+C}; do
        bin=${!v}
        s=$(mktemp -d "$TMP/state.XXXX")
        XDG_STATE_HOME=$s HOME=$s "$bin" import --no-progress "$F/export.xml" >/dev/null
        XDG_STATE_HOME=$s HOME=$s /usr/bin/time -o "$s/time" -f "re-import $v %e %U %S %M" "$bin" import --no-progress "$F/b.xml" >"$s/out" 2>"$s/err"
        cat "$s/time"
        grep -o "[0-9]* sample(s) deleted on the phone" "$s/out" | sed "s/^/  $v: /" || true
        rm -rf "$s"
    done
    if [ "${SAME:-0}" = 1 ]; then
        s=$(mktemp -d "$TMP/state.XXXX")
        XDG_STATE_HOME=$s HOME=$s "$B" import --no-progress "$F/export.xml" >/dev/null
        XDG_STATE_HOME=$s HOME=$s /usr/bin/time -o "$s/time" -f "re-import B-same %e %U %S %M" "$B" import --no-progress "$F/b-same.xml" >"$s/out" 2>"$s/err"
        cat "$s/time"
        rm -rf "$s"
    fi
done
