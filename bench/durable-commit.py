#!/usr/bin/env python3
"""What a durable import commit costs: the time of one small import transaction (a few
samples and the imports row, as a small spool file gives) in WAL mode with synchronous=NORMAL
against FULL (the WAL fsynced at commit), on the file system of the directory given (default:
~/.local/state, where the store lives). Usage: bench/durable-commit.py [DIR] [COMMITS]"""
import os
import sqlite3
import sys
import tempfile
import time

root = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.local/state")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
os.makedirs(root, exist_ok=True)
for mode in ("NORMAL", "FULL", "NORMAL", "FULL"):
    with tempfile.TemporaryDirectory(dir=root) as d:
        c = sqlite3.connect(os.path.join(d, "t.db"), isolation_level=None)
        c.execute("PRAGMA journal_mode=WAL")
        c.execute(f"PRAGMA synchronous={mode}")
        c.execute("CREATE TABLE s(id BLOB PRIMARY KEY, v REAL) WITHOUT ROWID")
        c.execute("CREATE TABLE imports(id INTEGER PRIMARY KEY, f TEXT)")
        start = time.perf_counter()
        for i in range(n):
            c.execute("BEGIN IMMEDIATE")
            c.executemany("INSERT INTO s VALUES (?, ?)", ((os.urandom(16), 1.0) for _ in range(5)))
            c.execute("COMMIT")
            c.execute("INSERT INTO imports(f) VALUES ('x.json')")  # its own commit, as recordImport
        ms = (time.perf_counter() - start) * 1000 / n
        print(f"synchronous={mode}: {ms:.2f} ms per import (2 commits)")
        c.close()
