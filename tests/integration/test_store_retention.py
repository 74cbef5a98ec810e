"""Store, settings and retention with the real daemon (issues 13 and 14): delivered ids
survive pruning, the import identity covers every byte and the type filter, settings refuse
unknown values, categories cover HealthKit identifiers by family, the import is durable before
the file moves, and archive/ and failed/ are pruned."""
import datetime
import json
import os
import re
import signal
import subprocess
import time

import pytest

from conftest import BIN, wait_until


def set_gateway(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))


def old_samples(n, start=0):
    """n heart-rate samples from 2020: far older than any retention window."""
    base = datetime.datetime(2020, 3, 1, tzinfo=datetime.timezone.utc)
    return [{"type": "heartRate", "value": 50 + i % 40, "unit": "count/min",
             "startDate": (base + datetime.timedelta(hours=start + i)).strftime("%Y-%m-%dT%H:%M:%SZ"), "source": "watch"}
            for i in range(n)]


def last_import(hs, name):
    # 60 s: in one busy CI run (integration beside the fuzzers) b.json's import was not reported within 20 s.
    return wait_until(lambda: (i := hs.status()["lastImport"] or {}).get("file") == name and i, 60)


def test_a_cumulative_export_after_pruning_sends_only_the_new_sample(hs, gateway):
    set_gateway(hs, gateway)
    prune_daily = {"HEALTHSPOOL_STORE_RETENTION_DAYS": "1"}
    hs.start(env=prune_daily)
    hs.drop("export-1.json", json.dumps(old_samples(11)))
    gateway.wait_for_samples(11)
    assert wait_until(lambda: hs.status()["store"]["synced"] == 11)
    # Retention runs 5 s after start: restart so it prunes the synced samples, then wait for it.
    hs.stop()
    hs.start(env=prune_daily)
    assert wait_until(lambda: "pruned 11 synced sample(s)" in hs.read_log(), 20), hs.read_log()
    assert hs.status()["store"]["synced"] == 0
    # Next month's cumulative export: the 11 again and one new record.
    hs.drop("export-2.json", json.dumps(old_samples(12)))
    imported = last_import(hs, "export-2.json")
    assert imported["new"] == 1 and imported["duplicates"] == 11, imported
    gateway.wait_for_samples(12)
    time.sleep(1.5)  # anything re-sent would arrive within the throttle window
    assert len(gateway.sample_ids()) == 12, "the pruned samples were sent again"
    assert len(set(gateway.sample_ids())) == 12


# That the default (store.retention_days = 0) keeps synced samples of any age is
# RetentionTests.byDefaultSyncedSamplesOfAnyAgeAreKept, and that the pass runs 5 s after the start,
# RetentionServiceTests (on the service clock): a daemon here only waited 6.5 s to see nothing.


