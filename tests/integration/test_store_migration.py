"""Schema step 11 (issue 44) in place under kill -9: the send queue moves from the per-row index
`samples_queue` to runs of row ids (`queue_runs`). A store as schema step 10 left it (made by
this binary, then taken back to step 10 the way the step 10 binary shaped it: the queue index,
the mark trigger that counts through it, no runs) is opened by `healthspool status` again and
again, each killed a little later than the one before, until one finishes. After every kill the
store is either the old one or the new one: every sample, every mark, every dead letter and every
count as they were, `PRAGMA integrity_check` ok, and at step 11 every queued row in a run of its
type. Kills that land between the step's two progress lines prove some fell mid-migration."""
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time

from conftest import BIN

TYPES = {"heartRate": "count/min", "stepCount": "count", "activeEnergyBurned": "kcal"}
ROWS = 300_000

# The mark trigger of schema steps 7 to 10, as those binaries created it.
OLD_MARK_TRIGGER = """
CREATE TRIGGER type_counts_mark_moved AFTER UPDATE OF synced_to ON types WHEN NEW.synced_to != OLD.synced_to BEGIN
    UPDATE type_counts SET
        queued = queued
            - (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > OLD.synced_to AND rowid <= NEW.synced_to)
            + (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > NEW.synced_to AND rowid <= OLD.synced_to),
        synced = synced
            + (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > OLD.synced_to AND rowid <= NEW.synced_to)
            - (SELECT count(*) FROM samples WHERE type = NEW.id AND state = 0 AND rowid > NEW.synced_to AND rowid <= OLD.synced_to)
    WHERE type = NEW.id;
END;
"""


