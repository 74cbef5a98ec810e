"""Lab values from the providers' records (issue 42): an Observation with a number is a lab
result, derived when shown from the stored resource (which stays byte for byte the file's), listed
by test on /records, `healthspool records`, the doctor's summary ("Lab trends", left out when
empty), drawn on the measurements page (a chart per test; a glucose also beside the blood sugar
typed in); heart-rate notifications and cycle entries marked on the calendar."""
from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from collections import defaultdict
from datetime import date, timedelta

from conftest import ROOT
from test_web import browser, web  # noqa: F401 (fixtures)


def independent_labs(zip_path) -> dict[str, list[float]]:
    """Each LOINC code's numeric values, oldest first, read from the zip's files by this test."""
    labs = defaultdict(list)
    with zipfile.ZipFile(zip_path) as z:
        for n in z.namelist():
            if "/clinical-records/" not in n:
                continue
            r = json.loads(z.read(n))
            q = r.get("valueQuantity") or {}
            if r.get("resourceType") != "Observation" or "value" not in q:
                continue
            code = next(c["code"] for c in r["code"]["coding"] if c["system"] == "http://loinc.org")
            labs[code].append((r.get("effectiveDateTime") or r["issued"], q["value"]))
    return {c: [v for _, v in sorted(vs)] for c, vs in labs.items()}


def test_lab_values_of_a_generated_export_in_records_and_the_summary(hs, tmp_path):
    hs.env["TZ"] = "UTC"
    empty = tmp_path / "empty.html"
    hs.run("report", "--out", str(empty))
    assert 'id="r-labs"' not in empty.read_text(), "no lab result: the section is left out"
    out = tmp_path / "gen"
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate-export.py"), "--days", "1", "--clinical", "60", "--out", str(out)],
                   check=True, capture_output=True)
    hs.run("import", str(out / "export.zip"), "--no-progress")
    expected = independent_labs(out / "export.zip")
    assert set(expected) == {"4548-4", "2093-3", "2345-7"} and sum(map(len, expected.values())) >= 8, expected
    j = json.loads(hs.run("records", "--json").stdout)
    got = {t["loinc"]: [r["value"] for r in t["readings"]] for t in j["labTrends"]}
    assert got == expected, "every numeric Observation, by test, oldest first, the values as the files give them"
    kinds = {t["loinc"]: t["kind"] for t in j["labTrends"]}
    assert kinds == {"4548-4": None, "2093-3": None, "2345-7": "glucose"}
    assert all(r["unit"] for t in j["labTrends"] for r in t["readings"])
    text = hs.run("records").stdout
    assert "Lab results\n  Cholesterol: " in text and "Glucose: " in text and "Hemoglobin A1c: " in text
    summary = tmp_path / "summary.html"
    hs.run("report", "--out", str(summary))
    html = summary.read_text()
    assert 'id="r-labs"' in html and ">Lab trends</h2>" in html
    for name in ("Cholesterol", "Glucose", "Hemoglobin A1c"):
        assert f'<th scope="row">{name}<br>' in html, name
    rj = json.loads(hs.run("report", "--json", "--out", "-").stdout)
    assert {t["loinc"]: [r["value"] for r in t["readings"]] for t in rj["labTrends"]} == expected


def test_the_calendar_marks_heart_rate_notifications_and_cycle_entries(hs, tmp_path):
    from records_fixture import events_json
    hs.env["TZ"] = "UTC"
    hs.run("import", str(events_json(tmp_path / "HealthAutoExport.json", date(2025, 6, 8))), "--no-progress")
    month = json.loads(hs.run("calendar", "2025-06", "--json").stdout)["days"]
    marked = {d["date"]: (d["heartRateNotifications"], d["cycleEntries"]) for d in month if d["heartRateNotifications"] or d["cycleEntries"]}
    assert marked == {"2025-06-08": (2, 2)}
    grid = hs.run("calendar", "2025-06").stdout
    assert "Heart rate notifications on the 8" in grid and "Cycle tracked on the 8" in grid


