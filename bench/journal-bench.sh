#!/bin/sh
# The health journal on a large store: builds a store of N samples (default 10 million) with
# SQLite directly (not through import), then times `healthspool symptom log`, `symptom edit`
# and `journal DATE` (a day whose scores are computed on demand) on it.
#
#   bench/journal-bench.sh [BINARY] [SAMPLES] [RUNS]
#
# BINARY defaults to .build/release/healthspool.
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
-- The store makes a source of its own when it opens (the person's typed-in entries): the watch
-- gets an id of its own, looked up below.
INSERT OR IGNORE INTO sources(name, device) VALUES ('Apple Watch', 'Watch');
INSERT INTO types(name) VALUES ('heartRate'),('stepCount'),('activeEnergyBurned'),('basalEnergyBurned'),
  ('distanceWalkingRunning'),('respiratoryRate'),('oxygenSaturation'),('heartRateVariabilitySDNN'),
  ('environmentalAudioExposure'),('appleStandTime'),('appleExerciseTime'),('flightsClimbed');
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $N - 1)
INSERT INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id, created_ms)
  SELECT i + 1, (SELECT id FROM types WHERE name = 'heartRate') + i % 12, 1577836800000 + (i / 12) * 60000, randomblob(16),
         60 + i % 40, 'count/min', 3600, 1577836800000 + (i / 12) * 60000, 3600,
         (SELECT id FROM sources WHERE name = 'Apple Watch' AND device = 'Watch'), 1700000000000 FROM n;
-- Rows written here bypass SampleStore.insert, which counts new rows (schema step 7): count them.
UPDATE type_counts SET queued = (SELECT count(*) FROM samples WHERE samples.type = type_counts.type AND state = 0
  AND rowid > (SELECT synced_to FROM types WHERE id = type_counts.type));
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

# Each command RUNS times after two warm-up runs: wall time and the CPU time (user + system) the
# process used, beside the same figures for `healthspool --version` (process start alone): on a
# loaded machine the wall time is mostly waiting for a core, the CPU time is the command's own.
python3 - "$BIN" "$RUNS" "$ID" <<'PY'
import os, statistics, subprocess, sys, time
binary, runs, entry = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def measure(name, commands):
    for c in commands[:2]:
        subprocess.run([binary, *c], stdout=subprocess.DEVNULL, check=True)
    wall, cpu = [], []
    for i in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen([binary, *commands[i % len(commands)]], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
        assert status == 0, (name, status)
    print(f"{name}: wall median {statistics.median(wall):.1f} ms (min {min(wall):.1f}), "
          f"CPU median {statistics.median(cpu):.1f} ms (min {min(cpu):.1f}), {runs} runs")

measure("--version (baseline)", [["--version"]])
measure("symptom log", [["symptom", "log", "headache", "--severity", "moderate", "--when", "evening", "--aggravated-by", "caffeine"]])
measure("symptom edit", [["symptom", "edit", entry, "--note", f"edited {i}"] for i in range(runs + 2)])
# A day whose scores are not stored yet each run (computed from that day's entries, stored, queued).
measure("journal DATE, scored on demand", [["journal", f"2026-{m:02d}-{d:02d}"] for m in (6, 7, 8) for d in range(1, 29)])
measure("journal DATE, scores stored", [["journal", "2026-11-03"]])
PY
