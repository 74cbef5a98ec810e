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
    paths = {"ca": directory / "ca.pem", "cert": directory / "server.pem", "key": directory / "server.key"}
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

    `faults` is a list of callables `fault(request) -> response tuple | None`, consulted in
    order for each request; the first that returns a response answers it (status, headers,
    body bytes). `fail_next(n, status, ...)` is a shortcut for the common case."""

    def __init__(self, certs: dict, mode: str = "json", kafka_bootstrap: str | None = None,
                 auth: tuple[str, str] | None = None):
        self.certs = certs
        self.mode = mode
        self.auth = auth  # (header, expected value) e.g. ("X-API-Key", "k")
        self.lock = threading.Lock()
        self.batches: list[dict] = []       # accepted requests (parsed)
        self.samples: list[dict] = []       # accepted samples, in arrival order
        self.requests: list[dict] = []      # every request: path, headers, status
        self.faults: list = []
        self.producer = None
        self.kafka_bootstrap = kafka_bootstrap
        if kafka_bootstrap:
            from kafka import KafkaProducer
            self.producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all",
                                          key_serializer=lambda k: k.encode(),
                                          value_serializer=lambda v: json.dumps(v).encode())
        handler = self._handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(str(certs["cert"]), str(certs["key"]))
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
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

    def sample_ids(self) -> list[str]:
        with self.lock:
            return [s["id"] for s in self.samples]

    def wait_for_samples(self, n: int, timeout: float = 20) -> list[dict]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if len(self.samples) >= n:
                    return list(self.samples)
            time.sleep(0.05)
        with self.lock:
            return list(self.samples)

    # The HTTP side.
    def _handler(self):
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _answer(self, status: int, body: bytes, headers: dict | None = None, content_type="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

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
                        with gateway.lock:
                            gateway.requests.append({"path": self.path, "status": status})
                        if status == 0:  # reset the connection
                            self.close_connection = True
                            self.connection.close()
                            return
                        self._answer(status, body, headers,
                                     "text/html" if body.startswith(b"<") else "application/json")
                        return
                if gateway.auth:
                    header, expected = gateway.auth
                    if self.headers.get(header) != expected:
                        with gateway.lock:
                            gateway.requests.append({"path": self.path, "status": 401})
                        self._answer(401, b'{"error_code":40101,"message":"unauthorized"}')
                        return
                status, body = gateway._accept(self.path, raw, self.headers.get("Content-Type", ""))
                with gateway.lock:
                    gateway.requests.append({"path": self.path, "status": status})
                self._answer(status, body)

        return Handler

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
                return 404, b'{"error_code":40401,"message":"Topic not found"}'
            topic = path[len("/topics/"):]
            try:
                records = json.loads(raw)["records"]
            except (ValueError, KeyError):
                return 422, b'{"error_code":42201,"message":"Unprocessable entity"}'
            offsets = []
            for r in records:
                self._record(topic, r["key"], r["value"])
                offsets.append({"partition": 0, "offset": len(self.samples) - 1, "error_code": None, "error": None})
            return 200, json.dumps({"key_schema_id": None, "value_schema_id": None, "offsets": offsets}).encode()
        if self.mode == "confluent-v3":
            parts = path.strip("/").split("/")
            if len(parts) != 6 or parts[0] != "v3" or parts[1] != "clusters" or parts[3] != "topics" or parts[5] != "records":
                return 404, b'{"error_code":404,"message":"Not found"}'
            topic = parts[4]
            reports = []
            decoder = json.JSONDecoder()
            text = raw.decode()
            i = 0
            while i < len(text):
                while i < len(text) and text[i] in " \r\n\t":
                    i += 1
                if i >= len(text):
                    break
                r, i = decoder.raw_decode(text, i)
                self._record(topic, r["key"]["data"], r["value"]["data"])
                reports.append({"error_code": 200, "cluster_id": parts[2], "topic_name": topic, "partition_id": 0,
                                "offset": len(self.samples) - 1})
            return 200, "".join(json.dumps(r) for r in reports).encode()
        return 500, b"{}"

    def _record(self, topic: str, key: str, value: dict):
        with self.lock:
            self.batches.append({"topic": topic, "key": key, "value": value})
            self.samples.append(value["sample"])
        if self.producer:
            self.producer.send(topic, key=key, value=value)


if __name__ == "__main__":
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("--certs", default="/tmp/healthspool-gateway-certs")
    p.add_argument("--mode", default="json")
    a = p.parse_args()
    certs = make_ca(Path(a.certs))
    g = Gateway(certs, mode=a.mode)
    print(f"listening on {g.url} (CA {certs['ca']})", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        g.stop()
