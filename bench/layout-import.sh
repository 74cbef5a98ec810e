#!/bin/bash
# Issue 44: two healthspool binaries paired on one export, rounds interleaved. Per round:
# `unzip -p` of the zip (the inflate alone), then for A and B each: `healthspool import` into a
# fresh XDG_STATE_HOME, the same file again into that store (an identical re-import), and the
# store's bytes per sample (pages in use after a checkpoint, over the samples); with SECOND, that
# file imported into the same store after (a cumulative export again: the duplicates' path).
# Prints wall, user, system seconds and peak RSS (KiB) per command.
#   A=/path/to/before/healthspool B=/path/to/after/healthspool ROUNDS=2 [SECOND=FILE] bench/layout-import.sh [EXPORT.zip]
# SMOKE=1 runs one round on a 0.3 MB native export made by bench/generate-native.py (seconds).
set -euo pipefail
ROUNDS=${ROUNDS:-2}
TMP=$(mktemp -d /tmp/healthspool-layout.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
EXPORT=${1:-/tmp/hs-bench/1000/export.zip}
if [ "${SMOKE:-}" = 1 ]; then
    ROUNDS=1
    python3 "$(dirname "$0")/generate-native.py" --size-mb 0.3 --out "$TMP/smoke.json" >/dev/null
    EXPORT=$TMP/smoke.json
fi
export HOME=$TMP XDG_RUNTIME_DIR=$TMP/run HEALTHSPOOL_SYSTEM_CONFIG=$TMP/none.conf
mkdir -p "$TMP/run"
for r in $(seq 1 "$ROUNDS"); do
    echo "round $r load $(cut -d' ' -f1-3 /proc/loadavg)"
    case "$EXPORT" in *.zip) /usr/bin/time -f "unzip -p %e s wall %U user %S sys" unzip -p "$EXPORT" 2>&1 >/dev/null | tail -1 ;; esac
    for v in A B; do
        bin=${!v}
        s=$(mktemp -d "$TMP/state.XXXX")
        XDG_STATE_HOME=$s /usr/bin/time -f "import $v %e s wall %U user %S sys %M KiB" "$bin" import --no-progress "$EXPORT" 2>&1 >/dev/null | tail -1
        XDG_STATE_HOME=$s /usr/bin/time -f "re-import $v %e s wall %U user %S sys %M KiB" "$bin" import --no-progress "$EXPORT" 2>&1 >/dev/null | tail -1
        if [ -n "${SECOND:-}" ]; then
            XDG_STATE_HOME=$s /usr/bin/time -f "second $v %e s wall %U user %S sys %M KiB" "$bin" import --no-progress "$SECOND" 2>&1 >/dev/null | tail -1
        fi
        db=$s/healthspool/healthspool.db
        sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
        sqlite3 "$db" "SELECT 'store $v ' || count(*) || ' samples, ' || (SELECT (page_count - freelist_count) * page_size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()) || ' bytes, ' || printf('%.1f', (SELECT (page_count - freelist_count) * page_size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()) * 1.0 / count(*)) || ' bytes/sample' FROM samples"
        rm -rf "$s"
    done
done
