#!/usr/bin/env bash
# Paired, in each of ROUNDS rounds: `unzip -p` of the zip's export.xml (the yardstick of a zip
# import), then a first import of the same zip into an empty store by each binary given.
#   bench/zip-import-bench.sh ZIP BINARY…      e.g. /tmp/hs-bench/1000/export.zip /tmp/healthspool-before .build/release/healthspool
set -u
Z=$1; shift
ROUNDS=${ROUNDS:-3}
failed=0
echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for round in $(seq 1 "$ROUNDS"); do
  /usr/bin/time -f "r$round unzip -p: %e s wall, %U + %S s CPU, %M KB" unzip -p "$Z" apple_health_export/export.xml > /dev/null
  for b in "$@"; do
    d=$(mktemp -d)
    /usr/bin/time -f "r$round $b import: %e s wall, %U + %S s CPU, %M KB" env XDG_STATE_HOME=$d "$b" import "$Z" > $d/out.log 2>&1 || { tail -2 $d/out.log; failed=1; }
    tail -1 $d/out.log; grep -m1 "imported" $d/out.log
    rm -rf "$d"
  done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
exit $failed
