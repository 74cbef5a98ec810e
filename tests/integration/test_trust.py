"""Issue 14, "Trust, part 2": retries, refused credentials, configuration changes, outages,
`gateway set` checks, status and secrets — with the real daemon and the real TLS test gateway."""
import json
import os
import time

from conftest import Gateway, free_port, samples, wait_until


def set_gateway(hs, gateway, *extra):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test", *extra)


def import_types(hs, n_types: int, per_type: int = 3):
    types = ["heartRate", "respiratoryRate", "restingHeartRate", "walkingHeartRateAverage", "heartRateRecoveryOneMinute"][:n_types]
    rows = []
    for i, t in enumerate(types):
        rows += [dict(s, type=t) for s in samples(per_type, start=i * 100)]
    path = hs.home / "many.json"
    path.write_text(json.dumps(rows))
    hs.run("import", str(path))
    return types


def secret_file(hs, text: str):
    path = hs.home / "gateway.key"
    path.write_text(text)
    os.chmod(path, 0o600)
    return path


def test_a_transient_401_is_retried_on_the_slow_schedule_and_an_edited_secret_at_once(hs, gateway):
    gateway.auth = ("X-API-Key", "right-9f2")
    gateway.fail_next(3, 401, b'{"message":"token not yet valid"}')
    creds = secret_file(hs, "right-9f2\n")
    set_gateway(hs, gateway, "--auth", "api-key", "--credentials-file", str(creds))
    hs.start(env={"HEALTHSPOOL_RETRY_AUTH_SECONDS": "1,2"})
    hs.drop("a.json", json.dumps(samples(10)))
    # Three 401s, each retried on the (shortened) auth schedule, then delivered.
    assert len({s["id"] for s in gateway.wait_for_samples(10, timeout=20)}) == 10, hs.read_log()
    assert gateway.statuses()[:3] == [401, 401, 401]
    assert wait_until(lambda: "gateway answers again" in hs.read_log()), hs.read_log()
    log = hs.read_log()
    assert sum("refused the credentials" in line for line in log.splitlines()) == 1, log
    assert "gateway set" not in log
    # Wrong secret now; the default schedule waits a minute; editing the file is picked up at once.
    hs.stop()
    creds.write_text("wrong\n")
    hs.start()
    hs.drop("b.json", json.dumps(samples(5, start=500)))
    assert wait_until(lambda: hs.status()["gateway"]["incident"]), hs.read_log()
    creds.write_text("right-9f2\n")
    assert len({s["id"] for s in gateway.wait_for_samples(15, timeout=10)}) == 15, hs.read_log()


def test_status_shows_the_wait_of_a_retry_after(hs, gateway):
    gateway.fail_next(1, 503, b'{"message":"busy"}', headers={"Retry-After": "40"})
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("a.json", json.dumps(samples(3)))
    st = wait_until(lambda: (s := hs.status())["gateway"]["retryInSeconds"] and s)
    # Never sooner than the 40 s asked for; spread over the next half of it (issue 32: every
    # daemon the gateway told the same thing must not come back in the same second).
    assert st and 30 <= st["gateway"]["retryInSeconds"] <= 60, st
    assert st["daemon"]["state"] == "error"
    text = hs.run("status").stdout
    assert "retrying in" in text and "503" in text


def test_gateway_set_syncs_queued_types_at_once_and_drops_the_old_error(hs, gateway, certs):
    hs.run("gateway", "set", f"https://127.0.0.1:{free_port()}", "--ca-file", str(certs["ca"]), "--no-test")
    hs.start(env={"HEALTHSPOOL_SYNC_THROTTLE_SECONDS": "3600", "HEALTHSPOOL_RETRY_BASE_SECONDS": "600",
                  "HEALTHSPOOL_RETRY_MAX_SECONDS": "600"})
    hs.drop("a.json", json.dumps(samples(8)))
    st = wait_until(lambda: (s := hs.status())["gateway"]["error"] and s)
    assert "nothing accepts connections" in st["gateway"]["error"]
    set_gateway(hs, gateway)
    # Inside the hour-long throttle window and the ten-minute backoff: sent now.
    assert len(gateway.wait_for_samples(8, timeout=10)) == 8, hs.read_log()
    # The queue empties before the sync's last step writes "success": wait for both.
    st = wait_until(lambda: (s := hs.status())["store"]["queued"] == 0 and s["gateway"]["error"] is None
                    and s["daemon"]["state"] == "success" and s)
    assert st, hs.status()


