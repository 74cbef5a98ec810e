#!/usr/bin/env bash
# Builds the fuzz binary once (Fuzz/, -sanitize=fuzzer,address, in .build-release; copied to
# .build-fuzz/release/healthspool-fuzz) and runs each
# target for FUZZ_SECONDS (default 300) under nice, one after the other. See docs/fuzzing.md.
#   scripts/fuzz.sh [target…]           every target, or those named
#   FUZZ_SECONDS=30 scripts/fuzz.sh      the smoke run of `make fuzz-smoke`
#   FUZZ_JOBS=2 scripts/fuzz.sh         two targets at a time (the smoke run uses both cores)
#   FUZZ_OPT=-Onone scripts/fuzz.sh     our targets unoptimized (the smoke run: a quicker build)
#   FUZZ_NICE=5 scripts/fuzz.sh         the fuzzers' nice value (default 19; the smoke run: 5, as the
#                                        tests beside it, so that they get their share of the CPU)
#   FUZZ_CPU_SECONDS=1800 scripts/fuzz.sh   each target until its fuzzer has used 1800 CPU seconds
#                                        (runs of at most FUZZ_SECONDS wall seconds, corpus carried
#                                        over), for a machine where other work takes the cores
# Working corpora grow in .build-fuzz/corpus/<target> (seeded from Fuzz/corpus/<target>);
# findings land in .build-fuzz/findings/<target>/, logs in .build-fuzz/logs/. Exits 1 when a
# target found something (a crash, a failed property, a leak, a timeout, memory past the bound)
# or the zip reader disagrees with Python's zipfile; a build error stops it at once.
set -euo pipefail
self=$(realpath "$0")
cd "$(dirname "$self")/.."
export PATH=/opt/swift/usr/bin:$PATH
seconds=${FUZZ_SECONDS:-300}
scratch=.build-fuzz

bin=$scratch/release/healthspool-fuzz
if [ -z "${FUZZ_BUILT:-}" ]; then
    # Package.swift puts -sanitize=fuzzer,address on the package's own targets only (not NIO,
    # Hummingbird, …) when HEALTHSPOOL_FUZZ=1. Built in .build-release with the release build's
    # flags (scripts/swift-release.sh): the third-party modules are the objects `make build` made,
    # only our targets compile again (with the sanitizers, at FUZZ_OPT: -O by default, -Onone for
    # the smoke run; the next `make build` compiles them back). The binary is copied out to $bin,
    # where the runs and replays find it.
    opt=${FUZZ_OPT:--O}
    echo "== building the fuzz binary (release; our targets with -sanitize=fuzzer,address, $opt) in .build-release"
    built=$SECONDS
    HEALTHSPOOL_FUZZ=1 HEALTHSPOOL_FUZZ_OPT=$opt nice -n 10 scripts/swift-release.sh build --product healthspool-fuzz
    mkdir -p "$(dirname "$bin")"
    cp .build-release/release/healthspool-fuzz "$bin.tmp" && mv -f "$bin.tmp" "$bin"
    echo "== built in $((SECONDS - built)) s"
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then mapfile -t targets < <("$bin" list | cut -f1); fi