def test_a_same_length_file_with_one_value_changed_is_imported(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    rows = old_samples(3000)
    rows[1500] = {"type": "restingHeartRate", "value": 1000, "startDate": "2021-01-01T10:00:00Z", "source": "phone"}
    before = json.dumps(rows)
    after = before.replace('"value": 1000,', '"value": 1500,')
    assert len(before) == len(after) and before != after
    hs.drop("a.json", before)
    gateway.wait_for_samples(3000)
    hs.drop("b.json", after)
    imported = last_import(hs, "b.json")
    assert imported["outcome"] == "imported" and imported["new"] == 1, imported
    values = wait_until(lambda: sorted(s["value"] for s in gateway.samples if s["type"] == "restingHeartRate") == [1000, 1500])
    assert values


def test_a_file_dropped_again_after_types_enable_imports_what_was_skipped(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("types", "disable", "nutrition")
    hs.start()
    data = json.dumps([{"type": "heartRate", "value": 61, "startDate": "2026-01-01T10:00:00Z"},
                       {"type": "dietaryWater", "value": 250, "unit": "mL", "startDate": "2026-01-01T10:00:00Z"}])
    hs.drop("a.json", data)
    gateway.wait_for_samples(1)
    assert last_import(hs, "a.json")["skipped"] == 1
    hs.run("types", "enable", "nutrition")
    assert wait_until(lambda: "configuration reloaded" in hs.read_log())
    hs.drop("b.json", data)
    # The import's own line, not `status`: in one run of eight (2026-11-29) status still named
    # a.json a minute after b.json's import, beside a sync that met "disk I/O error" on the store
    # right after the reload (a bug under investigation, in the session note); that is not what
    # this test is about.
    assert wait_until(lambda: "imported b.json: 1 new, 1 duplicate" in hs.read_log(), 60), hs.read_log()[-3000:]
    assert wait_until(lambda: any(s["type"] == "dietaryWater" for s in gateway.samples))


def write_config(hs, text):
    conf = hs.home / ".config" / "healthspool" / "healthspool.conf"
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text(text)
    return conf


def test_the_list_syntax_disables_and_a_misspelling_is_refused_with_exit_78(hs):
    conf = write_config(hs, 'types.disabled = ["nutrition", "sleep"]\n')
    types = {t["name"]: t["enabled"] for t in json.loads(hs.run("types", "list", "--json").stdout)}
    assert types["dietaryWater"] is False and types["sleepAnalysis"] is False and types["heartRate"] is True
    conf.write_text("# mine\ntypes.disabled = nutrition, sleeep\n")
    for args in (["types", "list"], ["daemon"]):
        p = hs.run(*args, check=False, timeout=20)
        assert p.returncode == 78, (args, p.returncode, p.stderr)
        assert f"{conf}:2" in p.stderr and "'sleeep'" in p.stderr and "did you mean 'sleep'" in p.stderr, p.stderr
    # `status` reports the error and goes on to show the daemon (exit 3: none runs).
    p = hs.run("status", check=False)
    assert p.returncode == 3 and f"{conf}:2" in p.stdout and "did you mean 'sleep'" in p.stdout, (p.returncode, p.stdout)
    conf.write_text("log.level = verbose\n")
    p = hs.run("types", "list", check=False)
    assert p.returncode == 78 and "debug, info" in p.stderr, p.stderr
    conf.write_text("")
    p = hs.run("types", "disable", "nutriton", check=False)
    assert p.returncode == 78 and "did you mean 'nutrition'" in p.stderr, p.stderr


def test_a_reload_with_a_bad_value_keeps_the_old_configuration(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("types", "disable", "nutrition")
    hs.start()
    conf = hs.home / ".config" / "healthspool" / "healthspool.conf"
    conf.write_text(conf.read_text().replace("types.disabled = nutrition", "types.disabled = nutrtion"))
    assert wait_until(lambda: "configuration not reloaded" in hs.read_log()), hs.read_log()
    assert "nutrtion" in hs.read_log()
    hs.drop("a.json", json.dumps([{"type": "heartRate", "value": 61, "startDate": "2026-01-01T10:00:00Z"},
                                  {"type": "dietaryWater", "value": 250, "unit": "mL", "startDate": "2026-01-01T10:00:00Z"}]))
    gateway.wait_for_samples(1)
    # The CLI refuses the bad file too (exit 78), so read the outcome from the daemon's log.
    assert wait_until(lambda: "imported a.json: 1 new" in hs.read_log()), hs.read_log()
    time.sleep(1.5)
    assert [s["type"] for s in gateway.samples] == ["heartRate"]


def test_a_disabled_category_covers_identifiers_outside_the_registry(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("types", "disable", "nutrition", "HKCategoryTypeIdentifierHeadache")
    hs.start()
    hs.drop("a.json", json.dumps([
        {"type": "HKQuantityTypeIdentifierDietaryVitaminB6", "value": 1.2, "unit": "mg", "startDate": "2026-01-01T10:00:00Z"},
        {"type": "HKCategoryTypeIdentifierHeadache", "value": 1, "unit": "count", "startDate": "2026-01-01T10:00:00Z"},
        {"type": "heartRate", "value": 61, "startDate": "2026-01-01T10:00:00Z"}]))
    gateway.wait_for_samples(1)
    assert last_import(hs, "a.json")["skipped"] == 2
    time.sleep(1.5)
    assert [s["type"] for s in gateway.samples] == ["heartRate"]
    assert hs.status()["store"]["queued"] == 0


def test_the_import_is_durable_before_the_file_moves(hs):
    """strace: the WAL is synced after the file is opened and before it is renamed into archive/;
    the archive and spool directories are fsynced after the rename."""
    trace = hs.home / "strace.txt"
    hs.spool.mkdir(mode=0o700, exist_ok=True)
    proc = subprocess.Popen(["strace", "-f", "-y", "-qq", "-e", "trace=openat,fsync,fdatasync,rename,renameat,renameat2",
                             "-o", str(trace), BIN, "daemon"], env=hs.env, stdout=open(hs.log, "a"), stderr=subprocess.STDOUT)
    try:
        assert wait_until(lambda: (hs.runtime / "healthspool" / "control.sock").exists(), 30), hs.read_log()
        hs.drop("one.json", json.dumps([{"type": "heartRate", "value": 61, "startDate": "2026-01-01T10:00:00Z"}]))
        assert wait_until(lambda: (hs.spool / "archive" / "one.json").exists(), 20), hs.read_log()
        time.sleep(0.5)
    finally:
        pid = int((hs.runtime / "healthspool" / "daemon.pid").read_text().split()[0])
        os.kill(pid, signal.SIGTERM)
        proc.wait(30)
    lines = trace.read_text().splitlines()
    spool = str(hs.spool)

    def first(pattern, after=-1):
        for n, line in enumerate(lines):
            if n > after and re.search(pattern, line):
                return n
        raise AssertionError(f"no {pattern!r} after line {after} in:\n" + "\n".join(lines[-60:]))
    opened = first(r"openat\(.*" + re.escape(spool + "/one.json") + r"\"")
    synced = first(r"(fsync|fdatasync)\(\d+<[^>]*healthspool\.db-wal>\) = 0", opened)
    renamed = first(r"rename.*" + re.escape(spool + "/one.json") + r"\".*" + re.escape(spool + "/archive/one.json"))
    assert opened < synced < renamed, lines[opened:renamed + 1]
    after = lines[renamed + 1:]
    assert any(re.search(r"fsync\(\d+<" + re.escape(spool + "/archive") + r">\) = 0", l) for l in after), after[:20]
    assert any(re.search(r"fsync\(\d+<" + re.escape(spool) + r">\) = 0", l) for l in after), after[:20]


def age(path, days):
    t = time.time() - days * 86400
    os.utime(path, (t, t))


def test_archive_and_failed_are_pruned_by_age_and_size(hs):
    for d in ("archive", "failed"):
        (hs.spool / d).mkdir(parents=True, exist_ok=True)
    arch, failed = hs.spool / "archive", hs.spool / "failed"
    for name, size, days in [("ancient.zip", 100, 40), ("b-older.json", 600_000, 5), ("a-newer.json", 600_000, 4),
                             ("newest.json", 300_000, 1)]:
        (arch / name).write_bytes(b"x" * size)
        age(arch / name, days)
    for name, days in [("bad.json", 100), ("recent.json", 10)]:
        for n in (name, name + ".reason"):
            (failed / n).write_text("x")
            age(failed / n, days)
    hs.start(env={"HEALTHSPOOL_SPOOL_ARCHIVE_DAYS": "30", "HEALTHSPOOL_SPOOL_ARCHIVE_MAX_MB": "1",
                  "HEALTHSPOOL_SPOOL_FAILED_DAYS": "90"})
    assert wait_until(lambda: "removed 2 archived and 1 failed file(s)" in hs.read_log(), 20), hs.read_log()
    assert sorted(os.listdir(arch)) == ["a-newer.json", "newest.json"]
    assert sorted(os.listdir(failed)) == ["recent.json", "recent.json.reason"]
