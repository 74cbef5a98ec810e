#!/bin/bash
# The cost of inferring deletions from full exports (issue 43), paired: per round, with binary A
# (before) then B (after), a fresh store imports the export (a), then the same export a week
# later with COUNT samples removed (b, bench/remove-samples.py): the re-import is what is timed
# (wall, user, system seconds). B also marks the COUNT samples deleted.
#   A=/path/to/old/healthspool B=/path/to/new/healthspool DAYS=111 COUNT=1000 ROUNDS=2 bench/deletions-bench.sh
# SMOKE=1: 3 days, 20 samples, 1 round, B only (seconds).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${SMOKE:-0}" = 1 ]; then DAYS=3; COUNT=20; ROUNDS=1; A=${A:-${B}}; fi
DAYS=${DAYS:-111}; COUNT=${COUNT:-1000}; ROUNDS=${ROUNDS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
F=${EXPORT_DIR:-$TMP/export}
[ -f "$F/export.xml" ] || python3 "$here/generate-export.py" --days "$DAYS" --out "$F" >/dev/null
[ -f "$F/b.xml" ] || python3 "$here/remove-samples.py" --count "$COUNT" "$F/export.xml" "$F/b.xml" >/dev/null
for r in $(seq 1 "$ROUNDS"); do
    echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
    for v in A B; do
        bin=${!v}
        s=$(mktemp -d "$TMP/state.XXXX")
        XDG_STATE_HOME=$s HOME=$s "$bin" import --no-progress "$F/export.xml" >/dev/null
        XDG_STATE_HOME=$s HOME=$s /usr/bin/time -f "re-import $v %e %U %S" "$bin" import --no-progress "$F/b.xml" 2>&1 >"$s/out" | tail -1
        grep -o "[0-9]* sample(s) deleted on the phone" "$s/out" | sed "s/^/  $v: /" || true
        rm -rf "$s"
    done
done
