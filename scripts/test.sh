#!/usr/bin/env bash
# The test command (`make test`, which `.ci/run` calls): installs what the tests need, then runs
# every stage, the independent ones side by side:
#
#   setup-test ─ build (release, with the tests) ─┬─ unit
#                                                 ├─ docs-check
#                                                 ├─ integration (pytest-xdist, INTEGRATION_WORKERS)
#                                                 ├─ bench-smoke (every benchmark at a tiny size)
#                                                 ├─ deb (packaged) ─ e2e (the .deb under systemd)
#                                                 └─ fuzz-smoke (our targets again, sanitized; 30 s a target)
#
# One compilation (issue 41): `make build` is the release build with the tests in .build-release
# (scripts/swift-release.sh), which every stage uses, and its objects linked a second time with
# the standard library inside for the .deb (scripts/link-static.py). The fuzz build compiles our
# targets again over the same objects (the links are done by then) and reuses the build's
# third-party objects.
#
# Each stage's output goes to .build-test/STAGE.log; a failed stage's end is printed, and the run
# ends with a table of the stages' times. Exit status 1 when any stage failed.
#
#   scripts/test.sh                    # everything
#   STAGES="unit integration" scripts/test.sh   # some stages (after setup-test and build)
set -uo pipefail
cd "$(dirname "$(realpath "$0")")/.."
export PATH=/opt/swift/usr/bin:$PATH
LOGS=.build-test
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log "$LOGS"/*.status "$LOGS"/*.cpu
T0=$SECONDS
want() { [ -z "${STAGES:-}" ] || [[ " $STAGES " == *" $1 "* ]]; }

# stage NAME COMMAND…: runs COMMAND with its output in $LOGS/NAME.log; writes "STATUS SECONDS".
stage() {
    local name=$1; shift
    local t=$SECONDS rc
    echo "[test $((SECONDS - T0))s] $name: started"
    /usr/bin/time -o "$LOGS/$name.cpu" -f "%U %S" "$@" >"$LOGS/$name.log" 2>&1 </dev/null
    rc=$?
    # CPU seconds of the stage and everything it started (user + system): what a busy machine
    # does not change much, where the wall time it does.
    echo "$rc $((SECONDS - t)) $(tail -n 1 "$LOGS/$name.cpu" 2>/dev/null | awk '{ printf "%d", $1 + $2 }')" >"$LOGS/$name.status"
    if [ "$rc" -eq 0 ]; then
        echo "[test $((SECONDS - T0))s] $name: ok in $((SECONDS - t)) s"
    else
        echo "[test $((SECONDS - T0))s] $name: FAILED (exit $rc) in $((SECONDS - t)) s; the end of $LOGS/$name.log:"
        tail -60 "$LOGS/$name.log" | sed "s/^/  $name| /"
    fi
    return "$rc"
}

stage setup-test make --no-print-directory setup-test || exit 1

stage build make --no-print-directory build || exit 1

# The fuzz smoke's build is the one compilation left, and the last stage to end: the tests beside
# it run at nice 5, so that it is not left a third of a core (its compilers run at priority 0
# whatever swift-build's own; the tests mostly wait on daemons; the fuzzers then run at nice 5 too).
pids=()
if want e2e; then
    ( stage deb nice -n 5 make --no-print-directory deb-no-build && stage e2e nice -n 5 make --no-print-directory e2e-deb ) & pids+=($!)
fi
want fuzz-smoke && { stage fuzz-smoke make --no-print-directory fuzz-smoke & pids+=($!); }
want unit && { stage unit nice -n 5 make --no-print-directory unit & pids+=($!); }
want docs-check && { stage docs-check nice -n 5 make --no-print-directory docs-check & pids+=($!); }
want bench-smoke && { stage bench-smoke nice -n 5 make --no-print-directory bench-smoke & pids+=($!); }
want integration && { stage integration nice -n 5 make --no-print-directory integration & pids+=($!); }
for p in "${pids[@]}"; do wait "$p"; done

echo
echo "stage          status  wall s  CPU s"
failed=0
for s in setup-test build unit docs-check integration bench-smoke fuzz-smoke deb e2e; do
    [ -f "$LOGS/$s.status" ] || continue
    read -r rc secs cpu <"$LOGS/$s.status"
    [ "$rc" -eq 0 ] || failed=1
    printf '%-14s %-7s %6d %6s\n' "$s" "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "$secs" "${cpu:-?}"
done
for s in deb e2e; do   # a stage that did not end (the .deb failed: no e2e)
    if want e2e && [ ! -f "$LOGS/$s.status" ]; then printf '%-14s %-7s\n' "$s" "not run"; failed=1; fi
done
if want fuzz-smoke && [ ! -f "$LOGS/fuzz-smoke.status" ]; then printf '%-14s %-7s\n' fuzz-smoke "not run"; failed=1; fi
echo "make test: $((SECONDS - T0)) s in all$([ "$failed" -eq 0 ] && echo ", every stage passed" || echo ", FAILED")"
exit "$failed"
