#!/usr/bin/env python3
"""The fleet's gateway (issue 32): the test gateway (tests/gateway.py, Confluent REST Proxy v2)
in front of a real Kafka broker, run as a process of its own so that the driver's work does not
share its interpreter lock, and so that its CPU can be read apart.

It records one line of NDJSON per POST in `--log`: arrival time, status, records in the request,
records accepted, the device id, the types, and for each accepted sample that carries the
driver's `fleet.tag` its tag and delivery latency (acceptance time − drop time). Duplicates
(an id, or for journal records an id and version, accepted before) are counted per request.

The driver steers it through `--state` (a small JSON file read every 100 ms):
    {"mode": "up"}                       answer normally
    {"mode": "down"}                     reset every request (an outage behind a load balancer)
    {"mode": "throttle", "retry_after": 10}   answer 429 + Retry-After to everyone
    {"mode": "unavailable", "retry_after": 10} answer 503 + Retry-After to everyone
"""
from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from gateway import Gateway, make_ca  # noqa: E402


class FleetGateway(Gateway):
    """The test gateway with a steerable mode and a per-request record."""

    def __init__(self, certs: dict, kafka: str, topic: str, log: Path, port: int = 0):
        self.mode_state = {"mode": "up"}
        self.out = open(log, "w", buffering=1 << 16)
        self.out_lock = threading.Lock()
        self.seen: set = set()
        super().__init__(certs, mode="confluent-v2", kafka_bootstrap=kafka, topics={topic}, port=port)
        self.faults.append(self._gate)

    def _write(self, entry: dict):
        with self.out_lock:
            self.out.write(json.dumps(entry, separators=(",", ":")) + "\n")

    @staticmethod
    def _records(raw: bytes) -> list:
        try:
            return json.loads(raw).get("records", [])
        except (ValueError, AttributeError):
            return []

    @staticmethod
    def _describe(records: list) -> tuple[str, list]:
        device, types = "", set()
        for r in records:
            v = r.get("value") or {}
            device = device or v.get("deviceId", "")
            s = v.get("sample") or {}
            if s.get("type"):
                types.add(s["type"])
        return device, sorted(types)

    def _gate(self, request: dict):
        mode = self.mode_state.get("mode", "up")
        if mode == "up":
            return None
        records = self._records(request["body"])
        device, types = self._describe(records)
        entry = {"t": time.time(), "n": len(records), "ok": 0, "dev": device, "types": types}
        if mode == "down":
            self._write({**entry, "status": 0})
            return 0, {}, b""
        after = str(self.mode_state.get("retry_after", 10))
        if mode == "throttle":
            self._write({**entry, "status": 429})
            return 429, {"Retry-After": after}, b'{"error_code":42901,"message":"Too many requests"}'
        self._write({**entry, "status": 503})
        return 503, {"Retry-After": after}, b'{"error_code":50302,"message":"Broker not available"}'

    def _accept(self, path: str, raw: bytes, content_type: str):
        t = time.time()
        status, body = super()._accept(path, raw, content_type)
        done = time.time()
        records = self._records(raw)
        device, types = self._describe(records)
        entry = {"t": t, "done": done, "status": status, "n": len(records), "bytes": len(raw), "dev": device,
                 "types": types}
        ok, dups, tags, lat = 0, 0, [], []
        try:
            offsets = json.loads(body).get("offsets", []) if status == 200 else []
        except ValueError:
            offsets = []
        for r, o in zip(records, offsets):
            if o.get("error_code") is not None:
                continue
            ok += 1
            v = r.get("value")
            if v is None:   # a tombstone: keyed by user and id
                key = ("tomb", json.dumps(r.get("key"), sort_keys=True))
            else:
                s = v.get("sample") or {}
                # Ids are stable per user, not across users (a score's id derives from its day
                # and name): the consumer's key, and this one, is (userId, id).
                key = (v.get("userId"), s.get("id"), s.get("version"), s.get("deleted"))
                tag = (s.get("metadata") or {}).get("fleet.tag")
                if tag:
                    tags.append(tag)
                    lat.append(round(done - float((s.get("metadata") or {}).get("fleet.dropped", done)), 3))
            with self.out_lock:
                if key in self.seen:
                    dups += 1
                else:
                    self.seen.add(key)
        entry.update(ok=ok, dups=dups, tags=tags, lat=lat)
        self._write(entry)
        return status, body


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--certs", required=True)
    p.add_argument("--kafka", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--state", required=True)
    p.add_argument("--port-file", required=True)
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    certs = make_ca(Path(a.certs))
    g = FleetGateway(certs, a.kafka, a.topic, Path(a.log))
    g.server.socket.listen(1024)  # a fleet connects at once: the default backlog of 5 would drop SYNs
    Path(a.port_file).write_text(str(g.port))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    state = Path(a.state)
    last = None
    while not stop.is_set():
        try:
            text = state.read_text()
            if text != last:
                g.mode_state = json.loads(text)
                last = text
        except (OSError, ValueError):
            pass
        stop.wait(0.1)
    with g.out_lock:
        g.out.flush()
    g.stop()
    with g.out_lock:
        g.out.close()


if __name__ == "__main__":
    main()