def make_step_10_store(hs, tmp_path, rows=ROWS):
    """A store at step 10 with `rows` samples of three types in runs of 1,000 (the shape a bulk
    import leaves), each type's mark part way, some rows parked and some deleted (holes)."""
    first = tmp_path / "first.json"
    first.write_text(json.dumps([{"type": t, "value": 1, "unit": u, "startDate": "2020-01-01T00:00:00Z", "source": "watch"}
                                 for t, u in TYPES.items()]))
    hs.run("import", str(first))
    db = hs.state / "healthspool.db"
    c = sqlite3.connect(db)
    types = dict(c.execute("SELECT name, id FROM types"))
    source = c.execute("SELECT id FROM sources").fetchone()[0]
    start = c.execute("SELECT max(rowid) FROM samples").fetchone()[0] + 1
    rng = random.Random(44)
    made = []
    for i in range(rows):
        name = list(TYPES)[(i // 1000) % 3]
        ms = 1_600_000_000_000 + i * 60_000
        made.append((start + i, types[name], ms, rng.randbytes(16), float(i % 97), TYPES[name], 0, ms + 30_000, 0, source, None, 0, 1))
    with c:
        c.executemany("INSERT INTO samples(rowid, type, start_ms, id, value, unit, start_off, end_ms, end_off, source_id,"
                      " metadata, revisable, created_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", made)
        # Inserts are counted by the store, not by a trigger: count them as it would.
        for name, t in types.items():
            c.execute("UPDATE type_counts SET queued = queued + (SELECT count(*) FROM samples WHERE type = ?1 AND rowid >= ?2)"
                      " WHERE type = ?1", (t, start))
        c.execute("DELETE FROM samples WHERE rowid % 1013 = 0")
        c.execute("UPDATE samples SET state = 2, dead_reason = '42207 bad', parked_ms = 1 WHERE rowid % 997 = 0")
        for n, (name, t) in enumerate(sorted(types.items())):
            c.execute("UPDATE types SET synced_to = ? WHERE id = ?", (start + rows * (n + 1) // 4, t))
        # The rows above have no runs, so the mark trigger did not count them: count them as step 7 does.
        c.execute("""UPDATE type_counts SET
            queued = (SELECT count(*) FROM samples AS s, types AS t WHERE t.id = type_counts.type AND s.type = t.id AND s.state = 0 AND s.rowid > t.synced_to),
            synced = (SELECT count(*) FROM samples AS s, types AS t WHERE t.id = type_counts.type AND s.type = t.id AND s.state = 0 AND s.rowid <= t.synced_to),
            parked = (SELECT count(*) FROM samples AS s WHERE s.type = type_counts.type AND s.state = 2)""")
        # Back to step 10.
        c.executescript("DROP TABLE queue_runs; DROP INDEX samples_parked; DROP TRIGGER type_counts_mark_moved;"
                        " CREATE INDEX samples_queue ON samples(type, state, rowid);" + OLD_MARK_TRIGGER
                        + " PRAGMA user_version = 10;")
    c.close()
    return db


def picture(db):
    """Everything the step must keep: every sample's row, every mark, the counts."""
    c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        samples = c.execute("SELECT rowid, type, start_ms, id, value, state, dead_reason, parked_ms, version, deleted"
                            " FROM samples ORDER BY rowid").fetchall()
        marks = c.execute("SELECT id, name, synced_to FROM types ORDER BY id").fetchall()
        counts = c.execute("SELECT type, queued, synced, parked FROM type_counts ORDER BY type").fetchall()
        return samples, marks, counts
    finally:
        c.close()


def check(db, expected):
    """The store is the old one or the new one, with nothing lost; returns its step."""
    c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        step = c.execute("PRAGMA user_version").fetchone()[0]
        indexes = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if step == 10:
            assert "samples_queue" in indexes and "queue_runs" not in tables
        else:
            assert step == 11, step
            assert "samples_queue" not in indexes and "samples_parked" in indexes and "queue_runs" in tables
            uncovered = c.execute("""
                SELECT count(*) FROM samples AS s JOIN types AS t ON t.id = s.type
                WHERE s.state = 0 AND s.rowid > t.synced_to AND NOT EXISTS (
                    SELECT 1 FROM queue_runs AS r WHERE r.type = s.type AND s.rowid BETWEEN r.first AND r.last)
                """).fetchone()[0]
            assert uncovered == 0
    finally:
        c.close()
    assert picture(db) == expected
    return step


def test_the_queue_runs_step_survives_kill_9_at_any_moment(hs, tmp_path):
    template = make_step_10_store(hs, tmp_path)
    saved = tmp_path / "step10.db"
    shutil.copy(template, saved)
    expected = picture(saved)
    names = {i: name for i, name, _ in expected[1]}
    queued = {names[t]: q for t, q, _, _ in expected[2] if q}
    parked = {names[t]: p for t, _, _, p in expected[2] if p}
    assert sum(queued.values()) > 100_000
    db = hs.state / "healthspool.db"
    steps, midway, delay = [], 0, 0.0
    for attempt in range(400):
        for suffix in ("-wal", "-shm"):
            if os.path.exists(str(db) + suffix):
                os.unlink(str(db) + suffix)
        shutil.copy(saved, db)
        err = tmp_path / "status.err"
        with open(err, "w") as e:
            p = subprocess.Popen([BIN, "status", "--json"], env=hs.env, stdout=subprocess.DEVNULL, stderr=e)
            time.sleep(delay)
            finished = p.poll() is not None
            p.send_signal(signal.SIGKILL)
            p.wait()
        text = err.read_text()
        if "to schema step 11" in text and "is at schema step 11" not in text:
            midway += 1
        steps.append(check(db, expected))
        if finished:
            break
        delay += 0.02
    print(f"kills: {len(steps)}, at step 10: {steps.count(10)}, mid-way: {midway}")
    assert finished, "the migration never finished within the kills' delays"
    assert steps[-1] == 11 and 10 in steps, steps
    assert midway >= 1, f"no kill landed between the step's progress lines (steps after each kill: {steps})"
    # The migrated store's queue is what the old one's was: the same counts, and the queue read
    # through the runs holds every queued row (`status` reads the counts; the CLI's sync reads the rows).
    store = hs.status()["store"]
    assert store["queuedByType"] == queued and store["parkedByType"] == parked, store
