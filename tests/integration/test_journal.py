"""The health journal through the real CLI and daemon: entries, edits and deletes reach the test
gateway and a real Kafka topic as versions and tombstones; imported symptoms join the journal
once; purge removes it."""
import json
import time

from conftest import consume, wait_until

USER = "alice"


def set_gateway(hs, g, topic=None):
    args = ["gateway", "set", g.url, "--ca-file", str(g.certs["ca"]), "--no-test"]
    if g.mode != "json":
        args += ["--format", g.mode, "--topic", topic]
    if g.mode == "confluent-v3":
        from gateway import Gateway
        args += ["--cluster", Gateway.cluster_id]
    hs.run(*args)


def log(hs, *args):
    return json.loads(hs.run("symptom", "log", *args, "--json").stdout)


def sync(hs):
    result = json.loads(hs.run("sync", "--json", check=False).stdout or "{}")
    assert result.get("outcome") == "success", result
    return result


def test_a_symptom_logs_lists_and_scores_with_its_factors_and_category(hs):
    hs.env["TZ"] = "Europe/Berlin"
    e = log(hs, "headache", "--severity", "moderate", "--when", "evening", "--aggravated-by", "caffeine",
            "--relieved-by", "rest,dark room", "--category", "migraine", "--at", "2026-03-28T19:30", "--note", "after work")
    assert e["category"] == "migraine" and e["severity"] == "moderate" and e["weight"] == 2
    assert e["relievedBy"] == ["rest", "dark room"] and e["aggravatedBy"] == ["caffeine"]
    assert e["at"] == "2026-03-28T19:30:00.000+01:00" and e["timeOfDay"] == "evening"
    log(hs, "nausea", "--severity", "severe", "--at", "2026-03-28T08:00")
    hs.run("lifestyle", "log", "caffeine", "--amount", "2", "--unit", "cups", "--when", "morning", "--at", "2026-03-28T07:30")
    hs.run("lifestyle", "log", "stress", "--level", "high", "--at", "2026-03-28T12:00")
    day = json.loads(hs.run("journal", "2026-03-28", "--json").stdout)
    assert day["complete"] is True
    assert [s["symptom"] for s in day["symptoms"]] == ["nausea", "headache"]
    assert [(l["factor"], l.get("amount"), l.get("level")) for l in day["lifestyle"]] == [("caffeine", 2, None), ("stress", None, "high")]
    cats = {s["name"]: s["score"] for s in day["scores"]["categories"]}
    assert cats == {"All Symptoms": 3, "migraine": 2}
    assert {s["name"]: s["score"] for s in day["scores"]["symptoms"]} == {"headache": 2, "nausea": 3}
    text = hs.run("journal", "2026-03-28").stdout
    assert "Health journal for Saturday 2026-03-28" in text and "aggravated by caffeine" in text
    categories = json.loads(hs.run("symptom", "categories", "--json").stdout)
    assert {"name": "migraine", "symptoms": ["headache"]} in categories
    bad = hs.run("symptom", "log", "headache", "--severity", "awful", check=False)
    assert bad.returncode != 0 and "mild (1), moderate (2), severe (3) or debilitating (4)" in bad.stderr


def test_edits_and_deletes_reach_the_gateway_as_versions_and_a_tombstone(hs, gateway):
    set_gateway(hs, gateway)
    e = log(hs, "headache", "--severity", "mild", "--at", "2026-11-20T19:30+01:00")
    hs.run("journal", "2026-11-20")   # the day is over: its scores are computed, stored and queued
    sync(hs)
    hs.run("symptom", "edit", e["id"][:8], "--severity", "severe", "--relieved-by", "rest")
    sync(hs)
    hs.run("symptom", "delete", e["id"][:8])
    sync(hs)
    entries = [s for s in gateway.samples if s["type"] == "symptomEntry"]
    assert [(s["id"], s["version"], s.get("deleted", False), s["value"]) for s in entries] == [
        (e["id"], 1, False, 1), (e["id"], 2, False, 3), (e["id"], 3, True, 3)]
    assert entries[1]["metadata"]["relievedBy"] == ["rest"] and "hkType" not in entries[1]
    # Its scores went out too, and again after each change (0 after the delete).
    scores = [s for s in gateway.samples if s["type"] == "symptomScore" and s["metadata"]["scope"] == "symptom"]
    assert [(s["version"], s["value"]) for s in scores] == [(1, 1), (2, 3), (3, 0)], scores
    assert hs.run("symptom", "list", "--date", "2026-11-20", "--json").stdout.strip() == "[]"


