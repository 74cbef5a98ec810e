#!/bin/sh
# The day view, the calendar and every web page on ten years of dense watch data (issues 17
# and 18): builds the store (bench/large-store.sh: ~20.6 million samples from a watch and a
# phone, a year of journal; it times `healthspool rebuild-rollups` on the samples), then runs
# bench/views_bench.py (`day`, `calendar`, every page's server time, page weights, idle memory
# with the web interface on and off).
#
#   bench/views-bench.sh [BINARY] [DAYS] [-- views_bench.py options]
#
# BINARY defaults to .build/release/healthspool, DAYS to 3652. KEEP=DIR builds the store in DIR
# and leaves it there (a later run with the same KEEP=DIR reuses what is built).
set -eu
HERE=$(dirname "$(realpath "$0")")
BIN=$(realpath "${1:-.build/release/healthspool}")
DAYS=${2:-3652}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = "--" ] && shift
if [ -n "${KEEP:-}" ]; then WORK=$KEEP; mkdir -p "$WORK"; else
  WORK=$(mktemp -d /tmp/healthspool-views-bench.XXXXXX)
  trap 'rm -rf "$WORK"' EXIT
fi
export HOME="$WORK" XDG_RUNTIME_DIR="$WORK/run" TZ=Europe/Berlin HEALTHSPOOL_WEB_ENABLED=false
export HEALTHSPOOL_SYSTEM_CONFIG="$WORK/no-system.conf"
"$HERE/large-store.sh" "$BIN" "$WORK" "$DAYS"
python3 "$HERE/views_bench.py" "$BIN" "$WORK" "$@"
