#!/usr/bin/env python3
"""Times the views on a large store (bench/views-bench.sh builds it): `healthspool day` and
`healthspool calendar` as whole processes, every page of the web interface served by the real
daemon, each page's weight with what it references, and the daemon's idle memory with the web
interface on and off.

    bench/views_bench.py BINARY HOME [--runs 40] [--requests 100] [--skip cli,web,weight,rss]

Times are medians and 95th percentiles. A command's wall time and the CPU time (user + system)
of its process come from wait4. A page's time is the request's round trip on one kept-alive
loopback connection, from sending the request to the last byte of the body: the server's time
plus a fraction of a millisecond of the client's. Beside it, the CPU time all the daemon's
threads used during the request (/proc/PID/task/*/schedstat, in ns): the server's own work,
which waiting for a core on a loaded machine does not inflate. Pages are requested round-robin
(each round asks every page once), so a moment of load falls on all pages alike.
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path


def web_address() -> str:
    """The user's own loopback address, where the daemon serves the web interface
    (UserLoopbackAddress.swift)."""
    uid = os.getuid()
    return f"127.{1 + (uid >> 16) % 254}.{(uid >> 8) & 255}.{uid & 255}"


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]


def load() -> str:
    return open("/proc/loadavg").read().split()[0]


class Env:
    def __init__(self, binary: str, home: Path):
        self.binary, self.home = binary, home
        self.env = {**os.environ, "HOME": str(home), "XDG_RUNTIME_DIR": str(home / "run"), "TZ": "Europe/Berlin",
                    "HEALTHSPOOL_SYSTEM_CONFIG": str(home / "no-system.conf"), "HEALTHSPOOL_WEB_ENABLED": "false"}

    def run(self, *args: str, env: dict | None = None) -> str:
        return subprocess.run([self.binary, *args], env={**self.env, **(env or {})}, check=True,
                              capture_output=True, text=True).stdout


def cli(e: Env, runs: int) -> None:
    def measure(name: str, commands: list[list[str]]) -> None:
        for c in commands[:2]:
            subprocess.run([e.binary, *c], env=e.env, stdout=subprocess.DEVNULL, check=True)
        wall, cpu, loads = [], [], []
        for i in range(runs):
            t0 = time.perf_counter()
            p = subprocess.Popen([e.binary, *commands[i % len(commands)]], env=e.env, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
            assert status == 0, (name, status)
        print(f"| `{name}` | {statistics.median(wall):.1f} | {pct(wall, 95):.1f} | {statistics.median(cpu):.1f} | "
              f"{pct(cpu, 95):.1f} | {runs} | {load()} |", flush=True)

    print("| command | wall median (ms) | wall p95 | CPU median (ms) | CPU p95 | runs | load |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    measure("healthspool --version", [["--version"]])
    # Days and months spread over the ten years (the last year has the journal).
    days = [f"{y}-{m:02d}-{d:02d}" for y in range(2017, 2027) for m in (1, 4, 7, 10) for d in (3, 17)]
    months = [f"{y}-{m:02d}" for y in range(2017, 2027) for m in (2, 5, 8, 11)]
    measure("healthspool day DATE", [["day", d] for d in days])
    measure("healthspool day DATE --json", [["day", d, "--json"] for d in days])
    measure("healthspool calendar MONTH", [["calendar", m] for m in months])
    measure("healthspool calendar MONTH --json", [["calendar", m, "--json"] for m in months])
    # The journal on the same store (issue 16's commands: it must not scan samples).
    measure("healthspool symptom log headache --severity moderate --when evening --aggravated-by caffeine",
            [["symptom", "log", "headache", "--severity", "moderate", "--when", "evening", "--aggravated-by", "caffeine"]])
    measure("healthspool journal DATE", [["journal", f"2026-{m:02d}-{d:02d}"] for m in (6, 7, 8, 9) for d in range(1, 29)])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    def __init__(self, e: Env, web: bool):
        self.e, self.port = e, free_port()
        self.env = {**e.env, "HEALTHSPOOL_WEB_ENABLED": "true" if web else "false", "HEALTHSPOOL_WEB_PORT": str(self.port)}
        sock = e.home / "run" / "healthspool" / "control.sock"
        self.p = subprocess.Popen([e.binary, "daemon"], env=self.env, stdout=open(e.home / "daemon.log", "a"),
                                  stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        while not sock.exists() or (web and not self.listening()):
            assert self.p.poll() is None and time.time() < deadline, (e.home / "daemon.log").read_text()[-2000:]
            time.sleep(0.2)
        self.conn: http.client.HTTPConnection | None = None
        self.cookie = ""

    def listening(self) -> bool:
        with socket.socket() as s:
            return s.connect_ex((web_address(), self.port)) == 0

    def login(self) -> None:
        link = subprocess.run([self.e.binary, "ui", "--no-open"], env=self.env, check=True, capture_output=True,
                              text=True).stdout.strip()
        status, headers, _ = self.get(link.split(str(self.port), 1)[1])
        assert status == 303, status
        self.cookie = headers["set-cookie"].split(";")[0]

    def get(self, path: str) -> tuple[int, dict, bytes]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(web_address(), self.port, timeout=30)
        self.conn.request("GET", path, headers={"Host": f"{web_address()}:{self.port}", "Cookie": self.cookie})
        r = self.conn.getresponse()
        body = r.read()
        if r.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return r.status, {k.lower(): v for k, v in r.getheaders()}, body

    def cpu_ms(self) -> float:
        f = open(f"/proc/{self.p.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def run_ns(self) -> int:
        """CPU time of all the daemon's threads so far, in ns (schedstat: exact, unlike clock ticks)."""
        total = 0
        for t in os.listdir(f"/proc/{self.p.pid}/task"):
            try:
                total += int(open(f"/proc/{self.p.pid}/task/{t}/schedstat").read().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                pass
        return total

    def rss_kib(self) -> int:
        for line in open(f"/proc/{self.p.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def stop(self) -> None:
        if self.conn:
            self.conn.close()
        self.p.send_signal(signal.SIGTERM)
        self.p.wait(60)


PAGES = ["/", "/settings", "/import", "/journal", "/symptoms/log?symptom=Headache", "/meds", "/reminders", "/measure",
         "/notes", "/day", "/day/2026-11-22", "/day/2026-03-14", "/day/2019-07-03",
         # Pages of issue 28; an older binary without one of them answers 404 and is measured without it.
         "/sync", "/lifestyle", "/goals", "/report", "/measure?range=90"]


def pages_served(d) -> list[str]:
    """PAGES this binary has (an older one lacks the newer pages): those it answers with 200."""
    have = []
    for path in PAGES:
        status, _, body = d.get(path)
        if status == 404:
            print(f"(`{path}`: 404 from this binary, left out)")
            continue
        assert status == 200, (path, status, body[:300])
        have.append(path)
    return have


def web(e: Env, requests: int) -> None:
    d = Daemon(e, web=True)
    try:
        d.login()
        pages = pages_served(d)
        for path in pages:   # warm-up: every page twice more (scores of the shown days stored, statements prepared)
            status, _, body = d.get(path)
            assert status == 200, (path, status, body[:300])
        times: dict[str, list[float]] = {p: [] for p in pages}
        # Days of the calendar's year with journal entries, and of the years before, in turn.
        days = [f"/day/{y}-{m:02d}-{dd:02d}" for y in (2026, 2025, 2021, 2017) for m in range(1, 13) for dd in (5, 20)]
        times["/day/DATE (96 days over ten years)"] = []
        cpus: dict[str, list[float]] = {p: [] for p in times}
        cpu0, loads = d.cpu_ms(), [float(load())]
        for i in range(requests):
            for path in pages + [days[i % len(days)]]:
                key = path if path in times else "/day/DATE (96 days over ten years)"
                n0 = d.run_ns()
                t0 = time.perf_counter()
                status, _, _ = d.get(path)
                ms = (time.perf_counter() - t0) * 1000
                cpus[key].append((d.run_ns() - n0) / 1e6)
                assert status == 200, (path, status)
                times[key].append(ms)
            loads.append(float(load()))
        cpu = d.cpu_ms() - cpu0
        n = requests * (len(pages) + 1)
        print(f"daemon CPU {cpu / n:.2f} ms a request over {n} requests; load average {min(loads):.1f}–{max(loads):.1f}")
        print("| page | round trip median (ms) | round trip p95 | max | daemon CPU median (ms) | CPU p95 | requests |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for path, t in times.items():
            c = cpus[path]
            print(f"| `{path}` | {statistics.median(t):.1f} | {pct(t, 95):.1f} | {max(t):.1f} | {statistics.median(c):.1f} | "
                  f"{pct(c, 95):.1f} | {len(t)} |", flush=True)
    finally:
        d.stop()


def weight(e: Env) -> None:
    d = Daemon(e, web=True)
    try:
        d.login()
        pages = pages_served(d)
        print("| page | HTML (bytes) | + CSS, JS, images it references | total (KB) |")
        print("|---|---:|---:|---:|")
        for path in pages:
            _, _, html = d.get(path)
            refs = set(re.findall(rb'(?:href|src)="(/[^"]*\.(?:css|js|png|svg|jpg|webp|ico|woff2?))"', html))
            assets = sum(len(d.get(r.decode())[2]) for r in refs)
            inline = re.findall(rb'(?:href|src)="(https?:[^"]*)"', html)
            assert not inline, (path, inline)   # nothing from elsewhere
            print(f"| `{path}` | {len(html):,} | {assets:,} ({b', '.join(sorted(refs)).decode()}) | {(len(html) + assets) / 1024:.1f} |")
    finally:
        d.stop()


def rss(e: Env, rounds: int, settle: float) -> None:
    print("| round | web off VmRSS (MiB) | web on VmRSS (MiB) | difference (MiB) | load |")
    print("|---|---:|---:|---:|---:|")
    for r in range(rounds):
        got = {}
        for on in (False, True):
            d = Daemon(e, web=on)
            try:
                time.sleep(3)
                for _ in range(3):   # the control socket, as a status check makes the daemon answer
                    subprocess.run([e.binary, "status", "--json"], env=d.env, capture_output=True)
                if on:
                    d.login()
                    for _ in range(3):
                        for path in PAGES:
                            d.get(path)
                    d.conn.close()
                    d.conn = None
                time.sleep(settle)
                got[on] = d.rss_kib() / 1024
            finally:
                d.stop()
        print(f"| {r + 1} | {got[False]:.1f} | {got[True]:.1f} | {got[True] - got[False]:+.1f} | {load()} |", flush=True)


def main() -> None:
    a = argparse.ArgumentParser()
    a.add_argument("binary")
    a.add_argument("home")
    a.add_argument("--runs", type=int, default=40)
    a.add_argument("--requests", type=int, default=100)
    a.add_argument("--rss-rounds", type=int, default=2)
    a.add_argument("--settle", type=float, default=10)
    a.add_argument("--only", default="cli,web,weight,rss")
    o = a.parse_args()
    e = Env(os.path.realpath(o.binary), Path(o.home))
    parts = o.only.split(",")
    if "cli" in parts:
        cli(e, o.runs)
    if "web" in parts:
        web(e, o.requests)
    if "weight" in parts:
        weight(e)
    if "rss" in parts:
        rss(e, o.rss_rounds, o.settle)


if __name__ == "__main__":
    sys.exit(main())
