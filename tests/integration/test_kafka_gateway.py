"""Delivery to a Kafka REST proxy, proven against a real Kafka broker (Tansu): the test gateway
speaks Confluent REST Proxy v2/v3 and produces what it accepts into Kafka; the tests consume the
topic and check that every sample arrived, keyed by user id, whatever faults came first."""
import base64
import json
import os
import time

from conftest import consume, samples, wait_until
from gateway import Gateway

USER = "alice"


def set_gateway(hs, g, topic=None, *extra):
    # --no-test: these tests count the gateway's requests; test_trust.py covers the probe of `set`.
    args = ["gateway", "set", g.url, "--ca-file", str(g.certs["ca"]), "--no-test"]
    if g.mode != "json":
        args += ["--format", g.mode, "--topic", topic]
    if g.mode == "confluent-v3":
        args += ["--cluster", Gateway.cluster_id]
    hs.run(*args, *extra)


def import_samples(hs, rows, name="batch.json"):
    path = hs.home / name
    path.write_text(json.dumps(rows))
    hs.run("import", str(path), "--no-progress")


def sync(hs, *args, env=None):
    return json.loads(hs.run("sync", "--json", *args, check=False, env=env).stdout or "{}")


def kafka_ids(kafka, topic, at_least):
    records = consume(kafka, topic, at_least)
    return records, [v["sample"]["id"] for _, v, _ in records]


def test_every_sample_reaches_kafka_keyed_by_user_v2_and_v3(hs, make_gateway, kafka, topic):
    hs.env["HEALTHSPOOL_USER_ID"] = USER
    steps = [dict(r, unit="count") for r in samples(70, type_="stepCount", start=5000)]
    rows = samples(230) + steps
    for mode, t in (("confluent-v2", topic), ("confluent-v3", topic + "-v3")):
        if mode == "confluent-v3":
            from kafka import KafkaAdminClient
            from kafka.admin import NewTopic
            admin = KafkaAdminClient(bootstrap_servers=kafka)
            admin.create_topics([NewTopic(t, 3, 1)])
            admin.close()
            hs.run("purge", "--yes")
        g = make_gateway(mode)
        set_gateway(hs, g, t)
        import_samples(hs, rows)
        result = sync(hs)
        assert result["outcome"] == "success", result
        records, ids = kafka_ids(kafka, t, 300)
        assert len(ids) == 300 and len(set(ids)) == 300, f"{mode}: {len(ids)} records, {len(set(ids))} distinct"
        assert set(ids) == set(g.sample_ids())
        # Keyed by user id (JSON text, as the REST proxy's JSON embedded format writes it), so one
        # user's samples share a partition.
        assert {k for k, _, _ in records} == {USER}
        assert len({p for _, _, p in records}) == 1
        value = records[0][1]
        assert value["userId"] == USER and value["deviceId"] and value["appVersion"] and value["timestamp"]
        assert {"id", "type", "value", "unit", "startDate", "endDate", "source"} <= set(value["sample"])
        assert {v["sample"]["type"] for _, v, _ in records} == {"heartRate", "stepCount"}
        assert hs.status()["store"]["queued"] == 0


def test_transient_failures_are_retried_and_kafka_gets_every_sample_without_gaps(hs, make_gateway, kafka, topic):
    g = make_gateway("confluent-v2")
    g.fail_next(1, 500, b'{"error_code":50001,"message":"Internal Server Error"}')
    g.fail_next(1, 503, b'{"error_code":50302,"message":"Broker not available"}', {"Retry-After": "3"})
    g.fail_next(1, 429, b"<html><body><h1>429 Too Many Requests</h1></body></html>", {"Retry-After": "2"})
    g.fail_next(1, 0)  # connection reset
    set_gateway(hs, g, topic)
    rows = samples(120)
    hs.start()
    hs.drop("a.json", json.dumps(rows))
    # Per-record 50003 inside a 200: those records are retried, the rest marked synced.
    assert wait_until(lambda: hs.status()["store"]["samples"] == 120)
    g.fail_record(None, 50003, "Retriable Kafka error: NOT_ENOUGH_REPLICAS", times=7)
    # Up to six failures in a row (four requests, then the records' retries) wait 1+2+4+8+16+32 s
    # with the doubling delay: more than a minute when a busy machine puts them in a row.
    got = g.wait_for_samples(120, timeout=150)
    assert len({s["id"] for s in got}) == 120
    records, ids = kafka_ids(kafka, topic, 120)
    assert set(ids) == {s["id"] for s in got}, "every sample in Kafka: no gap"
    assert len(ids) == len(got), "Kafka holds what the gateway acknowledged, duplicates only with the same id"
    statuses = g.statuses()
    assert statuses[:4] == [500, 503, 429, 0], statuses
    times = [r["time"] for r in g.requests]
    assert times[2] - times[1] >= 2.8, "Retry-After: 3 on the 503 was honoured"
    assert times[3] - times[2] >= 1.8, "Retry-After: 2 on the HTML 429 was honoured"
    st = wait_until(lambda: (s := hs.status())["store"]["synced"] == 120 and s)
    assert st["store"]["queued"] == 0 and st["store"]["parked"] == 0
    history = json.loads(hs.run("history", "--json").stdout)
    errors = " ".join(h["error"] or "" for h in history)
    # (The reset needs no history entry: libcurl re-sends a request whose reused connection died
    # before any answer, on a fresh connection.)
    assert "503" in errors and "429" in errors and "50003" in errors


