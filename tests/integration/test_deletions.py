"""Deletions inferred from full Apple Health exports (issue 43): a newer full export that no
longer holds samples an earlier one held marks them deleted in the store, leaves them out of
`day --json`, and sends tombstones to the gateway; Health Auto Export files, older exports and
deletions over the bound mark nothing by themselves; `deletions --restore` puts them back."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import wait_until
from test_journal import sync
from test_spine import set_gateway
from test_web import browser, flash, no_axe_violations, web  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parent.parent.parent
FIRST_DATE = "2026-01-01 09:00:00 +0100"   # bench/generate-export.py's ExportDate


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """An export of 3 generated days (a), and the same phone a week later (b): 50 active-energy
    records gone, 100 step counts new, a later ExportDate."""
    d = tmp_path_factory.mktemp("exports")
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate-export.py"), "--days", "3", "--out", str(d / "a")],
                   check=True, capture_output=True)
    a = (d / "a" / "export.xml").read_text(encoding="utf-8")
    b, removed = later_export(a, "2026-01-08 09:00:00 +0100", remove=50, add=100)
    (d / "b.xml").write_text(b, encoding="utf-8")
    return {"a": d / "a" / "export.xml", "b": d / "b.xml", "removed": removed, "text": a, "dir": d}


def later_export(text: str, date: str, remove: int, add: int, every: int = 40) -> tuple[str, list[str]]:
    """`text` with another ExportDate, `remove` single-line active-energy records left out
    (every `every`-th) and `add` new step counts: returns the text and the removed records'
    start dates."""
    kept, removed, n = [], [], 0
    for line in text.split("\n"):
        if 'ActiveEnergyBurned"' in line and line.lstrip().startswith("<Record") and line.endswith("/>"):
            n += 1
            if n % every == 0 and len(removed) < remove:
                removed.append(line.split('startDate="')[1].split('"')[0])
                continue
        kept.append(line)
    out = "\n".join(kept).replace(f'<ExportDate value="{FIRST_DATE}"/>', f'<ExportDate value="{date}"/>')
    new = [f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Alex’s iPhone" sourceVersion="17.2" unit="count" '
           f'creationDate="2026-01-05 10:00:00 +0100" startDate="2026-01-05 {8 + i // 60:02d}:{i % 60:02d}:00 +0100" '
           f'endDate="2026-01-05 {8 + i // 60:02d}:{i % 60:02d}:30 +0100" value="{10 + i}"/>' for i in range(add)]
    assert len(removed) == remove
    return out.replace("</HealthData>", "\n".join(new) + ("\n" if new else "") + "</HealthData>"), removed


def energy_counts(hs) -> dict:
    """Active-energy samples per day of the generated export, as `day --json` counts them."""
    return {day: json.loads(hs.run("day", day, "--json").stdout)["counts"].get("activeEnergyBurned", 0)
            for day in ("2024-01-01", "2024-01-02", "2024-01-03")}


def removed_by_day(removed: list[str]) -> Counter:
    """The local (UTC) day of each removed record's start ("2024-01-03 19:06:17 +0100")."""
    import datetime
    return Counter(datetime.datetime.strptime(s, "%Y-%m-%d %H:%M:%S %z").astimezone(datetime.timezone.utc).date().isoformat()
                   for s in removed)


def test_a_newer_full_export_without_50_samples_marks_them_deleted_and_the_gateway_gets_50_tombstones(hs, gateway, exports):
    hs.env["TZ"] = "UTC"
    set_gateway(hs, gateway)
    hs.start()
    hs.drop("export-a.xml", exports["a"].read_bytes())
    first = exports["text"].count("<Record") + exports["text"].count("<Workout") + exports["text"].count("<ActivitySummary")
    assert wait_until(lambda: (hs.status()["lastImport"] or {}).get("file") == "export-a.xml", 60), hs.read_log()
    sync(hs)   # the types sent hourly or daily too
    assert hs.status()["store"]["queued"] == 0
    sent_before = set(gateway.sample_ids())
    before = energy_counts(hs)
    assert first > 6000 and len(sent_before) > 6000

    hs.drop("export-b.xml", exports["b"].read_bytes())

    def tombstones():
        return [s for s in gateway.samples if s.get("deleted")]
    assert wait_until(lambda: (hs.status()["lastImport"] or {}).get("file") == "export-b.xml", 60), hs.read_log()
    sync(hs)
    assert wait_until(lambda: len(tombstones()) >= 50 and len(set(gateway.sample_ids()) - sent_before) >= 100, 60), hs.read_log()
    dead = tombstones()
    assert len(dead) == 50 and len({s["id"] for s in dead}) == 50
    assert all(s["type"] == "activeEnergyBurned" and s["version"] >= 2 for s in dead)
    assert {s["id"] for s in dead} <= sent_before            # each was sent before, as a sample
    new = [s for s in gateway.samples if s["id"] not in sent_before]
    assert len(new) == 100 and all(s["type"] == "stepCount" and not s.get("deleted") for s in new)
    # In the store: marked deleted, listed by `healthspool deletions`, gone from the day view.
    listed = json.loads(hs.run("deletions", "--json").stdout)
    assert sorted(d["id"] for d in listed) == sorted(s["id"] for s in dead)
    assert {d["state"] for d in listed} == {"deleted"}
    after = energy_counts(hs)
    gone = removed_by_day(exports["removed"])
    assert {day: before[day] - after[day] for day in before} == {day: gone.get(day, 0) for day in before}
    assert "deleted on the phone" in hs.read_log()

    # Undo: the samples come back to the day view and go out again (same id, higher version).
    assert "50 sample(s) put back" in hs.run("deletions", "--restore").stdout
    assert energy_counts(hs) == before
    sync(hs)
    assert wait_until(lambda: sum(1 for s in gateway.samples if s["id"] in {d["id"] for d in dead} and not s.get("deleted")
                                  and s.get("version", 0) >= 3) == 50, 30), hs.read_log()
    assert {d["state"] for d in json.loads(hs.run("deletions", "--json").stdout)} == {"restored"}


