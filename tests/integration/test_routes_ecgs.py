"""Workout routes and ECGs from an Apple Health export.zip (issue 42), end to end with the real
binary: a generated export (bench/generate-export.py --routes --ecgs) imported; the stored
route checked point by point against PyPI gpxpy and the stored voltages against a small
reader written here; both shown by `healthspool day --json` and on the web's day view; the
ECGs reach the test gateway while routes (local-only) do not."""
from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
import zipfile
from datetime import timezone

import pytest

from conftest import ROOT, free_port, wait_until
from test_web import Web, browser, listening, shot  # noqa: F401 (fixture)

gpxpy = pytest.importorskip("gpxpy")


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate-export.py"), "--days", "5", "--routes", "2", "--ecgs", "5",
                    "--out", str(out)], check=True, capture_output=True)
    return out / "export.zip"


def stored(hs, type_: str) -> list[dict]:
    db = sqlite3.connect(hs.state / "healthspool.db")
    rows = db.execute("SELECT s.metadata, s.value, s.start_ms FROM samples s JOIN types t ON t.id = s.type WHERE t.name = ? "
                      "ORDER BY s.start_ms", (type_,)).fetchall()
    db.close()
    return [{"metadata": json.loads(m), "value": v, "start": s} for m, v, s in rows]


def routes_by_file(hs) -> dict[str, list]:
    """Each route's points, its parts put together in point order."""
    parts: dict[str, list] = {}
    for p in stored(hs, "workoutRoute"):
        parts.setdefault(p["metadata"]["file"], []).append(p["metadata"])
    return {f: [pt for m in sorted(ms, key=lambda m: int(m["firstPoint"])) for pt in json.loads(m["points"])]
            for f, ms in parts.items()}


def test_every_stored_route_point_agrees_with_gpxpy(hs, export):
    hs.env["TZ"] = "UTC"
    hs.run("import", str(export), "--no-progress")
    routes = routes_by_file(hs)
    with zipfile.ZipFile(export) as z:
        files = [n for n in z.namelist() if n.endswith(".gpx")]
        assert sorted(files) == sorted(routes)
        for name in files:
            gpx = gpxpy.parse(io.TextIOWrapper(z.open(name), encoding="utf-8"))
            expected = [p for t in gpx.tracks for s in t.segments for p in s.points]
            got = routes[name]
            assert len(got) == len(expected) > 1000
            for mine, theirs in zip(got, expected):
                ext = {e.tag.split("}")[-1]: float(e.text) for e in theirs.extensions}
                assert mine[0] == int(theirs.time.replace(tzinfo=timezone.utc).timestamp() * 1000)
                assert (mine[1], mine[2], mine[3]) == (theirs.latitude, theirs.longitude, theirs.elevation)
                assert (mine[4], mine[5], mine[6], mine[7]) == (ext["speed"], ext["course"], ext["hAcc"], ext["vAcc"])


def read_ecg_csv(text: str) -> tuple[dict, list[float]]:
    """An independent reader: `name,value` lines up to the first line that is a bare number,
    then one voltage a line."""
    header, volts = {}, []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            volts.append(float(line))
            continue
        except ValueError:
            pass
        key, _, value = line.partition(",")
        header[key] = value.strip('"')
    return header, volts


def test_every_stored_voltage_agrees_with_an_independent_reader(hs, export):
    hs.env["TZ"] = "UTC"
    hs.run("import", str(export), "--no-progress")
    ecgs = {e["metadata"]["file"]: e for e in stored(hs, "electrocardiogram")}
    with zipfile.ZipFile(export) as z:
        names = [n for n in z.namelist() if n.endswith(".csv")]
        assert sorted(names) == sorted(ecgs) and len(names) == 5
        for name in names:
            header, volts = read_ecg_csv(z.read(name).decode("utf-8"))
            e = ecgs[name]["metadata"]
            assert json.loads(e["voltages"]) == volts and len(volts) == 15360
            assert e["classification"] == header["Classification"]
            assert e["sampleRateHz"] == header["Sample Rate"].split()[0]
            assert e["lead"] == header["Lead"]
            assert "Name" not in json.dumps(e) and "Alex Example" not in json.dumps(e)
    # A re-drop adds nothing.
    again = hs.run("import", str(export), "--no-progress").stdout
    assert "0 new" in again or "unchanged" in again, again