# FUZZ_JOBS=N: N runs of this script side by side, each with every Nth target; their summaries
# are printed one after the other, and the exit status is 1 if any found something.
jobs=${FUZZ_JOBS:-1}
if [ "$jobs" -gt 1 ]; then
    pids=() outs=()
    for ((j = 0; j < jobs; j++)); do
        share=()
        for ((i = j; i < ${#targets[@]}; i += jobs)); do share+=("${targets[i]}"); done
        [ ${#share[@]} -gt 0 ] || continue
        out=$(mktemp) outs+=("$out")
        FUZZ_BUILT=1 FUZZ_JOBS=1 "$self" "${share[@]}" >"$out" 2>&1 &
        pids+=($!)
    done
    status=0
    for k in "${!pids[@]}"; do
        wait "${pids[k]}" || status=1
        cat "${outs[k]}"; rm -f "${outs[k]}"
    done
    exit $status
fi

# Bounds: inputs up to 64 KiB; one input may take 5 s (under ASan and coverage instrumentation,
# i.e. at most 80 s a MB), the process 1 GiB of RSS, one allocation 512 MiB.
bounds=(-max_len=65536 -timeout=5 -rss_limit_mb=1024 -malloc_limit_mb=512)
dict_for() {
    case "$1" in
        zip) echo Fuzz/dict/zip.dict ;;
        apple-xml|gpx) echo Fuzz/dict/xml.dict ;;
        export|hae-json|native|control|gateway|clinical-record) echo Fuzz/dict/json.dict ;;
        http-head) echo Fuzz/dict/http.dict ;;
    esac
}

# CPU seconds used by the children this shell has waited for (utime + stime of the fuzzers).
ticks=$(getconf CLK_TCK)
child_cpu() { awk -v t="$ticks" '{ printf "%d", ($16 + $17) / t }' /proc/$$/stat; }

failed=0
summary=()
for t in "${targets[@]}"; do
    corpus=$scratch/corpus/$t findings=$scratch/findings/$t log=$scratch/logs/$t.log
    mkdir -p "$corpus" "$findings" "$(dirname "$log")"
    cp -n Fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
    dict=$(dict_for "$t")
    echo "== $t: ${seconds}s"
    rc=0
    touch "$log.start"
    cpu0=$(child_cpu)
    : >"$log"
    while :; do
        SWIFT_BACKTRACE=enable=no nice -n "${FUZZ_NICE:-19}" "$bin" "$t" "${bounds[@]}" -max_total_time="$seconds" -print_final_stats=1 \
            -artifact_prefix="$findings/" ${dict:+-dict="$dict"} "$corpus" >>"$log" 2>&1 || rc=$?
        cpu=$(( $(child_cpu) - cpu0 ))
        # libFuzzer's -timeout is wall time: on a loaded machine a nice-19 fuzzer can miss it on an
        # input that is fast. A timeout counts only if replaying the input alone times out too.
        if [ "$rc" -ne 0 ] && ! grep -qvE '/timeout-[0-9a-f]+$' <<<"$(find "$findings" -type f -newer "$log.start")"; then
            confirmed=0
            for a in $(find "$findings" -type f -newer "$log.start"); do
                if SWIFT_BACKTRACE=enable=no "$bin" "$t" "${bounds[@]}" "$a" >/dev/null 2>&1; then
                    mkdir -p "$scratch/unconfirmed/$t" && mv "$a" "$scratch/unconfirmed/$t/"
                    echo "   $t: timeout not reproduced when replayed alone (machine load); input kept in $scratch/unconfirmed/$t"
                else
                    confirmed=1
                fi
            done
            [ "$confirmed" -eq 1 ] || rc=0
        fi
        [ "$rc" -eq 0 ] && [ "${FUZZ_CPU_SECONDS:-0}" -gt "$cpu" ] || break
        echo "   $t: ${cpu} of ${FUZZ_CPU_SECONDS} CPU seconds"
    done
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{ n += $1 } END { if (NR) print n }' || true)
    cov=$( (grep -o 'cov: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
    ft=$( (grep -o 'ft: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
    result=ok
    artifacts=$(find "$findings" -type f -newer "$log.start")
    if [ "$rc" -ne 0 ] || [ -n "$artifacts" ]; then
        result="FINDING (exit $rc)"
        failed=1
        grep -E 'ERROR: |Fatal error|property failed|SUMMARY|^    #[0-9]+ .* in ' "$log" | head -25 || true
        for a in $artifacts; do echo "input $a (base64, first 2000 characters): $(base64 -w0 "$a" | cut -c1-2000)"; done
    fi
    if [ "$t" = zip ] && ! python3 Fuzz/zip-crosscheck.py "$bin" "$corpus"; then
        result="$result; differs from zipfile"
        failed=1
    fi
    summary+=("$(printf '%-10s %5ss  cpu %5ss  execs %-10s cov %-6s ft %-7s corpus %-5s %s' "$t" "$seconds" "$cpu" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
        "$(find "$corpus" -type f | wc -l)" "$result")")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