def test_health_auto_export_and_an_older_export_mark_nothing_a_newer_one_over_the_bound_waits(hs, exports):
    hs.env["TZ"] = "UTC"
    hs.run("import", str(exports["a"]))
    before = energy_counts(hs)
    # A Health Auto Export file of the same days without the removed samples: partial by nature.
    hae = {"data": {"metrics": [{"name": "active_energy", "units": "kcal", "data": [
        {"date": f"2024-01-0{d} {10 + h}:00:00 +0100", "qty": 1.5, "source": "Alex’s Apple Watch"} for d in (1, 2, 3) for h in range(5)]}]}}
    hae_file = exports["dir"] / "HealthAutoExport-2024-01-03.json"
    hae_file.write_text(json.dumps(hae))
    hs.run("import", str(hae_file))
    assert json.loads(hs.run("deletions", "--json").stdout) == []
    # Its 5 samples a day join the export's; none of the export's is taken away.
    assert energy_counts(hs) == {day: n + 5 for day, n in before.items()}
    before = energy_counts(hs)
    # A full export missing the same samples but dated before the newest seen: nothing either.
    older, _ = later_export(exports["text"], "2025-12-01 09:00:00 +0100", remove=50, add=0)
    older_file = exports["dir"] / "older.xml"
    older_file.write_text(older, encoding="utf-8")
    out = hs.run("import", str(older_file)).stdout
    assert "deleted" not in out and json.loads(hs.run("deletions", "--json").stdout) == []
    assert energy_counts(hs) == before
    # A newer one over the bound (0 %): the 50 wait, the summary says why; apply marks them.
    out = hs.run("import", str(exports["b"]), "--set", "store.deletions_max_percent=0").stdout
    assert "50 sample(s) no longer in this export wait" in out and "healthspool deletions apply" in out
    assert {d["state"] for d in json.loads(hs.run("deletions", "--json").stdout)} == {"waiting"}
    assert energy_counts(hs) == before
    assert "50 sample(s) marked deleted" in hs.run("deletions", "apply").stdout
    gone = removed_by_day(exports["removed"])
    assert energy_counts(hs) == {day: before[day] - gone.get(day, 0) for day in before}


def test_the_deletions_page_lists_them_and_put_back_restores_the_last_exports(web, browser, exports):
    hs = web.hs
    hs.run("import", str(exports["a"]))
    hs.run("import", str(exports["b"]))
    from selenium.webdriver.common.by import By
    browser.set_window_size(1280, 900)
    browser.get(web.link())
    browser.get(web.base + "/deletions")
    assert browser.find_element(By.ID, "del-h").text == "Deleted on the phone"
    rows = browser.find_elements(By.CSS_SELECTOR, "#deletions tbody tr")
    assert len(rows) == 50 and all("Deleted" in r.text for r in rows)
    no_axe_violations(browser, "/deletions")
    browser.find_element(By.ID, "restore-last").click()
    assert "50 entries put back" in flash(browser, "ok", "50 entries put back")
    assert all("Put back" in r.text for r in browser.find_elements(By.CSS_SELECTOR, "#deletions tbody tr"))
    assert {d["state"] for d in json.loads(hs.run("deletions", "--json").stdout)} == {"restored"}


def test_the_deletions_bench_runs_in_its_smoke_mode():
    """bench/deletions-bench.sh SMOKE=1: the benchmark of BENCHMARKS.md does not rot (seconds)."""
    from conftest import BIN
    p = subprocess.run(["bash", str(ROOT / "bench" / "deletions-bench.sh")], env={**os.environ, "SMOKE": "1", "B": BIN},
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.count("20 sample(s) deleted on the phone") == 2, p.stdout
    assert "re-import B-same" in p.stdout, p.stdout
