#!/usr/bin/env python3
"""The cost of remembering a pruned sample's id: file-size growth of the store's `delivered`
table (schema 3: `id BLOB PRIMARY KEY, value REAL` WITHOUT ROWID, value NULL unless revisable)
per million random 16-byte ids, written in 100 prune transactions, after a WAL checkpoint.
For comparison, a rowid table keyed by the id's first 8 bytes. Usage: bench/delivered-ids.py [N]"""
import os
import sqlite3
import sys
import tempfile

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000


def measure(name, ddl, key):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "t.db")
        c = sqlite3.connect(p)
        c.execute("PRAGMA journal_mode=WAL")
        c.execute(ddl)
        c.commit()
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        base = os.path.getsize(p)
        for _ in range(100):
            c.executemany("INSERT OR IGNORE INTO delivered VALUES (?, NULL)", ((key(os.urandom(16)),) for _ in range(N // 100)))
            c.commit()
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        c.close()
        size = os.path.getsize(p)
        print(f"{name}: {(size - base) / N:.1f} bytes per id ({size - base} bytes for {N} ids)")


measure("16-byte id, WITHOUT ROWID (the store's)", "CREATE TABLE delivered(id BLOB PRIMARY KEY, value REAL) WITHOUT ROWID", lambda b: b)
measure("8-byte prefix as INTEGER PRIMARY KEY", "CREATE TABLE delivered(id INTEGER PRIMARY KEY, value REAL)",
        lambda b: int.from_bytes(b[:8], "big", signed=True))
