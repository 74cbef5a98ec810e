"""Journal commands while the daemon imports and syncs: they wait for its write lock as a person
would, and when they cannot save they say so plainly, never with SQLite's own words (issue 26,
point 5). The real daemon binary importing a generated Apple Health export (bench/generate-
export.py, HS_LOAD_EXPORT_MB, 150 MB by default: with 40 MB the import could end before the
commands did) and syncing to the TLS test gateway, 250 journal commands from 16 threads, and a
kill -9 of the daemon part way through (restarted at once, so the import goes on)."""
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

from conftest import BIN, wait_until

ROOT = Path(__file__).resolve().parent.parent.parent
COMMANDS = 250
THREADS = 16
RAW = ("sqlite", "database is locked", "code 5", "storeerror")


def store_samples(hs) -> int:
    return hs.status()["store"]["samples"]


def command(i: int) -> tuple[list[str], str]:
    """The i-th command and what identifies its entry: a symptom with its own note, or a blood
    oxygen reading at its own minute of 2019 (before every sample of the export)."""
    at = datetime(2019, 1, 1, tzinfo=timezone.utc) + timedelta(minutes=i)
    if i % 3 == 0:
        return ["measure", "spo2", "97", "--at", at.strftime("%Y-%m-%d %H:%M")], str(int(at.timestamp() * 1000))
    return ["symptom", "log", "headache", "--severity", "mild", "--note", f"contention-{i}"], f"contention-{i}"


def test_journal_commands_during_an_import_and_a_kill_wait_or_say_plainly_they_were_not_saved(hs, gateway, tmp_path):
    size_mb = float(os.environ.get("HS_LOAD_EXPORT_MB", "150"))
    out = tmp_path / "export"
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate-export.py"), "--size-mb", str(size_mb), "--out", str(out)],
                   check=True, capture_output=True)
    hs.env["TZ"] = "UTC"
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    hs.start()
    hs.drop("export.zip", (out / "export.zip").read_bytes(), by_rename=True)
    assert wait_until(lambda: store_samples(hs) > 0, 60), hs.read_log()
    assert (hs.spool / "export.zip").exists(), "the import finished before the commands: make HS_LOAD_EXPORT_MB larger"

    done = threading.Semaphore(0)
    took: list[float] = []
    killed = threading.Event()

    def run(i: int):
        args, key = command(i)
        t0 = time.monotonic()
        p = subprocess.run([BIN, *args], env=hs.env, capture_output=True, text=True, timeout=120)
        took.append(time.monotonic() - t0)
        done.release()
        return i, args, key, p

    def kill_part_way():
        for _ in range(COMMANDS // 3):
            done.acquire()
        hs.daemon.send_signal(signal.SIGKILL)
        hs.daemon.wait(10)
        killed.set()
        hs.start()   # the export is still in the spool: the import starts again

    killer = threading.Thread(target=kill_part_way)
    killer.start()
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(run, range(COMMANDS)))
    killer.join(60)
    assert killed.is_set(), "the daemon was not killed"
    import_went_on = (hs.spool / "export.zip").exists() or "imported export.zip" in hs.read_log()
    print(f"commands done; the export {'is still' if (hs.spool / 'export.zip').exists() else 'is no longer'} in the spool")

    raw = [(a, p.returncode, p.stdout + p.stderr) for _, a, _, p in results
           if any(w in (p.stdout + p.stderr).lower() for w in RAW)]
    assert raw == [], f"{len(raw)} of {COMMANDS} commands showed a raw SQLite error, e.g. {raw[:3]}"
    failed = [(a, p.returncode, p.stderr) for _, a, _, p in results if p.returncode != 0]
    assert all(code == 1 and "Not saved" in err and "try again" in err for _, code, err in failed), failed

    db = sqlite3.connect(f"file:{hs.state / 'healthspool.db'}?mode=ro", uri=True, timeout=30)
    notes = dict(db.execute("SELECT note, count(*) FROM symptom_entries WHERE note LIKE 'contention-%' GROUP BY note").fetchall())
    readings = dict(db.execute("SELECT start_ms, count(*) FROM samples WHERE value = 97 AND start_ms < ? GROUP BY start_ms",
                               (int(datetime(2020, 1, 1, tzinfo=timezone.utc).timestamp() * 1000),)).fetchall())
    db.close()
    stored = {**notes, **{str(k): v for k, v in readings.items()}}
    for _, args, key, p in results:
        if p.returncode == 0:
            assert stored.get(key) == 1, f"{args} succeeded but is stored {stored.get(key, 0)} times"
        else:
            assert key not in stored, f"{args} said it was not saved, yet it is stored"
    assert import_went_on
    took.sort()
    print(f"{COMMANDS - len(failed)} saved, {len(failed)} refused plainly; "
          f"a command took {took[len(took) // 2]:.2f} s (median), {took[-1]:.2f} s at most")