def test_a_poisoned_sample_is_parked_and_the_rest_delivered_then_resent_on_request(hs, make_gateway, kafka, topic):
    g = make_gateway("confluent-v2")
    set_gateway(hs, g, topic)
    import_samples(hs, samples(100))
    assert json.loads(hs.run("dead-letters", "--json").stdout) == []
    # The 38th sample of the first request is poisoned: any request carrying it gets 422/42207.
    target = {}

    def capture(request):
        if not target:
            body = json.loads(request["body"])
            target["id"] = body["records"][37]["value"]["sample"]["id"]
        return None
    g.faults.append(capture)
    g.faults.append(lambda r: (422, {}, b'{"error_code":42207,"message":"Validation error: value does not match schema"}')
                    if target and target["id"].encode() in r["body"] else None)
    result = sync(hs)
    assert result["outcome"] == "partial", result
    assert result["results"][0]["parked"] == 1
    records, ids = kafka_ids(kafka, topic, 99)
    assert len(set(ids)) == 99 and target["id"] not in ids
    st = hs.status()
    assert st["store"]["parked"] == 1 and st["store"]["queued"] == 0 and st["store"]["synced"] == 99
    assert st["store"]["parkedByType"] == {"heartRate": 1}
    dead = json.loads(hs.run("dead-letters", "--json").stdout)
    assert [d["id"] for d in dead] == [target["id"]] and "42207" in dead[0]["reason"]
    history = json.loads(hs.run("history", "--json").stdout)
    assert history[0]["outcome"] == "partial" and "parked 1 sample(s)" in history[0]["error"] and "42207" in history[0]["error"]
    # Narrowing stays cheap: log2(100) rounds, not one request per sample.
    assert len(g.requests) <= 16, len(g.requests)
    # The gateway is fixed; the dead letter is re-sent on request.
    g.faults.clear()
    assert "1 sample(s) queued again" in hs.run("dead-letters", "--retry").stdout
    assert sync(hs)["outcome"] == "success"
    records, ids = kafka_ids(kafka, topic, 100)
    assert len(set(ids)) == 100 and target["id"] in ids


def test_v3_per_record_reports_park_bad_records_and_retry_retriable_ones(hs, make_gateway, kafka, topic):
    g = make_gateway("confluent-v3")
    set_gateway(hs, g, topic)
    import_samples(hs, samples(50))
    order = []
    g.faults.append(lambda r: order.append([json.loads(line)["value"]["data"]["sample"]["id"]
                                            for line in r["body"].decode().splitlines()]) or None)
    first = sync(hs, env={"HEALTHSPOOL_GATEWAY_BATCH_SIZE": "500"})
    assert first["outcome"] == "success"
    ids = order[0]
    hs.run("purge", "--yes")
    g.record_faults.clear()
    bad, flaky = ids[10], ids[20]
    g.fail_record(bad, 400, "Bad Request: Unrecognized field")
    g.fail_record(flaky, 500, "Internal Server Error", times=1)
    t2 = topic + "-again"
    from kafka import KafkaAdminClient
    from kafka.admin import NewTopic
    admin = KafkaAdminClient(bootstrap_servers=kafka)
    admin.create_topics([NewTopic(t2, 3, 1)])
    admin.close()
    set_gateway(hs, g, t2)
    import_samples(hs, samples(50))
    r1 = sync(hs)
    assert r1["results"][0]["parked"] == 1 and r1["results"][0]["sent"] == 48, r1
    r2 = sync(hs)
    assert r2["outcome"] == "success" and r2["sent"] == 1
    _, got = kafka_ids(kafka, t2, 49)
    assert len(set(got)) == 49 and bad not in got and flaky in got
    dead = json.loads(hs.run("dead-letters", "--json").stdout)
    assert [d["id"] for d in dead] == [bad] and "400" in dead[0]["reason"]


