"""Gateway delivery benchmark: samples/s from the SQLite store to an HTTPS gateway.

Three clients, measured in the same run against the same receiver:
  healthspool  the real binary: `healthspool sync` (in-process) on a fresh copy of a store that
               `healthspool import` filled with N samples of one type (one sender, one connection)
  requests     a plain Python loop doing the same job: read a batch from the same store, encode
               the same JSON batch, POST it with `requests`, move the type's mark past the batch
  ceiling      the receiver's ceiling: bench/replay.c, a do-nothing libcurl client replaying the
               same bodies pre-encoded and loaded into memory (no store, no encoding), over one
               kept-alive connection; only its sending is timed

The receiver is nginx (Debian's nginx-light), one worker, TLS 1.2+, answering 200 to every POST
after reading the body: the Python test gateway tops out far below healthspool and would measure
itself. The wire format is `json` (the origin design's batch); the Confluent formats differ only in
the encoder.

Run through bench/gateway-bench.sh. Prints a Markdown table; --json FILE also writes raw figures.
--instructions prints instead the instructions a sample (callgrind) of healthspool's sync, of
SQLite alone reading the queue (bench/sqlite_floor.c) and of the ceiling's client, with nginx's
share from CPU times, and the budget 70 % of the ceiling leaves healthspool.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from gateway import make_ca  # noqa: E402

NGINX_CONF = """
worker_processes 1;
error_log {dir}/error.log;
pid {dir}/nginx.pid;
daemon off;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_max_body_size 64m;
    client_body_buffer_size 4m;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        location / {{
            default_type application/json;
            return 200 '{{"ok":true}}';
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    def __init__(self, work: Path, certs: dict):
        self.dir = work / "nginx"
        self.dir.mkdir()
        self.port = free_port()
        conf = self.dir / "nginx.conf"
        conf.write_text(NGINX_CONF.format(dir=self.dir, port=self.port, cert=certs["cert"], key=certs["key"]))
        self.proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(self.dir)],
                                     stdout=subprocess.DEVNULL, stderr=open(self.dir / "stderr", "w"))
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start: " + (self.dir / "stderr").read_text())

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}/ingest"

    def stop(self):
        os.kill(self.proc.pid, signal.SIGQUIT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class PythonGateway:
    """The integration tests' Python gateway (json mode) in its own process, for comparison."""

    def __init__(self, work: Path):
        self.dir = work / "pygw"
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "gateway.py"), "--mode", "json",
                                      "--port", str(self.port), "--certs", str(self.dir)],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc.stdout.readline()  # "listening on …"
        self.ca = self.dir / "ca.pem"

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}/ingest"

    def stop(self):
        os.kill(self.proc.pid, signal.SIGTERM)
        self.proc.wait(10)


def make_samples(n: int) -> str:
    lines = []
    for i in range(n):
        t = 1_767_225_600 + i * 5  # 2026-01-01, every 5 s
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
        lines.append(json.dumps({"type": "heartRate", "value": 55 + i % 60, "unit": "count/min", "startDate": stamp,
                                 "source": {"name": "Polar H10", "version": "3.1", "device": "strap"},
                                 "metadata": {"context": "bench"}}))
    return "\n".join(lines)


class Healthspool:
    def __init__(self, binary: str, work: Path, url: str, ca: Path):
        self.binary = binary
        self.home = work / "home"
        (self.home / "run").mkdir(parents=True)
        os.chmod(self.home / "run", 0o700)
        self.env = {"HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.home / "run"), "PATH": os.environ["PATH"],
                    "HEALTHSPOOL_SYSTEM_CONFIG": str(work / "none.conf"), "HEALTHSPOOL_USER_ID": "bench",
                    "HEALTHSPOOL_DEVICE_ID": "00000000-0000-8000-8000-000000000000"}
        # bench/free-source.diff's switches, when an experiment sets them.
        self.env.update({k: v for k, v in os.environ.items() if k.startswith("HS_EXP_")})
        self.run("gateway", "set", url, "--ca-file", str(ca))
        self.db = self.home / ".local" / "state" / "healthspool" / "healthspool.db"

    def run(self, *args) -> subprocess.CompletedProcess:
        p = subprocess.run([self.binary, *args], env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"healthspool {' '.join(args)}: {p.stdout}\n{p.stderr}")
        return p

    def checkpoint(self):
        con = sqlite3.connect(self.db)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()


