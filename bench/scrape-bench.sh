#!/bin/sh
# The metrics scrape on a large store (issue 30): starts the daemon on HOME's store with the web
# interface on, waits for the metrics token, then times N scrapes of /metrics with curl
# (round trip) and the daemon's CPU over them (utime + stime from /proc). Loopback only; the
# gateway is not set, so nothing is sent and every sample stays queued.
#
#   bench/scrape-bench.sh BINARY HOME [N]
#
# HOME holds the store (bench/large-store.sh builds one of 20.6 M samples).
set -eu
BIN=$(realpath "$1")
export HOME="$2" TZ=Europe/Berlin
N=${3:-50}
export XDG_RUNTIME_DIR="$HOME/run"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ADDR=$(python3 -c 'import os; u=os.getuid(); print(f"127.{1 + (u >> 16) % 254}.{(u >> 8) & 255}.{u & 255}")')
TOKEN="$HOME/.local/state/healthspool/metrics.token"
HEALTHSPOOL_WEB_ENABLED=true HEALTHSPOOL_WEB_PORT=$PORT "$BIN" daemon >"$HOME/daemon.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
i=0
until [ -s "$TOKEN" ] && curl -s -o /dev/null "http://$ADDR:$PORT/"; do
  i=$((i + 1)); [ $i -lt 600 ] || { echo "the daemon did not start"; cat "$HOME/daemon.log"; exit 1; }
  sleep 0.1
done
sleep "${SETTLE_SECONDS:-10}"   # start-up work (the first prune, the status) out of the way (bench/smoke.sh: 0.5)
cpu() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
before=$(cpu)
for _ in $(seq "$N"); do
  curl -s -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $(cat "$TOKEN")" "http://$ADDR:$PORT/metrics"
done > "$HOME/scrapes.txt"
after=$(cpu)
ticks=$(getconf CLK_TCK)
python3 - "$HOME/scrapes.txt" "$before" "$after" "$ticks" "$N" <<'PY'
import statistics, sys
t = sorted(float(x) * 1000 for x in open(sys.argv[1]))
cpu_ms = (int(sys.argv[3]) - int(sys.argv[2])) * 1000 / int(sys.argv[4]) / int(sys.argv[5])
print(f"scrape round trip: median {statistics.median(t):.1f} ms, p95 {t[int(len(t) * 0.95) - 1]:.1f} ms; daemon CPU {cpu_ms:.1f} ms a scrape")
PY
curl -s -H "Authorization: Bearer $(cat "$TOKEN")" "http://$ADDR:$PORT/metrics" | grep '^healthspool_samples_queued' | head -3
