#!/bin/sh
# Builds a large store for the view benchmarks: DAYS days (default 3652, ten years) of dense
# watch data from two overlapping sources, written with SQLite directly (not through import),
# and the last year of it with a health journal (several symptoms a day, lifestyle entries,
# medications and doses, reminders, goals, notes, measurements).
#
#   bench/large-store.sh BINARY HOME [DAYS]
#
# HOME is the user's home the store goes under (HOME/.local/state/healthspool); TZ is
# Europe/Berlin. Per day, from the Apple Watch: heart rate every minute, steps and distance a
# minute at a time, active energy every two minutes, a night of 16 sleep stages (23:00–07:00);
# from the iPhone: steps and distance five minutes at a time over the same hours (they overlap
# the watch's) and the night in bed (22:45–07:10). 5,633 samples a day: 20.57 million in ten
# years. Ids are random 16-byte blobs, rows in type and time order as an import leaves them.
# Then `healthspool rebuild-rollups` (timed), then the journal.
set -eu
BIN=$(realpath "$1")
export HOME="$2" TZ=Europe/Berlin
DAYS=${3:-3652}
export XDG_RUNTIME_DIR="$HOME/run"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
DB="$HOME/.local/state/healthspool/healthspool.db"
hs() { HEALTHSPOOL_WEB_ENABLED=false "$BIN" "$@" >/dev/null; }

# The schema, as the binary creates it.
[ -s "$DB" ] || hs symptom categories
# Day 0 is DAYS days before 2026-11-23 (local midnights, Europe/Berlin).
FIRST=$(python3 -c "
import datetime, zoneinfo
z = zoneinfo.ZoneInfo('Europe/Berlin')
d = datetime.date(2026, 11, 23) - datetime.timedelta(days=$DAYS)
print(int(datetime.datetime(d.year, d.month, d.day, tzinfo=z).timestamp() * 1000))")

series() { # type source interval_s duration_s value_expr unit [metadata_expr]
  cat <<SQL
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $DAYS * 86400 / $3 - 1)
INSERT INTO samples(type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id, metadata, created_ms)
  SELECT (SELECT id FROM types WHERE name = '$1'), $FIRST + i * $3 * 1000, randomblob(16), $5, '$6', 3600,
         $FIRST + i * $3 * 1000 + $4 * 1000, 3600, $2, ${7:-NULL}, 1700000000000 FROM n;
SQL
}
night() { # source offset_min minutes stage_expr count
  cat <<SQL
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $DAYS * $5 - 1)
INSERT INTO samples(type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id, metadata, created_ms)
  SELECT (SELECT id FROM types WHERE name = 'sleepAnalysis'),
         $FIRST + (i / $5) * 86400000 + ($2 + (i % $5) * $3) * 60000, randomblob(16), 0, '', 3600,
         $FIRST + (i / $5) * 86400000 + ($2 + (i % $5 + 1) * $3) * 60000, 3600, $1,
         '{"sleepStage":"HKCategoryValueSleepAnalysis' || $4 || '"}', 1700000000000 FROM n;
SQL
}

count() { sqlite3 "$DB" "SELECT count(*) FROM $1"; }
WATCH="(SELECT id FROM sources WHERE name = 'Apple Watch' AND device = 'Watch')"
PHONE="(SELECT id FROM sources WHERE name = 'iPhone' AND device = 'iPhone')"
# Each part is skipped when its rows are there already (a store kept from an earlier run).
if [ "$(count samples)" -eq 0 ]; then
start=$(date +%s)
{
  echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144;"
  # The store makes a source of its own when it is opened (the person's typed-in entries): the
  # watch and the phone get ids of their own, looked up below.
  echo "INSERT OR IGNORE INTO sources(name, device) VALUES ('Apple Watch', 'Watch'), ('iPhone', 'iPhone');"
  echo "INSERT OR IGNORE INTO types(name) VALUES ('heartRate'),('stepCount'),('distanceWalkingRunning'),('activeEnergyBurned'),('sleepAnalysis');"
  echo "BEGIN;"
  series heartRate "$WATCH" 60 0 "55 + abs(random() % 60)" count/min
  series stepCount "$WATCH" 60 60 "abs(random() % 12)" count
  series stepCount "$PHONE" 300 300 "abs(random() % 50)" count
  series distanceWalkingRunning "$WATCH" 60 60 "abs(random() % 12) * 0.0007" km
  series distanceWalkingRunning "$PHONE" 300 300 "abs(random() % 50) * 0.0007" km
  series activeEnergyBurned "$WATCH" 120 120 "abs(random() % 80) / 10.0" kcal
  # The night before day i: 16 half-hour stages from 23:00 (watch), in bed 22:45–07:10 (phone).
  night "$WATCH" -60 30 "CASE i % 4 WHEN 0 THEN 'AsleepCore' WHEN 1 THEN 'AsleepDeep' WHEN 2 THEN 'AsleepCore' ELSE 'AsleepREM' END" 16
  night "$PHONE" -75 505 "'InBed'" 1
  # Rows written here bypass SampleStore.insert, which counts new rows (schema step 7): count them.
  echo "UPDATE type_counts SET queued = (SELECT count(*) FROM samples WHERE samples.type = type_counts.type AND state = 0 AND rowid > (SELECT synced_to FROM types WHERE id = type_counts.type));"
  # And, from schema step 11 (issue 44), put in line as runs: each type's rows above are consecutive.
  if [ "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_master WHERE name = 'queue_runs'")" -eq 1 ]; then
    echo "INSERT INTO queue_runs(type, first, last) SELECT type, min(rowid), max(rowid) FROM samples GROUP BY type;"
  fi
  echo "COMMIT; PRAGMA wal_checkpoint(TRUNCATE);"
} | sqlite3 "$DB" >/dev/null
echo "store: $(count samples) samples, $(du -m "$DB" | cut -f1) MB, built in $(( $(date +%s) - start )) s"
fi