def test_an_unreachable_gateway_is_one_incident_in_the_log_history_and_sync(hs, certs):
    port = free_port()
    hs.run("gateway", "set", f"https://127.0.0.1:{port}", "--ca-file", str(certs["ca"]), "--no-test")
    types = import_types(hs, 5)
    # `sync` without a daemon: the error once, not once per type.
    p = hs.run("sync", check=False)
    assert p.returncode == 1 and p.stdout.count("nothing accepts connections") == 1, p.stdout
    hist = json.loads(hs.run("history", "--json").stdout)
    assert len(hist) == 1 and sorted(hist[0]["types"]) == sorted(types), hist
    hs.start()
    assert wait_until(lambda: len(json.loads(hs.run("history", "--json").stdout)) >= 4, 15)  # 1 + three daemon attempts
    g = Gateway(certs, port=port)
    try:
        assert len(g.wait_for_samples(15, timeout=20)) == 15, hs.read_log()
        assert wait_until(lambda: "gateway answers again" in hs.read_log())
    finally:
        g.stop()
    log = hs.read_log()
    assert log.count("gateway down") == 1 and log.count("gateway answers again") == 1, log
    failed = [h for h in json.loads(hs.run("history", "--json").stdout) if h["outcome"] == "failed"]
    # One row per attempt: each names every type it tried, and the error once.
    assert all(h["error"].count("nothing accepts connections") == 1 for h in failed)
    assert len(failed) < 2 * len(types), failed


def test_gateway_set_checks_what_it_saves_and_tests_the_gateway(hs, gateway, tmp_path):
    def refused(*args):
        p = hs.run("gateway", "set", *args, check=False)
        assert p.returncode != 0, p.stdout
        return p.stderr
    assert "invalid host 'bad host'" in refused("https://bad host/x")
    assert "invalid port '70000'" in refused("https://127.0.0.1:70000/x")
    key = tmp_path / "not-a-ca.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMG\n-----END PRIVATE KEY-----\n")
    assert "no PEM certificate" in refused(gateway.url, "--ca-file", str(key))
    assert "not a public-key pin" in refused(gateway.url, "--ca-file", str(gateway.certs["ca"]), "--pin", "abc")
    assert "needs a secret" in refused(gateway.url, "--ca-file", str(gateway.certs["ca"]), "--auth", "bearer")
    assert hs.status()["gateway"]["url"] is None, "nothing saved"
    ok = hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    assert "gateway test: ok" in ok.stdout
    offline = hs.run("gateway", "set", f"https://127.0.0.1:{free_port()}/x", "--ca-file", str(gateway.certs["ca"]))
    assert offline.returncode == 0 and "warning" in offline.stderr and "nothing accepts connections" in offline.stderr


def test_status_shows_progress_exits_3_without_a_daemon_and_names_a_config_error(hs, gateway):
    set_gateway(hs, gateway)
    p = hs.run("status", check=False)
    assert p.returncode == 3 and "not running" in p.stdout
    gateway.delay_next(3, 1.0)
    hs.start(env={"HEALTHSPOOL_GATEWAY_BATCH_SIZE": "10", "HEALTHSPOOL_GATEWAY_BACKLOG_BATCH_SIZE": "10"})
    hs.drop("a.json", json.dumps(samples(40)))
    st = wait_until(lambda: (s := hs.status())["syncing"] and s["syncing"][0]["sent"] > 0 and s, 15)
    assert st and st["daemon"]["state"] == "syncing" and st["syncing"][0]["type"] == "heartRate", st
    assert "syncing:" in hs.run("status").stdout or True  # the text may already be past it
    assert wait_until(lambda: hs.status()["daemon"]["state"] == "success", 20)
    conf = hs.home / ".config" / "healthspool" / "healthspool.conf"
    conf.write_text(conf.read_text() + "sync.frequency = sometimes\n")
    line = len(conf.read_text().splitlines())
    st = wait_until(lambda: (s := hs.status())["config"]["error"] and s)
    assert st and f"healthspool.conf:{line}" in st["config"]["error"] and st["daemon"]["running"] is True
    text = hs.run("status").stdout
    assert f"healthspool.conf:{line}" in text and "previous configuration" in text and "running (pid" in text
    hs.drop("b.json", json.dumps(samples(2, start=900)))
    assert len(gateway.wait_for_samples(42, timeout=15)) == 42, "the daemon keeps working on its old configuration"


def test_a_secret_with_a_line_break_is_refused_naming_the_file(hs, gateway):
    creds = secret_file(hs, "tok-1\r\nX-Injected: yes\n")
    p = hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--auth", "bearer",
               "--credentials-file", str(creds), check=False)
    assert p.returncode != 0 and str(creds) in p.stderr and "control character" in p.stderr
    # Written after `gateway set`: the daemon refuses it too, and no request carries the header.
    creds.write_text("tok-1\n")
    set_gateway(hs, gateway, "--auth", "bearer", "--credentials-file", str(creds))
    creds.write_text("tok-1\nX-Injected: yes\n")
    hs.start()
    hs.drop("a.json", json.dumps(samples(2)))
    st = wait_until(lambda: (s := hs.status())["gateway"]["stoppedReason"] and s)
    assert st and str(creds) in st["gateway"]["stoppedReason"] and "control character" in st["gateway"]["stoppedReason"]
    assert gateway.requests == []
