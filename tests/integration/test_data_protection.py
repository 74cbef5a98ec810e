"""Issue 31, Data Protection the Linux way: `status` and `config check` say whether the places
that hold health data are encrypted at rest, and nothing sensitive is written outside them (no
health value in the daemon's log or standard error, /tmp or the runtime directory)."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path


from conftest import samples, wait_until

PLACES = ["store", "WAL", "notes audio", "archive/", "failed/"]


def test_status_and_config_check_report_each_place_and_warn_when_not_encrypted(hs):
    # The test machine's /tmp is neither fscrypt nor dm-crypt (checked the same way here).
    st = hs.status()
    assert [p["role"] for p in st["protection"]["places"]] == PLACES
    assert {p["protection"] for p in st["protection"]["places"]} == {"none"}, st["protection"]
    assert st["protection"]["places"][0]["path"] == str(hs.state / "healthspool.db")
    assert st["protection"]["places"][3]["path"] == str(hs.spool / "archive")
    text = hs.run("status", check=False).stdout
    assert "protection:  store, WAL, notes audio, archive/, failed/: not encrypted" in text, text
    assert "warning: health data is not encrypted at rest" in text and "healthspool-security(7)" in text
    check = hs.run("config", "check").stdout
    assert "protection:  store, WAL, notes audio, archive/, failed/: not encrypted" in check, check
    assert "healthspool-security(7)" in check


DISTINCT = {"weight": "87.613", "note": "zq-rash-on-left-elbow-4471", "hr": "173"}


def files_containing(root: Path, needles: list[str], since: float) -> list[str]:
    """Files under `root` changed since `since` that hold any of `needles`."""
    found = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = Path(dirpath) / name
            try:
                if path.is_symlink() or not path.is_file() or path.stat().st_mtime < since or path.stat().st_size > 50 << 20:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            found += [f"{path}: {n}" for n in needles if n.encode() in data]
    return found


def test_no_health_value_leaves_the_store_for_the_log_tmp_or_the_runtime_directory(hs, gateway):
    began = time.time() - 1
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test")
    hs.start(env={"HEALTHSPOOL_LOG_LEVEL": "debug"})
    outputs = []
    for args in (["measure", "weight", DISTINCT["weight"]], ["measure", "hr", DISTINCT["hr"]],
                 ["symptom", "log", "rash", "--severity", "moderate", "--note", DISTINCT["note"]]):
        p = hs.run(*args)
        outputs.append(p.stderr)
    hs.drop("a.json", json.dumps([dict(s, value=float(DISTINCT["hr"])) for s in samples(3, start=500)]))
    assert wait_until(lambda: len(gateway.samples) >= 5, 20), hs.read_log()   # the weight, the hr, the three dropped
    hs.run("sync")
    time.sleep(1)
    assert hs.stop() == 0
    # The values did reach the store and the gateway: the test looks for something that exists.
    assert DISTINCT["note"].encode() in b"".join(p.read_bytes() for p in hs.state.glob("healthspool.db*"))
    assert any(abs(s["value"] - float(DISTINCT["weight"])) < 1e-6 for s in gateway.samples if s["type"] == "bodyMass")
    needles = [DISTINCT["weight"], DISTINCT["note"]]
    log = hs.read_log()
    assert log and not [n for n in needles if n in log], "the daemon's log (its journal output and stderr) shows a value"
    assert not [n for n in needles for err in outputs if n in err]
    assert not files_containing(hs.runtime, needles, began), "the runtime directory holds a value"
    # /tmp, except this test's HOME (pytest makes it under /tmp: the store and spool are in it).
    leaked = [f for f in files_containing(Path("/tmp"), needles, began) if not f.startswith(str(hs.home) + "/")]
    assert not leaked, leaked