# The rollups of the whole store, recomputed from the samples (a journal write would do it
# first otherwise): wall and CPU time, peak RSS.
if [ "$(count day_rollups)" -eq 0 ]; then
echo "rebuild-rollups (load $(cut -d' ' -f1 /proc/loadavg)):"
/usr/bin/time -f "  wall %e s, CPU %U + %S s, peak RSS %M KiB" "$BIN" rebuild-rollups
echo "rollups: $(sqlite3 "$DB" 'SELECT count(*) FROM day_rollups') rows (load $(cut -d' ' -f1 /proc/loadavg))"
fi

# The journal: one day through the CLI (categories, symptoms, factors, medications, reminders,
# goals, notes, measurements as the binary writes them), then that day's entries, doses and
# notes copied to each of the 364 days before it.
[ "$(count symptom_entries)" -eq 0 ] || exit 0
start=$(date +%s)
D=2026-11-22
hs symptom log headache --severity moderate --at ${D}T19:30 --aggravated-by caffeine --category head
hs symptom log nausea --severity mild --at ${D}T08:00 --category stomach --relieved-by ginger
hs symptom log fatigue --severity severe --at ${D}T15:00 --category general --note "after lunch"
hs symptom log "back pain" --severity mild --at ${D}T23:10 --category joints
hs symptom log headache --severity mild --at ${D}T10:15 --category head
hs lifestyle log coffee --amount 2 --unit cups --at ${D}T09:00
hs lifestyle log water --amount 1.5 --unit l --at ${D}T18:00
hs med add ibuprofen --dose "400 mg" --times 08:00,20:00 --directions "with food"
hs med add metformin --dose "500 mg" --times 08:00
hs med take ibuprofen --at "$D 08:05"
hs med take metformin --at "$D 08:06"
hs med take ibuprofen --at "$D 20:02"
hs remind add "Blood pressure" --times 09:00
hs remind add "Change sensor" --times 10:00 --every 14 days --kind device
hs remind add "Physio" --times 17:30 --weekdays mon,thu --kind appointment
hs remind add "Take ibuprofen" --times 08:00,20:00 --med ibuprofen
hs goal add "Walk 10,000 steps" --type stepCount --target 10000 --every day
hs goal add "Active energy 500 kcal" --type activeEnergyBurned --target 500 --every day
hs goal add "Book eye test"
hs note add "Cardiology: rhythm normal, keep the dose" --category cardiology
hs note add "Slept badly, neighbours" --category sleep
hs measure bp 128/82 --at "$D 09:00"
hs measure glucose 105 --at "$D 09:05"
sqlite3 "$DB" <<SQL
PRAGMA synchronous=OFF;
BEGIN;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 364)
INSERT INTO symptom_entries(id, symptom, category, at_ms, at_off, day, time_of_day, severity, relieved, aggravated, note,
                            origin, version, deleted, created_ms, updated_ms)
  SELECT randomblob(16), symptom, category, at_ms - i * 86400000, at_off, day - i, time_of_day, 1 + (i + severity) % 4,
         relieved, aggravated, note, origin, version, deleted, created_ms, updated_ms FROM symptom_entries, k;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 364)
INSERT INTO lifestyle_entries(id, factor, at_ms, at_off, day, time_of_day, amount, unit, level, note, version, deleted, created_ms, updated_ms)
  SELECT randomblob(16), factor, at_ms - i * 86400000, at_off, day - i, time_of_day, amount, unit, level, note, version, deleted,
         created_ms, updated_ms FROM lifestyle_entries, k;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 364)
INSERT INTO doses(medication_id, taken_ms, taken_off) SELECT medication_id, taken_ms - i * 86400000, taken_off FROM doses, k;
WITH RECURSIVE k(i) AS (SELECT 7 UNION ALL SELECT i + 7 FROM k WHERE i < 364)
INSERT INTO notes(category, text, created_ms, created_off) SELECT category, text, created_ms - i * 86400000, created_off FROM notes, k;
COMMIT;
SQL
echo "journal: $(sqlite3 "$DB" 'SELECT count(*) FROM symptom_entries') symptom entries, $(sqlite3 "$DB" 'SELECT count(*) FROM lifestyle_entries') lifestyle, $(sqlite3 "$DB" 'SELECT count(*) FROM doses') doses, $(sqlite3 "$DB" 'SELECT count(*) FROM notes') notes, $(sqlite3 "$DB" 'SELECT count(*) FROM reminders') reminders, $(sqlite3 "$DB" 'SELECT count(*) FROM goals') goals, in $(( $(date +%s) - start )) s"
