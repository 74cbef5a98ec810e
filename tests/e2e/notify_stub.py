#!/usr/bin/python3
"""A stand-in for `healthspool daemon` used by `systemd-e2e.sh --selftest`.

Run as ExecStart= of the real unit file, it proves the harness and the unit's
sandbox before the daemon exists: it checks which paths the sandbox leaves
writable, then speaks the sd_notify protocol from the main PID (READY,
STATUS, WATCHDOG every WATCHDOG_USEC/2, STOPPING on SIGTERM) and exits 0.
"""
import os
import signal
import socket
import sys
import time


def notify(message):
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.connect(address)
        s.sendall(message.encode())


def writable(path):
    try:
        probe = os.path.join(path, ".e2e-probe")
        with open(probe, "w") as f:
            f.write("x")
        os.unlink(probe)
        return True
    except OSError:
        return False


def stop(*_):
    notify("STOPPING=1\nSTATUS=Stopping")
    print("stub: stopping", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
home = os.path.expanduser("~")
expect = {
    os.path.join(home, "HealthSpool"): True,
    os.path.join(home, ".local/state/healthspool"): True,
    os.environ.get("RUNTIME_DIRECTORY", "/nonexistent"): True,
    "/tmp": True,
    home: False,
    "/etc": False,
}
bad = [f"{p} writable={writable(p)} expected={w}" for p, w in expect.items() if writable(p) != w]
print("stub: sandbox " + ("ok" if not bad else "broken: " + "; ".join(bad)), flush=True)
notify("READY=1\nSTATUS=Idle: stub ready (sandbox %s)" % ("ok" if not bad else "broken"))
interval = int(os.environ.get("WATCHDOG_USEC", "30000000")) / 2e6
while True:
    time.sleep(interval)
    notify("WATCHDOG=1")