def test_lab_trends_on_the_measurements_and_records_pages_at_both_sizes(web, browser, tmp_path):
    from records_fixture import events_json, recent_glucose, records_zip
    from selenium.webdriver.common.by import By
    from test_web import shot
    today = date.today()
    path = records_zip(tmp_path / "export.zip")
    with zipfile.ZipFile(path, "a") as z:
        for d, v in ((today - timedelta(days=3), 6.2), (today - timedelta(days=40), 5.1)):
            z.writestr(*recent_glucose(d, v))
    web.hs.run("import", str(path), "--no-progress")
    web.hs.run("import", str(events_json(tmp_path / "HealthAutoExport.json", today)), "--no-progress")
    web.hs.run("measure", "glucose", "98", "mg/dL")
    browser.get(web.link())
    for size, tag in (((1280, 900), "desktop"), ((390, 844), "phone")):
        browser.set_window_size(*size)
        browser.get(web.base + "/measure")
        chart = browser.find_element(By.ID, "chart-glucose")
        assert len(chart.find_elements(By.CSS_SELECTOR, "path")) == 1, "the lab glucose of 3 days ago beside the typed one; 40 days ago is out of range"
        assert len(chart.find_elements(By.CSS_SELECTOR, "circle")) == 1
        assert "1 lab result from your providers" in chart.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        assert "Diamonds: lab results from your providers." in browser.find_element(By.ID, "chart-glucose-h").find_element(By.XPATH, "..").text
        labs = {c.find_element(By.TAG_NAME, "h3").text: c for c in browser.find_elements(By.CSS_SELECTOR, "#labs .chart")}
        assert set(labs) == {"Cholesterol (mg/dL)", "Glucose (mmol/L)", "Hemoglobin A1c (%)"}, set(labs)
        glucose = labs["Glucose (mmol/L)"]
        assert [li.text.split(":")[1].split(",")[0].strip() for li in glucose.find_elements(By.CSS_SELECTOR, "li")] == ["6.2 mmol/L (high)", "5.1 mmol/L"]
        assert len(glucose.find_elements(By.CSS_SELECTOR, "svg circle")) == 2 and glucose.find_elements(By.CSS_SELECTOR, "svg rect.band")
        browser.execute_script("document.getElementById('chart-glucose').scrollIntoView()")
        shot(browser, f"measure-lab-glucose-{tag}")
        browser.execute_script("document.getElementById('labs').scrollIntoView()")
        shot(browser, f"measure-labs-{tag}")
        browser.get(web.base + "/records")
        rows = browser.find_element(By.ID, "lab-results").text
        assert "Hemoglobin A1c" in rows and "5.9 %" in rows and "Cholesterol" in rows and "182 mg/dL" in rows
        browser.execute_script("document.getElementById('lab-results').scrollIntoView()")
        shot(browser, f"records-labs-{tag}")
        browser.get(web.base + f"/day/{today.isoformat()}")
        cell = browser.find_element(By.CSS_SELECTOR, f'#calendar a[data-date="{today.isoformat()}"]')
        assert cell.get_attribute("data-heart") == "true" and cell.get_attribute("data-cycle") == "true"
        assert "2 heart rate notifications" in cell.get_attribute("aria-label") and "cycle tracked" in cell.get_attribute("aria-label")
        assert "♥" in cell.text and "○" in cell.text
        browser.execute_script("document.getElementById('calendar').scrollIntoView()")
        shot(browser, f"calendar-marks-{tag}")
    from test_report import A4, pdf
    browser.set_window_size(1280, 900)
    browser.get(web.base + "/report")
    section = browser.find_element(By.ID, "r-labs").find_element(By.XPATH, "..")
    assert "Glucose" in section.text and "6.2 mmol/L (high)" in section.text and "+1.1 mmol/L" in section.text
    _, text, _ = pdf(browser, A4, "report-labs-a4")
    assert "Lab trends" in text and "A1c" in text and "+1.1" in text