def test_a_running_daemon_syncs_what_the_cli_logs(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    hs.run("lifestyle", "log", "water", "--amount", "500", "--unit", "ml")
    assert wait_until(lambda: any(s["type"] == "lifestyleEntry" for s in gateway.samples), 20), hs.read_log()
    s = next(s for s in gateway.samples if s["type"] == "lifestyleEntry")
    assert s["value"] == 500 and s["unit"] == "ml" and s["metadata"]["factor"] == "water" and s["version"] == 1


def test_imported_symptoms_join_the_journal_once(hs, gateway):
    set_gateway(hs, gateway)
    doc = {"data": {"symptoms": [{"start": "2024-02-06 10:00:00 -0800", "end": "2024-02-06 12:00:00 -0800", "name": "Headache",
                                  "severity": "Moderate", "userEntered": True, "source": "Health"}]}}
    for name in ("a.json", "b.json"):
        path = hs.home / name
        path.write_text(json.dumps(doc) + (" " if name == "b.json" else ""))   # b: another file, the same symptom
        hs.run("import", str(path), "--no-progress")
    entries = json.loads(hs.run("symptom", "list", "--date", "2024-02-06", "--json").stdout)
    assert [(e["symptom"], e["severity"], e["origin"]) for e in entries] == [("headache", "moderate", "imported")]
    sync(hs)
    assert [s["type"] for s in gateway.samples].count("symptomEntry") == 1


def test_disabled_journal_types_stay_local(hs, gateway):
    set_gateway(hs, gateway)
    hs.run("types", "disable", "journal")
    log(hs, "cough", "--severity", "mild")
    assert hs.status()["store"]["queued"] == 0
    assert len(json.loads(hs.run("symptom", "list", "--json").stdout)) == 1


def test_purge_removes_the_journal(hs):
    log(hs, "cough", "--severity", "mild")
    hs.run("purge", "--yes")
    assert json.loads(hs.run("symptom", "list", "--json").stdout) == []


def test_kafka_gets_versions_keyed_by_entry_and_a_tombstone_v2_and_v3(hs, make_gateway, kafka, topic):
    hs.env["HEALTHSPOOL_USER_ID"] = USER
    for mode, t in (("confluent-v2", topic), ("confluent-v3", topic + "-v3")):
        if mode == "confluent-v3":
            from kafka import KafkaAdminClient
            from kafka.admin import NewTopic
            admin = KafkaAdminClient(bootstrap_servers=kafka)
            admin.create_topics([NewTopic(t, 1, 1)])
            admin.close()
        g = make_gateway(mode)
        set_gateway(hs, g, t)
        hs.run("types", "disable", "symptomScore")
        e = log(hs, "fatigue", "--severity", "mild", "--when", "morning")
        sync(hs)
        hs.run("symptom", "edit", e["id"], "--severity", "moderate")
        sync(hs)
        hs.run("symptom", "delete", e["id"])
        sync(hs)
        records = [r for r in consume(kafka, t, 3) if isinstance(r[0], dict) and r[0].get("id") == e["id"]]
        assert [k for k, _, _ in records] == [{"userId": USER, "id": e["id"]}] * 3, f"{mode}: {records}"
        assert [v["sample"]["version"] if v else None for _, v, _ in records] == [1, 2, None], f"{mode}: {records}"
        assert records[2][1] is None   # the tombstone: the entry's key with a null value
        assert len({p for _, _, p in records}) == 1


def test_symptom_list_says_when_it_shows_only_the_newest_50_and_all_shows_every_one(hs):
    """Issue 26, point 6: the list showed the newest 50 without saying more exist."""
    for day in range(1, 54):
        hs.run("symptom", "log", "headache", "--severity", "mild", "--at", f"2026-01-{(day - 1) % 28 + 1:02d}T{(day - 1) // 28 + 8:02d}:00")
    lines = hs.run("symptom", "list").stdout.splitlines()
    assert lines[-1] == "showing the newest 50 of 53 entries; use --all for every one, or --date for one day", lines[-3:]
    assert len(lines) == 51
    every = hs.run("symptom", "list", "--all").stdout.splitlines()
    assert len(every) == 53 and not any(l.startswith("showing") for l in every)
    assert len(json.loads(hs.run("symptom", "list", "--all", "--json").stdout)) == 53
    # Nothing more to say when everything is shown.
    assert not hs.run("symptom", "list", "--date", "2026-01-01").stdout.splitlines()[-1].startswith("showing")
