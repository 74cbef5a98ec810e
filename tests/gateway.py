"""A test gateway: an HTTPS server speaking the origin design's JSON POST, Confluent REST
Proxy v2 and v3, with fault injection. It records every batch it accepts; with a Kafka
bootstrap address it also produces every accepted record into a real Kafka broker.

Used by the integration tests (in-process, through `Gateway`) and runnable on its own:
    python3 tests/gateway.py --port 8443 --certs DIR
"""
from __future__ import annotations

import datetime
import gzip
import ipaddress
import json
import os
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_ca(directory: Path, hosts=("127.0.0.1", "localhost")) -> dict:
    """Makes a CA and a server certificate signed by it. Returns the file paths."""
    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "healthspool test CA")])
    ca_cert = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                                     key_encipherment=False, data_encipherment=False, key_agreement=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    sans = []
    for h in hosts:
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(h)))
        except ValueError:
            sans.append(x509.DNSName(h))
    cert = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "healthspool client")]))
        .issuer_name(ca_name).public_key(client_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = {"ca": directory / "ca.pem", "cert": directory / "server.pem", "key": directory / "server.key",
             "client_cert": directory / "client.pem", "client_key": directory / "client.key"}
    paths["client_cert"].write_bytes(client.public_bytes(serialization.Encoding.PEM))
    paths["client_key"].write_bytes(client_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                             serialization.NoEncryption()))
    os.chmod(paths["client_key"], 0o600)
    paths["ca"].write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    paths["cert"].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths["key"].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(spki)
    import base64
    paths["pin"] = "sha256//" + base64.b64encode(digest.finalize()).decode()
    return paths


