#!/usr/bin/env python3
"""A minimal HTTPS gateway for the systemd end-to-end test.

Accepts POSTs on any path, records each request as one JSON line in --out
({"path", "content_type", "body"}; gzip bodies are inflated, JSON bodies
parsed; Confluent v3's concatenated records are split), and answers as the
format the path implies expects: Confluent v2 (/topics/...) gets one offset
per record, v3 (/v3/...) one delivery report per record, anything else 200 {}.

Usage: recording_gateway.py --cert C --key K --out FILE --port-file F
Binds 127.0.0.1 on a free port and writes the port to --port-file once
listening. Stops on SIGTERM, or by itself after --max-seconds.
"""

import argparse
import gzip
import json
import os
import signal
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def split_concatenated(text):
    """Parses concatenated JSON values (Confluent v3 batches)."""
    decoder = json.JSONDecoder()
    values, i = [], 0
    while i < len(text):
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            break
        value, i = decoder.raw_decode(text, i)
        values.append(value)
    return values


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    lock = threading.Lock()
    out_path = None

    def log_message(self, fmt, *args):
        sys.stderr.write("gateway: " + (fmt % args) + "\n")

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
        else:
            data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding", "").lower() == "gzip":
            data = gzip.decompress(data)
        return data

    def do_POST(self):
        raw = self.read_body().decode("utf-8", "replace")
        try:
            values = split_concatenated(raw)
            body = values[0] if len(values) == 1 else values
        except ValueError:
            body = raw
        with self.lock, open(self.out_path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"path": self.path,
                                "content_type": self.headers.get("Content-Type"),
                                "body": body}) + "\n")
        if self.path.startswith("/topics/"):
            records = body.get("records", []) if isinstance(body, dict) else []
            answer = json.dumps({"key_schema_id": None, "value_schema_id": None,
                                 "offsets": [{"partition": 0, "offset": n, "error_code": None, "error": None}
                                             for n in range(len(records))]})
            ctype = "application/vnd.kafka.v2+json"
        elif self.path.startswith("/v3/"):
            records = body if isinstance(body, list) else [body]
            answer = "".join(json.dumps({"error_code": 200, "partition_id": 0, "offset": n})
                             for n in range(len(records)))
            ctype = "application/json"
        else:
            answer, ctype = "{}", "application/json"
        data = answer.encode()
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cert", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--max-seconds", type=float, default=1800)
    a = p.parse_args()

    Handler.out_path = a.out
    open(a.out, "a").close()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(a.cert, a.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    threading.Timer(a.max_seconds, stop).start()
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(a.port_file + ".tmp", a.port_file)
    server.serve_forever()
    os._exit(0)


if __name__ == "__main__":
    main()
