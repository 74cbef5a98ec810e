#!/bin/bash
# Two release builds paired on the 250 MB export, rounds interleaved: per round xmllint --stream,
# `healthspool import` with A then B (fresh XDG_STATE_HOME each), then the parse-only harness
# (ParseBenchmark, two passes) with A then B. Prints wall, user and system seconds per command.
#   A=/path/.build-bench-a B=/path/.build-bench-b ROUNDS=4 bench/paired-import.sh
# Each scratch folder is a `swift build -c release -Xswiftc -enable-testing --build-tests
# --scratch-path …` of the commit to compare. The export: bench/generate-export.py --days 278
# --out /tmp/hs-bench/250 (what bench/import-bench.sh makes).
set -euo pipefail
ROUNDS=${ROUNDS:-3}
F=${EXPORT_DIR:-/tmp/hs-bench/250}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for r in $(seq 1 "$ROUNDS"); do
    echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "xmllint %e %U %S" xmllint --stream --noout "$F/export.xml" 2>&1 | tail -1
    for v in A B; do
        d=${!v}
        s=$(mktemp -d "$TMP/state.XXXX")
        XDG_STATE_HOME=$s /usr/bin/time -f "import $v %e %U %S" "$d/release/healthspool" import --no-progress "$F/export.zip" 2>&1 >/dev/null | tail -1
        rm -rf "$s"
    done
    for v in A B; do
        d=${!v}
        HS_BENCH_FILE=$F/export.zip /usr/bin/time -f "parse $v %e %U %S" "$d/release/healthspoolPackageTests.xctest" \
            --testing-library swift-testing --filter ParseBenchmark 2>&1 | grep -E "parse round|^parse [AB]" | sed 's/^/  /'
    done
done