class Gateway:
    """Runs the test gateway in a background thread.

    Modes: `json` (the origin design's batch POST), `confluent-v2` and `confluent-v3` (a Kafka
    REST proxy: records are produced into a real Kafka broker when `kafka_bootstrap` is given,
    serialized like the REST proxy's JSON embedded format does: key and value as JSON text).

    Fault injection:
    - `faults`: callables `fault(request) -> (status, headers, body) | None`, consulted in order
      for each POST; the first that answers wins. Status 0 resets the connection (RST).
      `fail_next(n, status, ...)` is the common case; `delay_next(n, seconds)` answers late.
    - `record_faults`: callables `fault(value) -> (code, message) | None` for each record of a
      v2/v3 request that got through: the record is not produced and its per-record result
      carries the code (v2 `offsets[]`, v3 delivery report).
    - `auth`: (header, expected value); every request without it gets 401 / 40101.
    - `client_ca`: require a client certificate signed by this CA (mutual TLS)."""

    cluster_id = "test-cluster"

    def __init__(self, certs: dict, mode: str = "json", kafka_bootstrap: str | None = None,
                 auth: tuple[str, str] | None = None, client_ca: str | None = None, topics: set | None = None,
                 port: int = 0):
        self.certs = certs
        self.mode = mode
        self.auth = auth  # (header, expected value) e.g. ("X-API-Key", "k")
        self.lock = threading.Lock()
        self.batches: list[dict] = []       # accepted requests (parsed) / records
        self.samples: list[dict] = []       # accepted samples, in arrival order
        self.tombstones: list = []          # keys of accepted records with a null value (deleted journal entries)
        self.requests: list[dict] = []      # every request: path, status, time, connection
        self.connections = 0                # TCP connections accepted
        self.faults: list = []
        self.record_faults: list = []
        self.topics = topics                # known topics (None: ask Kafka, or any)
        self.topics_seen: set = set()
        self.producer = None
        self.kafka_bootstrap = kafka_bootstrap
        if kafka_bootstrap:
            from kafka import KafkaProducer
            self.producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all", linger_ms=2,
                                          key_serializer=lambda k: json.dumps(k).encode(),
                                          value_serializer=lambda v: None if v is None else json.dumps(v).encode())
        handler = self._handler()
        gateway = self

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def get_request(self):
                sock, addr = super().get_request()
                with gateway.lock:
                    gateway.connections += 1
                return sock, addr

        self.server = Server(("127.0.0.1", port), handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(str(certs["cert"]), str(certs["key"]))
        if client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(str(client_ca))
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True, do_handshake_on_connect=False)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.base_url + "/ingest" if self.mode == "json" else self.base_url

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        if self.producer:
            self.producer.flush()
            self.producer.close()

    def fail_next(self, count: int, status: int, body: bytes = b"", headers: dict | None = None):
        remaining = [count]

        def fault(_request):
            if remaining[0] <= 0:
                return None
            remaining[0] -= 1
            return status, headers or {}, body
        self.faults.append(fault)

    def delay_next(self, count: int, seconds: float):
        """The next `count` requests are answered (normally) only after `seconds`."""
        remaining = [count]

        def fault(_request):
            if remaining[0] > 0:
                remaining[0] -= 1
                time.sleep(seconds)
            return None
        self.faults.append(fault)

    def reject_sample(self, sample_id: str, status: int = 422, code: int = 42207,
                      message: str = "Validation error: the record does not match the topic's schema"):
        """Every request that carries `sample_id` is refused as a whole (request-level error)."""
        needle = sample_id.encode()

        def fault(request):
            if needle in request["body"]:
                return status, {}, json.dumps({"error_code": code, "message": message}).encode()
            return None
        self.faults.append(fault)
        return fault

    def fail_record(self, sample_id: str | None, code: int, message: str = "failed", times: int | None = None):
        """Records carrying `sample_id` (any record when None) fail with `code`, `times` times."""
        remaining = [times]

        def fault(value):
            if sample_id is not None and value.get("sample", {}).get("id") != sample_id:
                return None
            if remaining[0] is not None:
                if remaining[0] <= 0:
                    return None
                remaining[0] -= 1
            return code, message
        self.record_faults.append(fault)
        return fault

    def sample_ids(self) -> list[str]:
        with self.lock:
            return [s["id"] for s in self.samples]

    def statuses(self) -> list[int]:
        with self.lock:
            return [r["status"] for r in self.requests]

    def wait_for_samples(self, n: int, timeout: float = 20) -> list[dict]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if len({s["id"] for s in self.samples}) >= n:
                    return list(self.samples)
            time.sleep(0.05)
        with self.lock:
            return list(self.samples)

    def _topic_exists(self, topic: str) -> bool:
        if self.topics is not None:
            return topic in self.topics
        if topic in self.topics_seen:
            return True
        if self.kafka_bootstrap:
            from kafka import KafkaAdminClient
            admin = KafkaAdminClient(bootstrap_servers=self.kafka_bootstrap)
            try:
                known = topic in admin.list_topics()
            finally:
                admin.close()
            if known:
                self.topics_seen.add(topic)
            return known
        return True

    # The HTTP side.
    def _handler(self):
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def setup(self):
                super().setup()
                # Headers and body go out in two writes: without this, Nagle's algorithm holds the
                # body back until the client's delayed ACK (40 ms a request).
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def _answer(self, status: int, body: bytes, headers: dict | None = None, content_type="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _note(self, status: int):
                with gateway.lock:
                    gateway.requests.append({"path": self.path, "status": status, "time": time.time(),
                                             "method": self.command, "peer": self.client_address[1],
                                             "encoding": self.headers.get("Content-Encoding")})

            def _authorized(self) -> bool:
                if gateway.auth:
                    header, expected = gateway.auth
                    if self.headers.get(header) != expected:
                        self._note(401)
                        self._answer(401, b'{"error_code":40101,"message":"Authentication failed"}')
                        return False
                return True

            def do_GET(self):
                if not self._authorized():
                    return
                status, body = gateway._metadata(self.path)
                self._note(status)
                self._answer(status, body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                if self.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                request = {"path": self.path, "headers": dict(self.headers), "body": raw}
                for fault in list(gateway.faults):
                    answer = fault(request)
                    if answer is not None:
                        status, headers, body = answer
                        self._note(status)
                        if status == 0:  # reset the connection
                            import socket
                            import struct
                            self.close_connection = True
                            raw_sock = self.connection
                            raw_sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                            raw_sock.close()
                            return
                        self._answer(status, body, headers,
                                     "text/html" if body.startswith(b"<") else "application/json")
                        return
                if not self._authorized():
                    return
                status, body = gateway._accept(self.path, raw, self.headers.get("Content-Type", ""))
                self._note(status)
                self._answer(status, body)

        return Handler

    def _metadata(self, path: str) -> tuple[int, bytes]:
        parts = path.strip("/").split("/")
        not_found = lambda code, what: (404, json.dumps({"error_code": code, "message": what}).encode())  # noqa: E731
        if self.mode == "confluent-v2" and len(parts) == 2 and parts[0] == "topics":
            if not self._topic_exists(parts[1]):
                return not_found(40401, "Topic not found.")
            return 200, json.dumps({"name": parts[1], "configs": {}, "partitions": []}).encode()
        if self.mode == "confluent-v3" and parts[:1] == ["v3"] and parts[1:2] == ["clusters"]:
            if len(parts) == 2:
                return 200, json.dumps({"kind": "KafkaClusterList", "data": [{"cluster_id": self.cluster_id}]}).encode()
            if parts[2] != self.cluster_id:
                return not_found(404, f"Cluster {parts[2]} cannot be found.")
            if len(parts) == 3:
                return 200, json.dumps({"kind": "KafkaCluster", "cluster_id": self.cluster_id}).encode()
            if len(parts) == 5 and parts[3] == "topics":
                if not self._topic_exists(parts[4]):
                    return not_found(404, f"This server does not host this topic-partition.")
                return 200, json.dumps({"kind": "KafkaTopic", "cluster_id": self.cluster_id, "topic_name": parts[4]}).encode()
        return not_found(404, "HTTP 404 Not Found")

    def _accept(self, path: str, raw: bytes, content_type: str) -> tuple[int, bytes]:
        if self.mode == "json":
            try:
                batch = json.loads(raw)
            except ValueError:
                return 400, b'{"message":"invalid JSON"}'
            for field in ("deviceId", "userId", "samples", "timestamp", "appVersion"):
                if field not in batch:
                    return 422, json.dumps({"message": f"missing {field}"}).encode()
            with self.lock:
                self.batches.append(batch)
                self.samples.extend(batch["samples"])
            if self.producer:
                for s in batch["samples"]:
                    self.producer.send("health-samples", key=batch["userId"], value=s)
                self.producer.flush()
            return 200, b'{"ok":true}'
        if self.mode == "confluent-v2":
            if not path.startswith("/topics/"):
                return 404, b'{"error_code":404,"message":"HTTP 404 Not Found"}'
            if not content_type.startswith("application/vnd.kafka.json.v2+json"):
                return 415, b'{"error_code":415,"message":"HTTP 415 Unsupported Media Type"}'
            topic = path[len("/topics/"):]
            if not self._topic_exists(topic):
                return 404, b'{"error_code":40401,"message":"Topic not found."}'
            try:
                records = json.loads(raw)["records"]
            except (ValueError, KeyError, TypeError):
                return 422, b'{"error_code":422,"message":"Unrecognized field"}'
            results = self._produce(topic, [(r.get("key"), r.get("value")) for r in records])
            offsets = []
            for r in results:
                if isinstance(r, tuple):
                    offsets.append({"partition": None, "offset": None, "error_code": r[0], "error": r[1]})
                else:
                    offsets.append({"partition": r.partition, "offset": r.offset, "error_code": None, "error": None})
            return 200, json.dumps({"key_schema_id": None, "value_schema_id": None, "offsets": offsets}).encode()
        if self.mode == "confluent-v3":
            parts = path.strip("/").split("/")
            if len(parts) != 6 or parts[0] != "v3" or parts[1] != "clusters" or parts[3] != "topics" or parts[5] != "records":
                return 404, b'{"error_code":404,"message":"HTTP 404 Not Found"}'
            if parts[2] != self.cluster_id:
                return 404, json.dumps({"error_code": 404, "message": f"Cluster {parts[2]} cannot be found."}).encode()
            topic = parts[4]
            if not self._topic_exists(topic):
                return 404, b'{"error_code":404,"message":"This server does not host this topic-partition."}'
            decoder = json.JSONDecoder()
            text = raw.decode()
            records, i, broken = [], 0, None
            while i < len(text):
                while i < len(text) and text[i] in " \r\n\t":
                    i += 1
                if i >= len(text):
                    break
                try:
                    r, i = decoder.raw_decode(text, i)
                    # A record without a value (a tombstone) is produced with a null value.
                    records.append((r["key"]["data"], r["value"]["data"] if r.get("value") is not None else None))
                except (ValueError, KeyError, TypeError) as e:
                    broken = str(e)  # like the proxy: one 400 report, then the stream ends
                    break
            reports = []
            for r in self._produce(topic, records):
                if isinstance(r, tuple):
                    reports.append({"error_code": r[0], "message": r[1]})
                else:
                    reports.append({"error_code": 200, "cluster_id": parts[2], "topic_name": topic,
                                    "partition_id": r.partition, "offset": r.offset, "timestamp": "2026-01-01T00:00:00.000Z",
                                    "key": {"type": "JSON", "size": 7}, "value": {"type": "JSON", "size": 300}})
            if broken:
                reports.append({"error_code": 400, "message": f"Error processing JSON: {broken}"})
            return 200, "".join(json.dumps(r) for r in reports).encode()
        return 500, b"{}"

    def _produce(self, topic: str, records: list) -> list:
        """Produces records (key, value) in order; returns per record RecordMetadata-like or (code, message)."""
        class Meta:
            def __init__(self, partition, offset):
                self.partition, self.offset = partition, offset
        out, futures = [], []
        for key, value in records:
            failure = None
            for fault in list(self.record_faults) if value is not None else []:
                failure = fault(value)
                if failure:
                    break
            if failure:
                out.append(failure)
                futures.append(None)
                continue
            with self.lock:
                self.batches.append({"topic": topic, "key": key, "value": value})
                if value is None:
                    self.tombstones.append(key)
                else:
                    # healthspool's envelope holds the sample; a FHIR format's value is the resource itself.
                    self.samples.append(value["sample"] if "sample" in value else value)
                n = len(self.samples) + len(self.tombstones) - 1
            out.append(Meta(0, n))
            futures.append(self.producer.send(topic, key=key, value=value) if self.producer else None)
        if self.producer:
            self.producer.flush()
            for i, f in enumerate(futures):
                if f is None:
                    continue
                try:
                    md = f.get(timeout=10)
                    out[i] = Meta(md.partition, md.offset)
                except Exception as e:  # noqa: BLE001 — reported per record, like the proxy does
                    out[i] = (50003, f"Retriable Kafka error: {e}")
        return out


if __name__ == "__main__":
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("--certs", default="/tmp/healthspool-gateway-certs")
    p.add_argument("--mode", default="json")
    p.add_argument("--port", type=int, default=0)
    a = p.parse_args()
    certs = make_ca(Path(a.certs))
    g = Gateway(certs, mode=a.mode, port=a.port)
    print(f"listening on {g.url} (CA {certs['ca']})", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        g.stop()
