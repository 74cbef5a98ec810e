#!/bin/sh
# The import's writer thread against SQLite's own floor (issue 30): imports EXPORT into an empty
# store with BINARY (per-thread CPU from `perf record` when perf works here, else the process's
# CPU), then inserts the same rows again through SQLite's C API alone (bench/sqlite_insert_floor.c:
# same table, same order, same transactions and settings), with all three B-trees and without
# each index. The writer cannot go under the "full" line with this schema.
#
#   bench/insert-floor.sh [BINARY] [EXPORT]
#
# BINARY defaults to .build/release/healthspool, EXPORT to /tmp/hs-bench/250/export.zip
# (bench/import-bench.sh generates it).
set -eu
HERE=$(dirname "$(realpath "$0")")
BIN=$(realpath "${1:-.build/release/healthspool}")
EXPORT=$(realpath "${2:-/tmp/hs-bench/250/export.zip}")
WORK=$(mktemp -d /tmp/healthspool-floor.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -o "$WORK/floor" "$HERE/sqlite_insert_floor.c" -lsqlite3
mkdir -p "$WORK/run"
export HOME="$WORK" XDG_STATE_HOME="$WORK/state" XDG_RUNTIME_DIR="$WORK/run" HEALTHSPOOL_SYSTEM_CONFIG="$WORK/none.conf"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if perf stat -e task-clock true >/dev/null 2>&1; then
    perf record -q -F 999 -o "$WORK/perf.data" "$BIN" import "$EXPORT" >/dev/null 2>&1
    # Per thread: its share of the cpu-clock event count (nanoseconds); the writer is the largest.
    perf report -i "$WORK/perf.data" --sort pid --stdio --no-children -g none 2>/dev/null \
        | awk '/Event count/ {n=$NF}
               /%/ && $1 !~ /^#/ {p=$1; sub(/%/,"",p); s=p*n/100/1e9
                   if (s >= 0.1) printf "import thread %s: %.2f s CPU\n", $2, s; else {k++; rest+=s}}
               END {if (k) printf "import: %d short threads (under 0.1 s each): %.2f s CPU\n", k, rest}'
else
    /usr/bin/time -f "import: %e s wall, %U s user, %S s sys" "$BIN" import "$EXPORT" >/dev/null
fi
"$WORK/floor" "$WORK/state/healthspool/healthspool.db" "$WORK" full runs clustered no-queue no-unique table-only