def test_a_dropped_export_shows_its_route_and_ecgs_and_sends_the_ecgs_only(hs, gateway, export, browser):
    from selenium.webdriver.common.by import By
    hs.env["TZ"] = "UTC"
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    w = Web(hs, free_port())
    hs.start(env=w.env)
    assert wait_until(lambda: listening(w.port), 15), hs.read_log()
    sizes: list[int] = []
    gateway.faults.append(lambda request: sizes.append(len(request["body"])))   # notes each body, answers nothing
    hs.drop("export.zip", export.read_bytes())
    assert wait_until(lambda: len([s for s in gateway.samples if s["type"] == "electrocardiogram"]) == 5, 90), hs.read_log()
    sent = list(gateway.samples)
    assert not [s for s in sent if s["type"] == "workoutRoute"], "routes are local unless enabled by name"
    ecg = next(s for s in sent if s["type"] == "electrocardiogram")
    assert len(json.loads(ecg["metadata"]["voltages"])) == 15360 and ecg["unit"] == "count/min"
    # Every request kept under gateway.max_body_bytes (1 MiB).
    assert sizes and max(sizes) <= 1 << 20

    day = json.loads(hs.run("day", "2024-01-01", "--json").stdout)
    assert len(day["routes"]) == 1 and day["routes"][0]["points"] > 1000 and day["routes"][0]["workoutId"]
    assert day["routes"][0]["distanceKm"] > 1
    assert [e["classificationCode"] for e in day["ecgs"]] == ["sinusRhythm"]
    af = json.loads(hs.run("day", "2024-01-05", "--json").stdout)["ecgs"]
    assert af[0]["classificationCode"] == "atrialFibrillation" and "See a doctor" in af[0]["advice"]
    assert "See a doctor" in hs.run("day", "2024-01-05").stdout

    types = hs.run("types").stdout
    assert "kept here, not sent: a route shows where you live and run" in next(l for l in types.splitlines() if " workoutRoute " in l)
    browser.get(w.link())
    browser.get(w.base + "/settings")
    assert "Kept on this computer, not sent: a route shows" in browser.find_element(By.ID, "t-workoutRoute-d").text
    for size, tag in (((1280, 900), "desktop"), ((390, 844), "phone")):
        browser.set_window_size(*size)
        browser.get(w.base + "/day/2024-01-01")
        trace = browser.find_element(By.CSS_SELECTOR, "svg.route-trace polyline")
        assert trace.get_attribute("points").count(",") > 100
        assert browser.find_elements(By.CSS_SELECTOR, "svg.ecg-strip polyline")
        assert "Sinus rhythm" in browser.find_element(By.CSS_SELECTOR, ".ecg-result").text
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"/day at {size[0]} px scrolls sideways by {overflow} px"
        browser.execute_script("document.querySelector('section.route').scrollIntoView()")
        shot(browser, f"day-route-{tag}")
        browser.execute_script("document.querySelector('section.ecg').scrollIntoView()")
        shot(browser, f"day-ecg-{tag}")
        browser.get(w.base + "/day/2024-01-05")
        advice = browser.find_element(By.CSS_SELECTOR, ".ecg-advice")
        assert "See a doctor" in advice.text
        browser.execute_script("document.querySelector('section.ecg').scrollIntoView()")
        shot(browser, f"day-ecg-af-{tag}")
    # No request left the machine for the drawing: no tiles, no fonts, nothing fetched.
    assert not browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin))")

    # The doctor's summary gains the period's ECGs, each with its strip and result; a period
    # without any leaves the section out.
    report = json.loads(hs.run("report", "--from", "2024-01-01", "--to", "2024-01-05", "--json", "--out", "-").stdout)
    assert [e["classificationCode"] for e in report["ecgs"]] == ["sinusRhythm"] * 4 + ["atrialFibrillation"]
    html = hs.run("report", "--from", "2024-01-01", "--to", "2024-01-05", "--out", "-").stdout
    assert "ECG recordings" in html and html.count('class="ecg-strip"') == 5 and "See a doctor" in html
    assert 'width="150mm"' in html   # 6 s a row at 25 mm/s: true scale on paper
    assert "ECG recordings" not in hs.run("report", "--from", "2024-02-01", "--to", "2024-02-05", "--out", "-").stdout
    for size, tag in (((1280, 900), "desktop"), ((390, 844), "phone")):
        browser.set_window_size(*size)
        browser.get(w.base + "/report?from=2024-01-01&to=2024-01-05")
        browser.execute_script("document.getElementById('r-ecg').scrollIntoView()")
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        wide = browser.execute_script("return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > "
                                      "window.innerWidth + 1).slice(0, 4).map(e => e.tagName + '.' + e.className.baseVal + e.className)")
        assert overflow <= 0, f"/report at {size[0]} px scrolls sideways by {overflow} px: {wide}"
        shot(browser, f"report-ecg-{tag}")
