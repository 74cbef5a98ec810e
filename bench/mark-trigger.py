#!/usr/bin/env python3
"""The cost of moving a type's mark, SQLite alone (issue 44): the sync moves its type's mark after
every delivered batch, and `type_counts`' trigger counts the rows it passes. On copies of stores
that healthspool binaries filled (one type's queue), the mark is moved N rows at a time to the end
(each in a transaction, with the runs' delete a delivery does), and the process's CPU is divided
by the rows. Variants on an after-the-runs store (schema step 11): the trigger as the store has it
(`as-is`), the trigger in a file of SQL (`--sql`, it drops the old one first), and no trigger (the
floor). A store at step 10 (before the runs) runs `as-is` only.

    bench/mark-trigger.py [--before STEP10.db] --after STEP11.db [--sql new-trigger.sql] [--rounds 3] [--batch 500]
"""
import argparse
import os
import resource
import shutil
import sqlite3
import tempfile


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run(src: str, setup: str | None, batch: int, work: str) -> tuple[float, tuple]:
    db = os.path.join(work, "t.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    shutil.copy(src, db)
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    if setup is not None:
        c.executescript(setup)
    runs = c.execute("SELECT count(*) FROM sqlite_master WHERE name = 'queue_runs'").fetchone()[0] == 1
    tid, = c.execute("SELECT type FROM type_counts ORDER BY queued DESC LIMIT 1").fetchone()
    last, = c.execute("SELECT max(rowid) FROM samples WHERE type = ?", (tid,)).fetchone()
    mark, = c.execute("SELECT synced_to FROM types WHERE id = ?", (tid,)).fetchone()
    rows = last - mark
    c.execute("SELECT count(*) FROM samples").fetchone()   # the table read into the page cache
    t = cpu()
    while mark < last:
        mark = min(mark + batch, last)
        c.execute("BEGIN IMMEDIATE")
        c.execute("UPDATE types SET synced_to = max(synced_to, ?) WHERE id = ?", (mark, tid))
        if runs:
            c.execute("DELETE FROM queue_runs WHERE type = ?1 AND last <= (SELECT synced_to FROM types WHERE id = ?1)", (tid,))
        c.execute("COMMIT")
    d = cpu() - t
    counts = c.execute("SELECT queued, synced FROM type_counts WHERE type = ?", (tid,)).fetchone()
    c.close()
    return d / rows * 1e6, counts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before")
    ap.add_argument("--after", required=True)
    ap.add_argument("--sql")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=500)
    a = ap.parse_args()
    variants = ([("before the runs, as-is", a.before, None)] if a.before else []) + [("after the runs, as-is", a.after, None)]
    if a.sql:
        variants.append((f"after the runs, {os.path.basename(a.sql)}", a.after, open(a.sql).read()))
    variants.append(("after the runs, no trigger", a.after, "DROP TRIGGER type_counts_mark_moved;"))
    with tempfile.TemporaryDirectory() as work:
        for r in range(a.rounds):
            for name, src, setup in variants:
                us, counts = run(src, setup, a.batch, work)
                print(f"round {r + 1} {name}: {us:.3f} µs a sample (queued, synced after: {counts}); "
                      f"load {open('/proc/loadavg').read().split()[0]}", flush=True)


if __name__ == "__main__":
    main()
