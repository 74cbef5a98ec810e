#!/usr/bin/env python3
"""The real daemon (HEALTHSPOOL_BIN) imports EXPORT with no gateway set (nothing syncs), then is
started again with tests/gateway.py set and syncs all of it. Prints one JSON line: wall seconds and
the daemon process's own CPU seconds (user + system, from /proc) for each phase. For instruction
counts independent of the machine's load, point HEALTHSPOOL_BIN at a wrapper that runs
`valgrind --tool=callgrind` when its first argument is `daemon` (BENCHMARKS.md, issue 27)."""
import json, os, sys, tempfile, time, shutil
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import Healthspool, wait_until
from gateway import Gateway, make_ca
EXPORT = Path(sys.argv[1])
def cpu(pid):
    f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
home = Path(tempfile.mkdtemp(prefix="hs-d27-"))
try:
    certs = make_ca(home / "ca")
    gw = Gateway(certs)
    hs = Healthspool(home)
    hs.start()
    time.sleep(1)
    c0 = cpu(hs.daemon.pid); t0 = time.monotonic()
    hs.drop("export.zip", EXPORT.read_bytes(), by_rename=True)
    wait_until(lambda: not (hs.spool / "export.zip").exists(), 1800, interval=0.2)
    wait_until(lambda: hs.status()["store"]["samples"] > 0, 60)
    t1 = time.monotonic(); c1 = cpu(hs.daemon.pid)
    n = hs.status()["store"]["samples"]
    hs.stop()
    hs.run("gateway", "set", gw.url, "--ca-file", str(certs["ca"]))
    hs.start()
    t2 = time.monotonic(); c2 = cpu(hs.daemon.pid)
    wait_until(lambda: hs.status()["store"]["queued"] == 0, 1800, interval=0.5)
    t3 = time.monotonic(); c3 = cpu(hs.daemon.pid)
    hs.stop(); gw.stop()
    print(json.dumps({"samples": n, "import_wall": round(t1-t0,2), "import_cpu": round(c1-c0,2),
                      "sync_wall": round(t3-t2,2), "sync_cpu": round(c3-c2,2)}))
finally:
    shutil.rmtree(home, ignore_errors=True)
