#!/bin/sh
# Gateway delivery benchmark: healthspool vs a Python `requests` loop vs the receiver's ceiling
# (bench/replay.c: libcurl replaying pre-encoded bodies from memory over one keep-alive connection),
# all against nginx over TLS.
#   bench/gateway-bench.sh [--samples N] [--repeat R] [--json FILE] [--receiver python]
#   bench/gateway-bench.sh --instructions   # instructions a sample under callgrind (needs valgrind),
#                                            # SQLite's own read (bench/sqlite_floor.c) among them
# Needs: nginx (apt-get install nginx-light), a C compiler (cc, or the Swift toolchain's clang),
# libcurl's and SQLite's headers (libcurl4-openssl-dev, libsqlite3-dev: scripts/setup-deps.sh
# installs them), python3 with requests and cryptography, and valgrind for --instructions.
# Uses the release binary (built here when missing); HEALTHSPOOL_BIN overrides it.
set -eu
cd "$(dirname "$0")/.."
case " $* " in *" --receiver python "*) receiver=python ;; *) receiver=nginx ;; esac
if [ "$receiver" = nginx ] && ! command -v nginx >/dev/null 2>&1; then
    echo "nginx is needed: apt-get install -y nginx-light" >&2
    exit 1
fi
BIN="${HEALTHSPOOL_BIN:-}"
if [ -z "$BIN" ]; then
    swift build -c release --scratch-path "${SCRATCH:-.build}" >&2
    BIN="$(swift build -c release --scratch-path "${SCRATCH:-.build}" --show-bin-path)/healthspool"
fi
exec python3 bench/gateway_bench.py --bin "$BIN" "$@"
