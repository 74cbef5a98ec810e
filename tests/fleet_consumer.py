"""A reference consumer of healthspool's Kafka topic (docs/fleet.md): keeps a SQLite table of
samples exactly once by id, whatever the daemons sent twice.

healthspool delivers at least once: a batch the gateway accepted but whose answer was lost (a
reset, a timeout, the daemon killed) is sent again, and Kafka then holds the record twice.
Every record carries a stable id, so the consumer makes the table exactly-once:

- the row's key is (userId, id): ids are stable per user (a sample's derives from its content,
  a journal score's from its day and name), not across users;
- latest version wins: journal records carry `version` (1, 2, … one more at each edit);
  measurements carry none (0) and never change, so a repeat is the same row again;
- a tombstone (a record with a null value, keyed {"userId", "id"}; in the `json` format the
  last state with `"deleted": true`) marks the row deleted for good: a deleted journal entry is
  never edited again, so the row stays as a marker with the highest version, and an older
  version that arrives late (sent again after a lost answer) cannot bring it back;
- the Kafka offsets are stored in the same SQLite transaction as the rows they produced, and
  the consumer starts from them: a crash between the two cannot apply a record twice or skip
  one.

    python3 tests/fleet_consumer.py --bootstrap 127.0.0.1:9092 --topic health-samples --db samples.db
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS samples (
    user_id    TEXT NOT NULL,
    id         TEXT NOT NULL,
    version    INTEGER NOT NULL,
    type       TEXT,
    value      REAL,
    unit       TEXT,
    start_date TEXT,
    end_date   TEXT,
    device_id  TEXT,
    deleted    INTEGER NOT NULL DEFAULT 0,
    record     TEXT,
    PRIMARY KEY (user_id, id)
);
CREATE TABLE IF NOT EXISTS offsets (
    topic       TEXT NOT NULL,
    partition   INTEGER NOT NULL,
    next_offset INTEGER NOT NULL,
    PRIMARY KEY (topic, partition)
);
"""


# The version of a deleted row: higher than any edit's.
FINAL = 1 << 62


class SampleTable:
    """The SQLite side: applies records and remembers the offsets, one transaction per batch."""

    def __init__(self, path: str):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)

    def offsets(self, topic: str) -> dict[int, int]:
        return dict(self.db.execute("SELECT partition, next_offset FROM offsets WHERE topic = ?", (topic,)))

    def apply(self, topic: str, records) -> int:
        """Applies (partition, offset, key, value) records and their offsets atomically.
        Returns how many changed a row."""
        changed = 0
        self.db.execute("BEGIN IMMEDIATE")
        try:
            last: dict[int, int] = {}
            for partition, offset, key, value in records:
                changed += self._apply_one(key, value)
                last[partition] = offset + 1
            for partition, nxt in last.items():
                self.db.execute("INSERT INTO offsets VALUES (?, ?, ?) ON CONFLICT (topic, partition) DO UPDATE "
                                "SET next_offset = excluded.next_offset", (topic, partition, nxt))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return changed

    def _apply_one(self, key, value) -> int:
        if value is None:
            # A tombstone: keyed {"userId", "id"}. The row stays, deleted, with the final version.
            if not isinstance(key, dict):
                return 0
            cur = self.db.execute(
                "INSERT INTO samples (user_id, id, version, deleted) VALUES (?, ?, ?, 1) "
                "ON CONFLICT (user_id, id) DO UPDATE SET deleted = 1, version = excluded.version WHERE deleted = 0",
                (key["userId"], key["id"], FINAL))
            return cur.rowcount
        sample = value["sample"]
        deleted = 1 if sample.get("deleted") else 0
        version = FINAL if deleted else int(sample.get("version") or 0)
        # Latest version wins; an equal or older version (a record sent again, or late) changes
        # nothing.
        cur = self.db.execute(
            "INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, id) DO UPDATE SET version = excluded.version, type = excluded.type, "
            "value = excluded.value, unit = excluded.unit, start_date = excluded.start_date, end_date = excluded.end_date, "
            "device_id = excluded.device_id, deleted = excluded.deleted, record = excluded.record "
            "WHERE excluded.version > samples.version",
            (value["userId"], sample["id"], version, sample.get("type"), sample.get("value"), sample.get("unit"),
             sample.get("startDate"), sample.get("endDate"), value.get("deviceId"), deleted,
             json.dumps(value, sort_keys=True)))
        return cur.rowcount


def consume(bootstrap: str, topic: str, table: SampleTable, idle_seconds: float = 3.0, max_records: int | None = None,
            on_batch=None) -> int:
    """Reads `topic` from the offsets stored in `table` (the beginning for a partition it has
    not seen) until nothing arrives for `idle_seconds` or `max_records` were read. Returns the
    number of records read. One instance owns every partition (`assign`); several instances
    would join a consumer group and seek to the stored offsets in their `on_assign`."""
    from kafka import KafkaConsumer, TopicPartition
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, auto_offset_reset="earliest",
                             key_deserializer=lambda b: json.loads(b) if b else None,
                             value_deserializer=lambda b: json.loads(b) if b is not None else None)
    read = 0
    try:
        partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or [])]
        consumer.assign(partitions)
        stored = table.offsets(topic)
        for tp in partitions:
            if tp.partition in stored:
                consumer.seek(tp, stored[tp.partition])
            else:
                consumer.seek_to_beginning(tp)
        idle_since = time.time()
        while time.time() - idle_since < idle_seconds:
            limit = None if max_records is None else max_records - read
            if limit is not None and limit <= 0:
                break
            polled = consumer.poll(timeout_ms=200, max_records=limit or 500)
            batch = [(m.partition, m.offset, m.key, m.value) for msgs in polled.values() for m in msgs]
            if not batch:
                continue
            idle_since = time.time()
            table.apply(topic, batch)
            read += len(batch)
            if on_batch:
                on_batch(batch)
    finally:
        consumer.close()
    return read


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--topic", default="health-samples")
    p.add_argument("--db", required=True)
    p.add_argument("--idle", type=float, default=float("inf"), help="stop after this many seconds without records")
    a = p.parse_args()
    n = consume(a.bootstrap, a.topic, SampleTable(a.db), idle_seconds=a.idle)
    print(f"{n} records read")


if __name__ == "__main__":
    main()
