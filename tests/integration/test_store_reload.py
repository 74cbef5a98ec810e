"""The daemon keeps its hold on the store while the configuration is reloaded again and again
during imports and syncs, and `status` (another process) follows every import.

In test_store_retention an SQLite "disk I/O error" met the sync after a reload, and `status`
named the file imported before for a minute: the daemon had lost the POSIX locks SQLite holds on
the store (a descriptor of the store closed outside SQLite drops them all: the store's creation
did that, see SafeWrite.createEmpty), so a `status` closing its connection took the store for
its own and deleted the WAL the daemon went on writing. This test checks that hold directly after
every round: the daemon's lock on the database file (/proc/locks), and no deleted WAL or
shared-memory file among its descriptors. The second test forces the start-up interleaving that
lost it (with an LD_PRELOAD library) and fails on the build before the fix."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import wait_until


def set_gateway(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))


def rows(i):
    minute = f"{i // 60:02d}:{i % 60:02d}"
    return [{"type": "heartRate", "value": 60 + i % 30, "startDate": f"2026-01-01T{minute}:00Z"},
            {"type": "dietaryWater", "value": 100 + i, "unit": "mL", "startDate": f"2026-01-01T{minute}:00Z"}]


def store_held(hs) -> list[str]:
    """What is wrong with the daemon's hold on its store: SQLite keeps a POSIX read lock on the
    database file for as long as a connection is open in WAL mode (so that another process's
    closing connection does not take the store for its own and delete the WAL), and its WAL and
    shared-memory files must be the ones on disk."""
    db = hs.state / "healthspool.db"
    inode = os.stat(db).st_ino
    pid = hs.daemon.pid
    if open(f"/proc/{pid}/comm").read().strip() == "strace":   # HEALTHSPOOL_BIN a wrapper running the daemon under strace
        pid = int(open(f"/proc/{pid}/task/{pid}/children").read().split()[0])
    problems = []
    with open("/proc/locks") as f:
        if not any(line.split()[4] == str(pid) and line.split()[5].endswith(f":{inode}") for line in f if "POSIX" in line):
            problems.append(f"no lock of pid {pid} on {db}")
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if "healthspool.db" in target and target.endswith("(deleted)"):
            problems.append(f"fd {fd}: {target}")
    return problems


def test_reloads_during_imports_and_syncs_leave_the_store_whole_and_status_current(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    rounds = int(os.environ.get("HEALTHSPOOL_RELOAD_ROUNDS", "6"))
    for i in range(rounds):
        hs.run("types", "disable" if i % 2 else "enable", "nutrition")
        hs.drop(f"r{i}.json", json.dumps(rows(i)))
        assert wait_until(lambda: f"imported r{i}.json" in hs.read_log(), 30), hs.read_log()[-3000:]
        # `status` reads the store in another process: it must see the import the daemon logged.
        assert wait_until(lambda: (hs.status()["lastImport"] or {}).get("file") == f"r{i}.json", 10), \
            (hs.status()["lastImport"], hs.read_log()[-3000:])
        log = hs.read_log()
        assert "disk I/O error" not in log and "malformed" not in log, log[-3000:]
        assert store_held(hs) == [], (i, store_held(hs))
    assert wait_until(lambda: len([s for s in gateway.samples if s["type"] == "heartRate"]) >= rounds, 30)
    log = hs.read_log()
    assert "disk I/O error" not in log and "malformed" not in log and "SQLite code" not in log, log[-3000:]


def test_two_parts_creating_the_store_at_once_at_the_start_leave_the_daemon_holding_it(hs, tmp_path):
    # The interleaving that lost the store's lock, forced: at the start the sync coordinator and
    # the journal's scheduler both find no store (slow_store_check.c answers their checks late),
    # the second creates it after the first's SQLite connection took its lock. The creation
    # closed a descriptor of the store (FileSystem.touch), which dropped that lock; the `status`
    # below then deleted the WAL, and status named a.json after b.json was imported.
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler for the LD_PRELOAD library")
    if "ASAN_OPTIONS" in os.environ:
        pytest.skip("a sanitizer build's runtime must come first among the preloaded libraries")
    library = tmp_path / "slow_store_check.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(library), str(Path(__file__).with_name("slow_store_check.c")), "-ldl"],
                   check=True, capture_output=True)
    hs.start(env={"LD_PRELOAD": str(library)})
    assert wait_until(lambda: hs.read_log().count("slow-store-check:") == 2), hs.read_log()
    assert "slow-store-check: call 1 answered -1" in hs.read_log() and "slow-store-check: call 2 answered -1" in hs.read_log(), \
        "the checks did not both find no store: the interleaving was not forced"
    hs.drop("a.json", json.dumps(rows(1)))
    assert wait_until(lambda: "imported a.json" in hs.read_log(), 30), hs.read_log()
    assert (hs.status()["lastImport"] or {}).get("file") == "a.json"   # a `status` has opened and closed the store
    hs.drop("b.json", json.dumps(rows(2)))
    assert wait_until(lambda: "imported b.json" in hs.read_log(), 30), hs.read_log()
    assert wait_until(lambda: (hs.status()["lastImport"] or {}).get("file") == "b.json", 10), hs.status()["lastImport"]
    assert store_held(hs) == []
