"""The observer with the real daemon: lock flag, manual sync over the control socket, a burst
of small files, throttling per type."""
import json
import os
import stat
import time
from collections import Counter

from conftest import samples, wait_until


def set_gateway(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))


def test_lock_holds_files_and_samples_and_unlock_drains_them(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("before.json", json.dumps(samples(3)))
    gateway.wait_for_samples(3)
    hs.run("lock")
    st = wait_until(lambda: (s := hs.status())["daemon"]["state"] == "locked" and s)
    assert st["locked"] is True
    hs.drop("while-locked.json", json.dumps(samples(4, start=100)))
    time.sleep(1.5)  # give a wrongly unlocked daemon the chance to misbehave
    assert (hs.spool / "while-locked.json").exists(), "a locked daemon must not read the spool"
    assert len(gateway.sample_ids()) == 3
    st = hs.status()
    assert st["spool"]["pendingFiles"] == 1
    assert "locked" in st["daemon"]["statusLine"]
    p = hs.run("sync", check=False)
    assert p.returncode != 0 and "locked" in p.stderr
    hs.run("unlock")
    got = gateway.wait_for_samples(7)
    assert len({s["id"] for s in got}) == 7
    assert wait_until(lambda: (hs.spool / "archive" / "while-locked.json").exists())


def test_the_lock_flag_survives_a_daemon_restart(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("lock")
    hs.start()
    hs.drop("a.json", json.dumps(samples(2)))
    assert hs.stop() == 0
    hs.start()
    time.sleep(1)
    assert hs.status()["locked"] is True and (hs.spool / "a.json").exists()
    assert gateway.sample_ids() == []
    hs.run("unlock")
    assert len(gateway.wait_for_samples(2)) == 2
    assert stat.S_IMODE(os.stat(hs.state).st_mode) == 0o700


def test_manual_sync_over_the_control_socket_bypasses_the_throttle(hs, gateway):
    set_gateway(hs, gateway)
    hs.start(env={"HEALTHSPOOL_SYNC_THROTTLE_SECONDS": "3600"})
    hs.drop("a.json", json.dumps(samples(5)))
    gateway.wait_for_samples(5)
    # Once the first job has finished, a new file is inside the type's throttle window.
    assert wait_until(lambda: hs.status()["lastSync"])
    hs.drop("b.json", json.dumps(samples(6, start=100)))
    wait_until(lambda: hs.status()["store"]["queued"] == 6)
    time.sleep(1)
    assert len(gateway.sample_ids()) == 5, "inside the throttle window the second file must wait"
    sock = hs.runtime / "healthspool" / "control.sock"
    assert stat.S_IMODE(os.stat(sock).st_mode) == 0o600
    p = hs.run("sync", "--json")
    result = json.loads(p.stdout)
    assert result["outcome"] == "success" and result["sent"] == 6
    assert [r["type"] for r in result["results"]] == ["heartRate"] and result["results"][0]["durationMs"] >= 0
    assert len(set(gateway.sample_ids())) == 11
    hist = json.loads(hs.run("history", "--json").stdout)
    assert hist[0]["trigger"] == "manual"


def test_manual_sync_without_a_daemon_syncs_in_process(hs, gateway):
    set_gateway(hs, gateway)
    (hs.home / "a.json").write_text(json.dumps(samples(12)))
    out = hs.run("import", str(hs.home / "a.json"), "--json")
    assert json.loads(out.stdout)[0]["new"] == 12
    assert gateway.sample_ids() == []
    result = json.loads(hs.run("sync", "--json").stdout)
    assert result["sent"] == 12
    # The same answer as the daemon's: per type, with the job's duration.
    assert set(result["results"][0]) == {"type", "outcome", "sent", "parked", "durationMs", "error"}
    assert len(set(gateway.sample_ids())) == 12


def test_a_burst_of_a_thousand_files_delivers_each_sample_exactly_once(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    types = ["heartRate", "respiratoryRate", "oxygenSaturation"]
    units = {"heartRate": "count/min", "respiratoryRate": "count/min", "oxygenSaturation": "%"}
    expected = 0
    for i in range(1000):
        t = types[i % 3]
        rows = [dict(s, type=t, unit=units[t]) for s in samples(2, start=i * 2)]
        hs.drop(f"f{i:04d}.json", json.dumps(rows), by_rename=(i % 2 == 1))
        expected += 2
    got = gateway.wait_for_samples(expected, timeout=120)
    counts = Counter(s["id"] for s in got)
    assert len(counts) == expected, f"{len(counts)} distinct of {expected}"
    assert max(counts.values()) == 1, "a sample was sent twice in one run"
    assert wait_until(lambda: len(os.listdir(hs.spool / "archive")) == 1000, timeout=60)
    # The sync worker coalesces: far fewer requests than files.
    assert len(gateway.requests) < 300, f"{len(gateway.requests)} requests for 1000 files"
    rss_kib = int(next(l for l in open(f"/proc/{hs.daemon.pid}/status") if l.startswith("VmHWM")).split()[1])
    assert rss_kib < 128 * 1024, f"peak RSS {rss_kib} KiB"


def test_status_and_history_tell_the_same_story(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("a.json", json.dumps(samples(4)))
    gateway.wait_for_samples(4)
    st = wait_until(lambda: (s := hs.status())["lastSync"] and s)
    hist = json.loads(hs.run("history", "--json").stdout)
    assert st["lastSync"] == hist[0]
    assert hist[0]["types"] == ["heartRate"] and hist[0]["count"] == 4
    text = hs.run("history").stdout
    assert "heartRate" in text and "success" in text


def test_disabled_types_are_neither_stored_nor_sent(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("types", "disable", "cardiovascular")
    listing = json.loads(hs.run("types", "list", "--json").stdout)
    state = {t["name"]: t["enabled"] for t in listing}
    assert state["heartRate"] is False and state["stepCount"] is True
    hs.start()
    rows = samples(3) + [{"type": "bodyTemperature", "value": 36.6, "unit": "degC", "startDate": "2026-01-01T08:00:00Z"}]
    hs.drop("a.json", json.dumps(rows))
    got = gateway.wait_for_samples(1)
    assert [s["type"] for s in got] == ["bodyTemperature"]
    st = wait_until(lambda: (s := hs.status())["lastImport"] and s)
    assert st["lastImport"]["skipped"] == 3 and st["store"]["samples"] == 1
    hs.run("types", "enable", "heartRate")
    listing = {t["name"]: t["enabled"] for t in json.loads(hs.run("types", "list", "--json").stdout)}
    assert listing["heartRate"] is True and listing["restingHeartRate"] is False


def test_frequency_shows_and_sets_the_sync_and_type_frequencies(hs):
    assert "sync frequency: realtime" in hs.run("frequency").stdout
    hs.run("frequency", "manual")
    hs.run("frequency", "--type", "heartRate", "hourly")
    out = hs.run("frequency").stdout
    assert "sync frequency: manual" in out
    assert any(line.split() == ["heartRate", "hourly"] for line in out.splitlines())
    p = hs.run("frequency", "sometimes", check=False)
    assert p.returncode != 0 and "realtime, hourly, daily, manual" in p.stderr


def test_manual_sync_frequency_sends_only_when_asked(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("frequency", "manual")
    hs.start()
    hs.drop("a.json", json.dumps(samples(3)))
    wait_until(lambda: hs.status()["store"]["queued"] == 3)
    time.sleep(1.5)
    assert gateway.sample_ids() == []
    assert json.loads(hs.run("sync", "--json").stdout)["sent"] == 3


def test_history_records_how_long_a_sync_took(hs, gateway):
    set_gateway(hs, gateway)
    gateway.delay_next(1, 0.3)
    hs.start()
    hs.drop("a.json", json.dumps(samples(2)))
    gateway.wait_for_samples(2)
    st = wait_until(lambda: (s := hs.status())["lastSync"] and s)
    assert st["lastSync"]["durationMs"] >= 300
