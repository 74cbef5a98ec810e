"""The spine, end to end: spool → SQLite → HTTPS gateway, with the real daemon binary."""
import json
import os
import stat

from conftest import samples, wait_until


def set_gateway(hs, gateway, *extra):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), *extra)


def test_dropped_files_in_place_and_by_rename_arrive_once_with_ids(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    first, second = samples(150, start=0), samples(30, start=1000)
    hs.drop("in-place.json", json.dumps(first))
    hs.drop("renamed.ndjson", "\n".join(json.dumps(s) for s in second), by_rename=True)
    got = gateway.wait_for_samples(180)
    ids = [s["id"] for s in got]
    assert len(ids) == 180 and len(set(ids)) == 180, f"expected 180 distinct samples, got {len(ids)}"
    assert all(len(i) == 36 for i in ids)
    # 150 queued, more than gateway.batch_size: one request (gateway.backlog_batch_size, 500).
    assert max(len(b["samples"]) for b in gateway.batches) <= 500
    batch = gateway.batches[0]
    assert batch["userId"] and batch["deviceId"] and batch["appVersion"] and batch["timestamp"]
    assert wait_until(lambda: sorted(os.listdir(hs.spool / "archive")) == ["in-place.json", "renamed.ndjson"])
    # The sync is recorded in history just after its samples are marked synced: wait for both.
    status = wait_until(lambda: (s := hs.status())["store"]["synced"] == 180 and s["lastSync"] and s)
    assert status["store"]["queued"] == 0
    assert status["lastSync"]["outcome"] == "success"
    assert status["daemon"]["running"] is True


def test_same_samples_dropped_again_are_stored_and_sent_once(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    data = json.dumps(samples(20))
    hs.drop("a.json", data)
    gateway.wait_for_samples(20)
    # The same samples written differently (NDJSON): parsed, every sample a duplicate.
    hs.drop("b.ndjson", "\n".join(json.dumps(s) for s in samples(20)))
    assert wait_until(lambda: (hs.status()["lastImport"] or {}).get("file") == "b.ndjson")
    st = hs.status()
    assert st["lastImport"]["new"] == 0 and st["lastImport"]["duplicates"] == 20
    # The identical bytes again: recognized without parsing.
    hs.drop("c.json", data)
    assert wait_until(lambda: (hs.status()["lastImport"] or {}).get("file") == "c.json")
    assert hs.status()["lastImport"]["outcome"] == "unchanged"
    assert wait_until(lambda: (hs.spool / "archive" / "c.json").exists())
    assert len(gateway.sample_ids()) == 20


def test_bad_file_is_quarantined_with_a_reason_and_a_later_good_file_still_goes_through(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("broken.json", '[{"type": "heartRate", "value": ')
    hs.drop("good.json", json.dumps(samples(5)))
    gateway.wait_for_samples(5)
    # The reason is written first, then the file moved beside it: wait for both.
    reason = wait_until(lambda: (hs.spool / "failed" / "broken.json").exists()
                        and (hs.spool / "failed" / "broken.json.reason").read_text())
    assert "broken.json" in reason and "reason:" in reason
    assert (hs.spool / "failed" / "broken.json").exists()
    assert not (hs.spool / "broken.json").exists()
    assert hs.daemon.poll() is None, "the daemon must keep running"
    assert len(gateway.sample_ids()) == 5


def test_a_file_with_one_bad_sample_keeps_the_good_ones_and_is_quarantined(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    rows = samples(3) + [{"type": "heartRate", "value": "abc", "startDate": "2026-01-01T00:00:00Z"}]
    hs.drop("mixed.json", json.dumps(rows))
    gateway.wait_for_samples(3)
    reason = wait_until(lambda: (hs.spool / "failed" / "mixed.json.reason").exists()
                        and (hs.spool / "failed" / "mixed.json.reason").read_text())
    assert "sample 4" in reason and "value" in reason
    assert len(gateway.sample_ids()) == 3


def test_files_present_at_start_are_imported_and_partial_names_wait_for_their_rename(hs, gateway):
    set_gateway(hs, gateway)
    hs.spool.mkdir()
    hs.drop("waiting.json", json.dumps(samples(4)))
    for name in ("upload.json.part", "x.json.tmp", ".hidden.json", "dl.json.crdownload", "y.partial"):
        hs.drop(name, json.dumps(samples(1, start=500)))
    hs.start()
    gateway.wait_for_samples(4)
    assert wait_until(lambda: (hs.spool / "archive" / "waiting.json").exists())
    assert (hs.spool / "upload.json.part").exists() and (hs.spool / ".hidden.json").exists()
    assert len(gateway.sample_ids()) == 4
    os.rename(hs.spool / "upload.json.part", hs.spool / "upload.json")
    got = gateway.wait_for_samples(5)
    assert len(got) == 5


def test_without_a_gateway_samples_stay_queued_and_status_says_how_to_set_one(hs, gateway):
    hs.start()
    hs.drop("a.json", json.dumps(samples(7)))
    st = wait_until(lambda: (s := hs.status())["store"]["queued"] == 7 and s)
    assert st["gateway"]["url"] is None
    assert "healthspool gateway set" in st["gateway"]["hint"]
    assert "gateway set" in hs.run("status").stdout
    # Setting the gateway while the daemon runs drains the queue.
    set_gateway(hs, gateway)
    assert len(gateway.wait_for_samples(7)) == 7


def test_plain_http_gateway_is_refused_with_a_reason(hs):
    p = hs.run("gateway", "set", "http://127.0.0.1:8080/ingest", check=False)
    assert p.returncode != 0
    assert "http://" in p.stderr and "TLS" in p.stderr and "https://" in p.stderr
    assert hs.status()["gateway"]["url"] is None


def test_gateway_outage_queues_and_the_queue_drains_when_it_answers(hs, gateway):
    gateway.fail_next(3, 503, b'{"error_code":50302,"message":"unavailable"}')
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("a.json", json.dumps(samples(10)))
    got = gateway.wait_for_samples(10, timeout=30)
    assert len({s["id"] for s in got}) == 10
    statuses = [r["status"] for r in gateway.requests]
    assert statuses[:3] == [503, 503, 503] and statuses[-1] == 200
    # The job's history row is written after the gateway's 200 went out: wait for it, not race it.
    history = lambda: json.loads(hs.run("history", "--json").stdout)  # noqa: E731
    hist = wait_until(lambda: (h := history()) and h[0]["outcome"] == "success" and h, 30) or history()
    assert any(h["outcome"] == "failed" and "503" in (h["error"] or "") for h in hist), hist
    assert hist[0]["outcome"] == "success", hist


def test_spool_and_store_are_private(hs, gateway):
    hs.start()
    hs.drop("a.json", json.dumps(samples(1)))
    wait_until(lambda: hs.status()["store"]["samples"] == 1)
    assert stat.S_IMODE(os.stat(hs.spool).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(hs.state / "healthspool.db").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(hs.state).st_mode) == 0o700


def test_sigterm_stops_cleanly_with_exit_status_zero(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("a.json", json.dumps(samples(3)))
    gateway.wait_for_samples(3)
    assert hs.stop() == 0
    assert "stopped" in hs.read_log()