def iso_local(ms: int, off: int) -> str:
    t = time.gmtime(ms / 1000 + off)
    sign = "+" if off >= 0 else "-"
    return time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{ms % 1000:03d}{sign}{abs(off) // 3600:02d}:{abs(off) % 3600 // 60:02d}"


def iso_utc(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def python_batches(db: Path, batch: int):
    """Reads queued samples in batches and yields (rowids, body dict): what healthspool encodes."""
    con = sqlite3.connect(db)
    cursor = 0
    (tid,) = con.execute("SELECT id FROM types WHERE name = 'heartRate'").fetchone()
    while True:
        # The store's queue: the type's rows past its mark (types.synced_to), in row-id order.
        rows = con.execute("SELECT s.rowid, s.id, s.value, s.unit, s.start_ms, s.start_off, s.end_ms, s.end_off, "
                           "src.name, src.version, src.device, s.metadata, s.created_ms "
                           "FROM samples AS s JOIN sources AS src ON src.id = s.source_id WHERE s.type = ? AND s.state = 0 "
                           "AND s.rowid > max(?, (SELECT synced_to FROM types WHERE id = ?)) ORDER BY s.rowid LIMIT ?",
                           (tid, cursor, tid, batch)).fetchall()
        if not rows:
            break
        cursor = rows[-1][0]
        samples = []
        for r in rows:
            source = {"name": r[8]}
            if r[9]:
                source["version"] = r[9]
            if r[10]:
                source["device"] = r[10]
            samples.append({"id": str(uuid.UUID(bytes=bytes(r[1]))), "type": "heartRate",
                            "hkType": "HKQuantityTypeIdentifierHeartRate", "value": r[2], "unit": r[3],
                            "startDate": iso_local(r[4], r[5]), "endDate": iso_local(r[6], r[7]), "source": source,
                            "metadata": json.loads(r[11]) if r[11] else {}, "createdAt": iso_utc(r[12])})
        yield con, (tid, [r[0] for r in rows]), {"deviceId": "00000000-0000-8000-8000-000000000000", "userId": "bench",
                                          "samples": samples, "timestamp": iso_utc(int(time.time() * 1000)),
                                          "appVersion": "0.1.0"}
    con.close()


def requests_loop(db: Path, url: str, ca: Path, batch: int, keepalive: bool, gz: bool) -> int:
    import requests
    session = requests.Session() if keepalive else None
    sent = 0
    for con, (tid, rowids), body in python_batches(db, batch):
        data = json.dumps(body, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json"}
        if gz:
            data = gzip.compress(data, 1)
            headers["Content-Encoding"] = "gzip"
        post = session.post if session else requests.post
        r = post(url, data=data, headers=headers, verify=str(ca), timeout=30)
        r.raise_for_status()
        with con:
            # As healthspool records a delivered batch: the type's mark moves past it.
            con.execute("UPDATE types SET synced_to = max(synced_to, ?) WHERE id = ?", (rowids[-1], tid))
        sent += len(rowids)
    return sent


def ceiling_bodies(db: Path, batch: int, gz: bool, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for n, (_, _, body) in enumerate(python_batches(db, batch)):
        data = json.dumps(body, separators=(",", ":")).encode()
        if gz:
            data = gzip.compress(data, 1)
        f = out / f"b{n}"
        f.write_bytes(data)
        files.append(f)
    return files


def build_c(work: Path, name: str, library: str) -> Path:
    """Compiles bench/NAME.c against `library` (replay.c, the ceiling's do-nothing client, against
    libcurl; sqlite_floor.c against libsqlite3)."""
    out = work / name
    compiler = shutil.which("cc") or shutil.which("clang")   # the Swift toolchain brings clang
    if compiler is None:
        sys.exit(f"gateway bench: no C compiler (cc or clang) to build bench/{name}.c")
    subprocess.run([compiler, "-O2", "-o", str(out), str(ROOT / "bench" / f"{name}.c"), f"-l{library}"], check=True)
    return out


def build_replay(work: Path) -> Path:
    return build_c(work, "replay", "curl")


def ceiling(replay: Path, files: list[Path], url: str, ca: Path, keepalive: bool, gz: bool, rounds: int) -> float:
    """Seconds the do-nothing client spends sending every body `rounds` times (bodies already in memory)."""
    out = subprocess.run([str(replay), url, str(ca), str(rounds), "1" if gz else "0", "1" if keepalive else "0",
                          *map(str, files)], check=True, capture_output=True, text=True).stdout
    return float(out)


def callgrind(cmd: list[str], work: Path, toggle: str | None = None, env: dict | None = None) -> int:
    """Instructions `cmd` runs (only inside function `toggle` when given), counted by callgrind:
    the same count whatever else the machine is doing."""
    out = work / "callgrind.out"
    args = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    if toggle:
        args.append(f"--toggle-collect={toggle}")
    p = subprocess.run(args + cmd, env=env, capture_output=True, text=True, check=True)
    for line in p.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip().replace(",", ""))
    raise RuntimeError(f"no count from callgrind:\n{p.stderr[-2000:]}")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def instructions(a, hs: "Healthspool", nginx: "Nginx", certs: dict, work: Path, fresh) -> None:
    """The CPU budget at batch 500, keep-alive on, gzip off, in instructions a sample."""
    if not shutil.which("valgrind"):
        sys.exit("gateway bench --instructions: valgrind is needed (apt-get install -y valgrind)")
    n, batch = a.samples, 500
    files = ceiling_bodies(hs.db, batch, False, work / "bodies-instr")
    replay, floor = build_replay(work), build_c(work, "sqlite_floor", "sqlite3")
    sync = [a.bin, "sync", "--json", "--set", f"gateway.batch_size={batch}", "--set", "gateway.keepalive=true",
            "--set", "gateway.gzip=false"]
    fresh()
    hs_instr = callgrind(sync, work, env=hs.env) / n
    fresh()   # the sync moved the type's mark past every sample
    con = sqlite3.connect(hs.db)
    (type_id,) = con.execute("SELECT id FROM types WHERE name = 'heartRate'").fetchone()
    con.close()
    floor_instr = callgrind([str(floor), str(hs.db), str(type_id), str(batch)], work, toggle="read_queue") / n
    client_instr = callgrind([str(replay), nginx.url, str(certs["ca"]), "1", "0", "1", *map(str, files)], work,
                             toggle="send_all") / n
    # The receiver's CPU against the client's, over the same replay (not under valgrind): nginx's
    # work a sample in the client's instructions.
    worker = int(Path(f"/proc/{nginx.proc.pid}/task/{nginx.proc.pid}/children").read_text().split()[0])
    before_nginx, before_client = cpu_seconds(worker), os.times().children_user + os.times().children_system
    ceiling(replay, files, nginx.url, certs["ca"], True, False, a.ceiling_rounds)
    nginx_cpu = cpu_seconds(worker) - before_nginx
    client_cpu = os.times().children_user + os.times().children_system - before_client
    receiver = client_instr * nginx_cpu / client_cpu
    print(f"instructions a sample, {n:,} samples, batch {batch}, keep-alive on, gzip off (callgrind):")
    print()
    print("| what | instructions a sample |")
    print("|---|---:|")
    print(f"| healthspool sync, whole process | {hs_instr:,.0f} |")
    print(f"| SQLite alone reading the queue (bench/sqlite_floor.c) | {floor_instr:,.0f} |")
    print(f"| the ceiling's client sending (bench/replay.c) | {client_instr:,.0f} |")
    print(f"| nginx, in the client's instructions (CPU {nginx_cpu:.2f} s against the client's {client_cpu:.2f} s) | {receiver:,.0f} |")
    print()
    # Both cores kept busy: the rate is inverse to all the work a sample needs, sender and receiver.
    predicted = (client_instr + receiver) / (hs_instr + receiver)
    budget = (client_instr + receiver) / 0.7 - receiver
    print(f"with all work spread over both cores, healthspool's share of the ceiling is "
          f"(client + nginx) / (healthspool + nginx) = {100 * predicted:.0f} %; 70 % allows healthspool "
          f"{budget:,.0f} instructions a sample, of which SQLite's read alone takes {floor_instr:,.0f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--samples", type=int, default=50_000)
    ap.add_argument("--batches", default="100,500")
    ap.add_argument("--repeat", type=int, default=1, help="runs per cell; the best is kept")
    ap.add_argument("--json", help="write raw figures here")
    ap.add_argument("--receiver", choices=["nginx", "python"], default="nginx",
                    help="nginx (default), or the integration tests' Python gateway, to show it is the bottleneck")
    ap.add_argument("--keepalive", default="on,off")
    ap.add_argument("--gzip", default="off,on")
    ap.add_argument("--instructions", action="store_true",
                    help="instead of the table: instructions a sample (callgrind) for healthspool, SQLite's read "
                         "alone and the ceiling's client, and the CPU budget 70 %% of the ceiling leaves")
    ap.add_argument("--ceiling-rounds", type=int, default=5,
                    help="the ceiling replays the bodies this many times in one run (a run of 50k samples is too short to time)")
    a = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="hs-gwbench-"))
    certs = make_ca(work / "certs")
    nginx = Nginx(work, certs) if a.receiver == "nginx" else PythonGateway(work)
    if a.receiver == "python":
        certs = {"ca": nginx.ca}
    results = []
    replay = build_replay(work)
    try:
        hs = Healthspool(a.bin, work, nginx.url, certs["ca"])
        src = work / "samples.ndjson"
        src.write_text(make_samples(a.samples))
        t0 = time.time()
        hs.run("import", str(src), "--no-progress")
        hs.checkpoint()
        print(f"imported {a.samples} samples in {time.time() - t0:.1f} s", file=sys.stderr)
        template = work / "template.db"
        shutil.copy(hs.db, template)

        def fresh():
            for suffix in ("-wal", "-shm"):
                Path(str(hs.db) + suffix).unlink(missing_ok=True)
            shutil.copy(template, hs.db)

        if a.instructions:
            instructions(a, hs, nginx, certs, work, fresh)
            return
        for batch in [int(b) for b in a.batches.split(",")]:
            for keepalive in [k == "on" for k in a.keepalive.split(",")]:
                for gz in [g == "on" for g in a.gzip.split(",")]:
                    cell = {"batch": batch, "keepalive": keepalive, "gzip": gz}
                    rates = {"healthspool": [], "healthspool (process)": [], "requests": [], "ceiling": []}
                    files = None
                    # The three run in turn, repeat after repeat: each healthspool run has a
                    # ceiling run next to it, so the paired ratio sees the same machine.
                    for _ in range(a.repeat):
                        for name in ("healthspool", "requests", "ceiling"):
                            fresh()
                            if name == "ceiling":
                                if files is None:
                                    files = ceiling_bodies(hs.db, batch, gz, work / f"bodies-{batch}-{gz}")
                                elapsed = ceiling(replay, files, nginx.url, certs["ca"], keepalive, gz,
                                                  a.ceiling_rounds) / a.ceiling_rounds
                                n = a.samples
                            elif name == "requests":
                                t = time.perf_counter()
                                n = requests_loop(hs.db, nginx.url, certs["ca"], batch, keepalive, gz)
                                elapsed = time.perf_counter() - t
                            else:
                                t = time.perf_counter()
                                out = json.loads(hs.run("sync", "--json", "--set", f"gateway.batch_size={batch}",
                                                        "--set", f"gateway.keepalive={'true' if keepalive else 'false'}",
                                                        "--set", f"gateway.gzip={'true' if gz else 'false'}").stdout)
                                rates["healthspool (process)"].append(a.samples / (time.perf_counter() - t))
                                # The job's own time, from its first read of the store to its last
                                # batch recorded as delivered: what the ceiling's timer covers too
                                # (it leaves out loading its bodies; this leaves out process start).
                                elapsed = out["results"][0]["durationMs"] / 1000
                                n = out["sent"]
                            assert n == a.samples, f"{name} sent {n}"
                            rates[name].append(n / elapsed)
                    for name, r in rates.items():
                        cell[name] = round(max(r))
                        print(f"batch {batch} keepalive {keepalive} gzip {gz} {name}: {max(r):,.0f} samples/s (runs: "
                              + ", ".join(f"{x:,.0f}" for x in r) + ")", file=sys.stderr)
                    paired = sorted(h / c for h, c in zip(rates["healthspool"], rates["ceiling"]))
                    cell["paired"] = paired[len(paired) // 2]
                    results.append(cell)
    finally:
        nginx.stop()
        shutil.rmtree(work, ignore_errors=True)

    print(f"receiver: {a.receiver}, {a.samples} samples of one type, best of {a.repeat}; "
          "'healthspool' is the sync job's own time, 'whole process' includes process start and exit; "
          "'paired' is the median over the repeats of healthspool's rate over the ceiling run next to it")
    print()
    print("| batch | keep-alive | gzip | healthspool | (whole process) | requests loop | ceiling (replay) | × requests | % of ceiling | % paired |")
    print("|---:|:---:|:---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in results:
        print(f"| {c['batch']} | {'on' if c['keepalive'] else 'off'} | {'on' if c['gzip'] else 'off'} | "
              f"{c['healthspool']:,} | {c['healthspool (process)']:,} | {c['requests']:,} | {c['ceiling']:,} | "
              f"{c['healthspool'] / c['requests']:.1f}× | {100 * c['healthspool'] / c['ceiling']:.0f} % | "
              f"{100 * c['paired']:.0f} % |")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