def test_401_waits_on_the_slow_schedule_says_so_and_recovers_after_gateway_set(hs, make_gateway, kafka, topic):
    right, wrong = "right-secret-4f9c2a", "wrong-secret-77ab01"
    g = make_gateway("confluent-v2", auth=("X-API-Key", right))
    creds = hs.home / "gateway.key"
    creds.write_text(wrong + "\n")
    os.chmod(creds, 0o600)
    set_gateway(hs, g, topic, "--auth", "api-key", "--credentials-file", str(creds))
    hs.start()
    hs.drop("a.json", json.dumps(samples(30)))
    st = wait_until(lambda: (s := hs.status())["gateway"]["incident"] and s)
    assert st, hs.read_log()
    assert "credentials" in st["gateway"]["error"] and "401" in st["gateway"]["error"]
    assert st["gateway"]["incident"]["kind"] == "unauthorized" and 50 <= st["gateway"]["retryInSeconds"] <= 60
    assert "retrying in" in hs.run("status").stdout
    n = len(g.requests)
    time.sleep(3)  # backoff windows are 1–2 s in tests; refused credentials wait a minute
    assert len(g.requests) == n, "no quick retries after 401"
    assert st["store"]["queued"] == 30
    creds.write_text(right + "\n")
    set_gateway(hs, g, topic, "--auth", "api-key", "--credentials-file", str(creds))
    assert len({s["id"] for s in g.wait_for_samples(30)}) == 30
    _, ids = kafka_ids(kafka, topic, 30)
    assert len(set(ids)) == 30
    assert wait_until(lambda: hs.status()["gateway"]["error"] is None)
    # Secrets never show up in the log, status, history or the config file.
    texts = [hs.read_log(), hs.run("status").stdout, hs.run("status", "--json").stdout, hs.run("history", "--json").stdout,
             hs.run("gateway", "show").stdout, (hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()]
    for text in texts:
        assert right not in text and wrong not in text


def test_basic_and_bearer_auth_send_the_right_header(hs, gateway):
    creds = hs.home / "secret"
    for scheme, secret, header in (("basic", "ann:pa55", "Basic " + base64.b64encode(b"ann:pa55").decode()),
                                   ("bearer", "tok-123", "Bearer tok-123")):
        gateway.auth = ("Authorization", header)
        creds.write_text(secret)
        os.chmod(creds, 0o600)
        hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test", "--auth", scheme,
               "--credentials-file", str(creds))
        hs.run("purge", "--yes")
        import_samples(hs, samples(3))
        assert sync(hs)["outcome"] == "success", scheme
    assert gateway.statuses() == [200, 200]
    # systemd credentials: $CREDENTIALS_DIRECTORY/healthspool-gateway, no file in the config.
    gateway.auth = ("X-API-Key", "from-systemd-9d1e")
    creds_dir = hs.home / "credentials"
    creds_dir.mkdir()
    (creds_dir / "healthspool-gateway").write_text("from-systemd-9d1e\n")
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test", "--auth", "api-key")
    hs.run("purge", "--yes")
    import_samples(hs, samples(2, start=100))
    assert sync(hs, env={"CREDENTIALS_DIRECTORY": str(creds_dir)})["outcome"] == "success"
    assert "from-systemd" not in (hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()
    # A credentials file others can read is refused.
    os.chmod(creds, 0o644)
    p = hs.run("gateway", "set", gateway.url, "--auth", "bearer", "--credentials-file", str(creds), check=False)
    assert p.returncode != 0 and "chmod 600" in p.stderr


def test_a_slow_answer_times_out_is_retried_and_leaves_at_most_duplicates(hs, make_gateway, kafka, topic):
    g = make_gateway("confluent-v2")
    g.delay_next(1, 3.5)
    set_gateway(hs, g, topic)
    hs.start(env={"HEALTHSPOOL_GATEWAY_TIMEOUT": "2"})
    hs.drop("a.json", json.dumps(samples(40)))
    assert wait_until(lambda: hs.status()["store"]["synced"] == 40, 30)
    records, ids = kafka_ids(kafka, topic, 40)
    # The slow request was produced after healthspool gave up on it: a duplicate, same ids.
    assert set(ids) == set(g.sample_ids()) and len(set(ids)) == 40
    history = json.loads(hs.run("history", "--json").stdout)
    assert any("did not answer in time" in (h["error"] or "") for h in history)


def test_gateway_down_keeps_samples_queued_and_the_queue_drains_when_it_is_back(hs, certs, kafka, topic):
    from conftest import free_port
    port = free_port()
    url = f"https://127.0.0.1:{port}"
    hs.run("gateway", "set", url, "--ca-file", str(certs["ca"]), "--format", "confluent-v2", "--topic", topic)
    hs.start()
    hs.drop("a.json", json.dumps(samples(25)))
    st = wait_until(lambda: (s := hs.status())["store"]["samples"] == 25 and s["gateway"]["error"] and s)
    assert st["store"]["queued"] == 25 and "nothing accepts connections" in st["gateway"]["error"]
    g = Gateway(certs, mode="confluent-v2", kafka_bootstrap=kafka, port=port)
    try:
        assert len({s["id"] for s in g.wait_for_samples(25, timeout=30)}) == 25
        _, ids = kafka_ids(kafka, topic, 25)
        assert len(set(ids)) == 25
    finally:
        g.stop()


def test_wrong_pin_is_refused_and_the_right_pin_works(hs, gateway):
    wrong = "sha256//" + base64.b64encode(b"\x00" * 32).decode()
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--pin", wrong)
    import_samples(hs, samples(5))
    result = sync(hs)
    assert result["outcome"] == "failed"
    assert "does not match gateway.pin" in result["results"][0]["error"]
    assert gateway.requests == []
    test = hs.run("gateway", "test", check=False)
    assert test.returncode == 1 and "gateway.pin" in test.stdout
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--pin", gateway.certs["pin"])
    assert sync(hs)["outcome"] == "success"
    assert len(gateway.sample_ids()) == 5


def test_system_cas_refuse_a_private_ca_and_mutual_tls_needs_the_client_certificate(hs, certs):
    g = Gateway(certs, client_ca=str(certs["ca"]))
    try:
        hs.run("gateway", "set", g.url)  # system CAs only
        import_samples(hs, samples(4))
        r = sync(hs)
        assert r["outcome"] == "failed" and "not trusted" in r["results"][0]["error"]
        hs.run("gateway", "set", g.url, "--ca-file", str(certs["ca"]))
        r = sync(hs)
        assert r["outcome"] == "failed" and g.sample_ids() == []
        hs.run("gateway", "set", g.url, "--ca-file", str(certs["ca"]), "--client-cert", str(certs["client_cert"]),
               "--client-key", str(certs["client_key"]))
        assert sync(hs)["outcome"] == "success"
        assert len(g.sample_ids()) == 4
    finally:
        g.stop()


def test_gzip_bodies_and_one_keepalive_connection_per_sender(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test")
    import_samples(hs, samples(500))
    # Batches of 100 even for this backlog (gateway.backlog_batch_size would send one of 500).
    small = {"HEALTHSPOOL_GATEWAY_BACKLOG_BATCH_SIZE": "100"}
    assert sync(hs, "--set", "gateway.gzip=true", env=small)["outcome"] == "success"
    assert len(gateway.requests) == 5 and {r["encoding"] for r in gateway.requests} == {"gzip"}
    assert gateway.connections == 1, "five requests over one kept-alive connection"
    hs.run("purge", "--yes")
    import_samples(hs, samples(500, start=9000))
    before = gateway.connections
    assert sync(hs, "--set", "gateway.keepalive=false", env=small)["outcome"] == "success"
    assert gateway.connections - before == 5
    assert len(set(gateway.sample_ids())) == 1000


def test_gateway_test_checks_reachability_tls_auth_and_topic_in_one_sentence(hs, make_gateway, kafka, topic, certs):
    v2 = make_gateway("confluent-v2")
    set_gateway(hs, v2, topic)
    ok = hs.run("gateway", "test")
    assert "ok" in ok.stdout and f"topic '{topic}' exists" in ok.stdout
    set_gateway(hs, v2, "no-such-topic")
    p = hs.run("gateway", "test", check=False)
    assert p.returncode == 1 and "topic 'no-such-topic' does not exist" in p.stdout and "--topic" in p.stdout
    v3 = make_gateway("confluent-v3")
    set_gateway(hs, v3, topic)
    assert "exists" in hs.run("gateway", "test").stdout
    hs.run("gateway", "set", v3.url, "--ca-file", str(certs["ca"]), "--format", "confluent-v3", "--topic", topic,
           "--cluster", "wrong-cluster")
    p = hs.run("gateway", "test", check=False)
    assert p.returncode == 1 and "no Kafka cluster 'wrong-cluster'" in p.stdout and Gateway.cluster_id in p.stdout
    locked = make_gateway("confluent-v2", auth=("X-API-Key", "k"))
    set_gateway(hs, locked, topic)
    p = hs.run("gateway", "test", check=False)
    assert p.returncode == 1 and "refused the credentials" in p.stdout and "--auth" in p.stdout
    from conftest import free_port
    hs.run("gateway", "set", f"https://127.0.0.1:{free_port()}", "--ca-file", str(certs["ca"]))
    p = hs.run("gateway", "test", check=False)
    assert p.returncode == 1 and "nothing accepts connections" in p.stdout
    for out in (ok.stdout, p.stdout):
        assert out.count("\n") == 1, "one sentence"
