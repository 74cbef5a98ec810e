#!/bin/sh
# The health journal on a large store: builds a store of N samples (default 10 million) with
# SQLite directly (not through import), then times `healthspool symptom log`, `symptom edit`
# and `journal DATE` (a day whose scores are computed on demand) on it.
#
#   bench/journal-bench.sh [BINARY] [SAMPLES] [RUNS]
#
# BINARY defaults to .build/release/healthspool. Each command is timed in a loop (date +%s%N,
# two warm-up runs; hyperfine cannot time the shell function that picks a new day each run). Figures go in BENCHMARKS.md ("Health journal").
set -eu
BIN=$(realpath "${1:-.build/release/healthspool}")
N=${2:-10000000}
RUNS=${3:-30}
WORK=$(mktemp -d /tmp/healthspool-journal-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export HOME="$WORK" XDG_RUNTIME_DIR="$WORK/run" TZ=Europe/Berlin
mkdir -m 700 "$XDG_RUNTIME_DIR"
DB="$WORK/.local/state/healthspool/healthspool.db"

# The schema, as the binary creates it.
"$BIN" symptom categories >/dev/null
start=$(date +%s)
# N samples over 12 types, one a minute from 2020 on, each with a random 16-byte id: rows and
# indexes as an import leaves them (samples_queue, UNIQUE (type, start_ms, id)).
sqlite3 "$DB" <<SQL
PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144;
INSERT INTO sources(id, name) VALUES (1, 'Apple Watch');
INSERT INTO types(name) VALUES ('heartRate'),('stepCount'),('activeEnergyBurned'),('basalEnergyBurned'),
  ('distanceWalkingRunning'),('respiratoryRate'),('oxygenSaturation'),('heartRateVariabilitySDNN'),
  ('environmentalAudioExposure'),('appleStandTime'),('appleExerciseTime'),('flightsClimbed');
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $N - 1)
INSERT INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id, created_ms)
  SELECT i + 1, (SELECT id FROM types WHERE name = 'heartRate') + i % 12, 1577836800000 + (i / 12) * 60000, randomblob(16),
         60 + i % 40, 'count/min', 3600, 1577836800000 + (i / 12) * 60000, 3600, 1, 1700000000000 FROM n;
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
echo "store: $(sqlite3 "$DB" 'SELECT count(*) FROM samples') samples, $(du -m "$DB" | cut -f1) MB, built in $(( $(date +%s) - start )) s"

# A few days of journal entries, so edits and days have company.
for d in 01 02 03 04 05; do
  "$BIN" symptom log headache --severity moderate --at "2026-11-$d"T19:30 --aggravated-by caffeine >/dev/null
  "$BIN" symptom log nausea --severity mild --at "2026-11-$d"T08:00 --category stomach >/dev/null
done
ID=$("$BIN" symptom list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"][:8])')

time_loop() {  # name, command…
  name=$1; shift
  {
    "$@" >/dev/null; "$@" >/dev/null
    all=""
    run=0
    while [ $run -lt "$RUNS" ]; do
      t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
      all="$all $(( (t1 - t0) / 1000 ))"
      run=$((run + 1))
    done
    echo "$all" | python3 -c "import sys, statistics as s; v=[int(x)/1000 for x in sys.stdin.read().split()]; v.sort(); print('$name: median %.1f ms, mean %.1f, min %.1f, max %.1f (%d runs)' % (s.median(v), s.mean(v), v[0], v[-1], len(v)))"
  }
}

time_loop "symptom log" "$BIN" symptom log headache --severity moderate --when evening --aggravated-by caffeine
time_loop "symptom edit" "$BIN" symptom edit "$ID" --note "edited"
# Each run asks for a day whose scores are not stored yet (computed, stored, queued): day 1–5
# first, then days without entries.
dayn=0
day_cmd() { dayn=$((dayn + 1)); "$BIN" journal "2026-10-$(printf %02d $(( dayn % 28 + 1 )))"; }
time_loop "journal DATE (scored on demand)" day_cmd
time_loop "journal DATE (scores stored)" "$BIN" journal 2026-11-03
