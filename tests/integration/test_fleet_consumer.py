"""A small fleet against one gateway and a real Kafka broker (Tansu), read by the reference
consumer of docs/fleet.md (tests/fleet_consumer.py), issue 32: whatever the daemons send twice
(answers lost to a kill -9, an outage, retries), the consumer's SQLite table holds every sample
exactly once, journal edits at their latest version and a deleted entry deleted."""
from __future__ import annotations

import json
import signal
import sys
import threading
import time
from pathlib import Path

from conftest import Healthspool, consume, samples, wait_until
from test_kafka_gateway import set_gateway

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fleet_consumer import SampleTable, consume as consume_into  # noqa: E402

DAEMONS = 6
KILLED = (2, 3)


def user(i: int) -> str:
    return f"fleet-user-{i}"


def test_a_fleet_with_an_outage_and_kill_9_ends_with_each_sample_in_the_table_exactly_once(tmp_path, make_gateway, kafka, topic):
    g = make_gateway("confluent-v2")
    fleet = []
    for i in range(DAEMONS):
        home = tmp_path / f"d{i}"
        home.mkdir()
        hs = Healthspool(home)
        hs.env.update({"HEALTHSPOOL_USER_ID": user(i), "HEALTHSPOOL_DEVICE_ID": f"fleet-device-{i}"})
        set_gateway(hs, g, topic)
        fleet.append(hs)
    expected: dict[str, int] = {user(i): 0 for i in range(DAEMONS)}

    def drop(i: int, name: str, n: int, start: int):
        fleet[i].drop(name, json.dumps(samples(n, start=start, source=f"watch-{i}")))
        expected[user(i)] += n

    try:
        # Journal entries, logged before the start: edited and deleted later, during the outage.
        entries = [json.loads(fleet[i].run("symptom", "log", "headache", "--severity", "mild", "--json").stdout) for i in (0, 1)]
        for hs in fleet:
            hs.start()
        for i in range(DAEMONS):
            drop(i, "a.json", 120, 0)
        assert wait_until(lambda: sum(1 for s in g.samples if s["type"] == "heartRate") >= 120 * DAEMONS, 60)

        # Two daemons are killed (-9) while the gateway holds their request: it produces the
        # batch into Kafka after they died, so they send it again when they are back.
        held = threading.Event()

        def hold_killed(request):
            if any(user(i).encode() in request["body"] for i in KILLED):
                held.set()
                time.sleep(3)
            return None
        g.faults.append(hold_killed)
        for i in KILLED:
            drop(i, "b.json", 80, 1000)
        assert held.wait(30), "the killed daemons' batch never reached the gateway"
        time.sleep(0.5)
        for i in KILLED:
            fleet[i].daemon.send_signal(signal.SIGKILL)
            fleet[i].daemon.wait()
            fleet[i].daemon = None
        g.faults.remove(hold_killed)

        # The gateway goes down (every request reset); exports and journal changes keep coming.
        outage = lambda request: (0, {}, b"")  # noqa: E731
        g.faults.append(outage)
        for i in range(DAEMONS):
            drop(i, "c.json", 50, 2000)
        fleet[0].run("symptom", "edit", entries[0]["id"], "--severity", "severe")
        fleet[0].run("symptom", "delete", entries[0]["id"])
        fleet[1].run("symptom", "edit", entries[1]["id"], "--severity", "severe")
        live = [hs for i, hs in enumerate(fleet) if i not in KILLED]
        assert wait_until(lambda: all(hs.status()["store"]["samples"] >= 170 for hs in live), 30)
        time.sleep(3)   # a few retry rounds against the reset
        g.faults.remove(outage)
        for i in KILLED:
            fleet[i].start()
        assert wait_until(lambda: all(hs.status()["store"]["queued"] == 0 for hs in fleet), 60), \
            [hs.status()["store"] for hs in fleet]
    finally:
        for hs in fleet:
            hs.stop()

    # Kafka holds duplicates: the kill -9 lost the answers to batches it had accepted.
    records = consume(kafka, topic, sum(expected.values()))
    heart = [(v["userId"], v["sample"]["id"]) for _, v, _ in records if v and v["sample"]["type"] == "heartRate"]
    assert len(heart) > len(set(heart)), "no duplicate reached Kafka: the kill -9 did not lose an answer"

    # The consumer crashes after its first batches and starts again from its stored offsets.
    table = SampleTable(str(tmp_path / "consumer.db"))
    first = consume_into(kafka, topic, table, idle_seconds=3, max_records=len(records) // 2)
    rest = consume_into(kafka, topic, table, idle_seconds=3)
    assert first + rest == len(records), "every record read once across the restart"

    rows = table.db.execute("SELECT user_id, id, type, version, deleted, value FROM samples").fetchall()
    got = {}
    for u, sid, t, *_ in rows:
        if t == "heartRate":
            got.setdefault(u, set()).add(sid)
    # Each sample exactly once: as many rows as distinct samples dropped, the same ids as Kafka's.
    assert {u: len(ids) for u, ids in got.items()} == expected
    assert {(u, sid) for u, ids in got.items() for sid in ids} == set(heart)
    # Journal: latest version wins; the deleted entry stays deleted.
    journal = {(u, sid): (version, deleted, value) for u, sid, t, version, deleted, value in rows
               if sid in (entries[0]["id"], entries[1]["id"])}
    assert journal[(user(0), entries[0]["id"])][1] == 1
    assert journal[(user(1), entries[1]["id"])] == (2, 0, 3)
