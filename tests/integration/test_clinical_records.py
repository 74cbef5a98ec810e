"""Clinical records, audiograms, vision prescriptions (Apple export.zip) and Health Auto Export's
medications, cycles and heart-rate notifications (issue 42), end to end with the real binary.
Every stored clinical record is checked independently: byte for byte the zip's file, and an R4
one validated by PyPI fhir.resources (R4B models; DSTU2 ones parse as JSON)."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from test_web import browser, web  # noqa: F401 (fixtures)

fhir = pytest.importorskip("fhir.resources.R4B")

GOLDEN = ROOT / "Tests" / "HealthExportTests" / "Golden"


def stored(hs, type_: str) -> list[dict]:
    db = sqlite3.connect(hs.state / "healthspool.db")
    rows = db.execute("SELECT s.metadata, s.value, s.start_ms, s.id FROM samples s JOIN types t ON t.id = s.type WHERE t.name = ? "
                      "ORDER BY s.start_ms", (type_,)).fetchall()
    db.close()
    return [{"metadata": json.loads(m), "value": v, "start": s, "id": i} for m, v, s, i in rows]


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    """The written fixtures (9 R4, 5 DSTU2, an audiogram, two prescriptions) and 40 generated
    records, each under Apple's folder names."""
    out = tmp_path_factory.mktemp("records")
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate-export.py"), "--days", "1", "--clinical", "40", "--audiogram",
                    "--out", str(out)], check=True, capture_output=True)
    generated = zipfile.ZipFile(out / "export.zip")
    xml = (GOLDEN / "clinical-export.xml").read_text(encoding="utf-8")
    gen_xml = generated.read("apple_health_export/export.xml").decode()
    elements = "".join(l + "\n" for l in gen_xml.splitlines() if l.startswith((" <ClinicalRecord ", " <Audiogram ", "  <Sensitivity", " </Audiogram")))
    xml = xml.replace("</HealthData>", elements + "</HealthData>")
    path = out / "records.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("apple_health_export/export.xml", xml)
        for f in sorted((GOLDEN / "clinical-records").glob("*.json")):
            z.writestr(f"apple_health_export/clinical-records/{f.name}", f.read_bytes())
        for name in generated.namelist():
            if "/clinical-records/" in name:
                z.writestr(name, generated.read(name))
        # A record far over the 1 MiB bound: noted and skipped, the others read.
        z.writestr("apple_health_export/clinical-records/DocumentReference-huge.json",
                   '{"resourceType":"DocumentReference","id":"huge","content":[{"attachment":{"data":"' + "A" * (2 << 20) + '"}}]}')
    return path


def test_every_stored_record_is_the_files_resource_and_valid_fhir(hs, export):
    hs.env["TZ"] = "UTC"
    out = hs.run("import", str(export), "--no-progress", check=False)
    records = stored(hs, "clinicalRecord")
    with zipfile.ZipFile(export) as z:
        files = {n: z.read(n) for n in z.namelist() if "/clinical-records/" in n and not n.endswith("huge.json")}
    assert len(records) == len(files) == 54
    assert sorted(r["metadata"]["file"] for r in records) == sorted(files)
    r4 = dstu2 = 0
    for r in records:
        m = r["metadata"]
        raw = files[m["file"]]
        assert m["resource"].encode("utf-8") == raw, f"{m['file']} is not kept byte for byte"
        resource = json.loads(raw)
        assert m["resourceType"] == resource["resourceType"] and m["resourceId"] == resource["id"]
        if m["fhirVersion"] == "4.0.1":
            fhir.get_fhir_model_class(resource["resourceType"]).model_validate_json(m["resource"])
            r4 += 1
        else:
            assert m["fhirVersion"] == "1.0.2"
            dstu2 += 1
    assert r4 >= 30 and dstu2 >= 10
    said = out.stdout + out.stderr
    assert "huge.json" in said and "larger than" in said, said


def test_a_redrop_adds_no_record_and_records_are_not_sent_by_default(hs, export):
    hs.run("import", str(export), "--no-progress", check=False)
    first = {r["id"] for r in stored(hs, "clinicalRecord")}
    hs.run("import", str(export), "--no-progress", check=False)
    assert {r["id"] for r in stored(hs, "clinicalRecord")} == first
    line = next(l for l in hs.run("types").stdout.splitlines() if " clinicalRecord " in l)
    assert "kept here, not sent: your providers' records are the most private data you have" in line, line


def test_the_audiogram_and_prescriptions_are_stored(hs, export):
    hs.run("import", str(export), "--no-progress", check=False)
    audiograms = stored(hs, "audiogram")
    assert len(audiograms) == 2    # the fixture's and the generator's
    for a in audiograms:
        assert [p["frequencyHz"] for p in json.loads(a["metadata"]["points"])] == [250, 500, 1000, 2000, 4000, 8000]
    assert sorted(v["value"] for v in stored(hs, "visionPrescription")) == [1, 2]


def test_health_auto_export_medications_cycles_and_notifications(hs, tmp_path):
    body = {"data": {
        "medications": [{"name": "Metformin", "dosage": "500 mg", "scheduledDate": "2025-06-08 08:00:00 +0000",
                         "date": "2025-06-08 08:04:10 +0000", "status": "Taken"},
                        {"name": "Lisinopril", "dosage": "10 mg", "scheduledDate": "2025-06-08 08:00:00 +0000", "status": "Skipped"}],
        "cycleTracking": [{"name": "menstrual_flow", "date": "2025-06-08 00:00:00 +0000", "value": "Heavy"}],
        "heartRateNotifications": [{"type": "High Heart Rate", "start": "2025-06-08 14:10:00 +0000", "threshold": 120,
                                    "heartRate": [{"date": "2025-06-08 14:10:00 +0000", "qty": 131}]}]}}
    f = tmp_path / "HealthAutoExport-2025-06-08.json"
    f.write_text(json.dumps(body))
    hs.run("import", str(f), "--no-progress")
    doses = stored(hs, "medicationDose")
    assert [(d["metadata"]["medication"], d["metadata"]["status"], d["value"]) for d in doses] == \
        [("Lisinopril", "skipped", 0), ("Metformin", "taken", 1)]
    assert [c["value"] for c in stored(hs, "cycleTracking")] == [4]
    assert [(n["metadata"]["kind"], n["value"]) for n in stored(hs, "heartRateNotification")] == [("high", 131)]
    # Lisinopril taken after all: the same dose, its new status.
    body["data"]["medications"][1]["status"] = "Taken"
    f.write_text(json.dumps(body))
    hs.run("import", str(f), "--no-progress")
    doses = stored(hs, "medicationDose")
    assert len(doses) == 2 and all(d["value"] == 1 for d in doses)


def test_the_summary_lists_records_and_notifications_and_the_day_shows_them(hs, tmp_path):
    from records_fixture import events_json, records_zip
    day = "2025-06-08"
    empty = tmp_path / "empty.html"
    hs.run("report", "--from", day, "--to", day, "--out", str(empty), env={"TZ": "UTC"})
    assert 'id="r-records"' not in empty.read_text(), "no records, no notifications: the section is left out"
    hs.run("import", str(records_zip(tmp_path / "export.zip")), "--no-progress")
    from datetime import date
    hs.run("import", str(events_json(tmp_path / "HealthAutoExport.json", date.fromisoformat(day))), "--no-progress")
    out = tmp_path / "summary.html"
    hs.run("report", "--from", day, "--to", day, "--out", str(out), env={"TZ": "UTC"})
    html = out.read_text()
    for text in ('id="r-conditions"', "Essential hypertension", 'id="r-allergies"', "Penicillin", "Peanut",
                 'id="r-provider-medications"', "Lisinopril 10 mg tablet", "Albuterol inhaler", 'id="r-immunizations"',
                 "COVID-19 mRNA vaccine", 'id="r-heart-notifications"', "High heart rate: 131 bpm (above 120)", "Irregular rhythm"):
        assert text in html, text
    assert "https://" not in html, "the providers' addresses stay out of the printed summary"
    j = json.loads(hs.run("report", "--from", day, "--to", day, "--json", "--out", "-", env={"TZ": "UTC"}).stdout)
    assert [i["name"] for i in j["healthRecords"]["allergies"]] == ["Penicillin", "Peanut"]
    assert [n["kind"] for n in j["heartRateNotifications"]] == ["irregular", "high"]
    view = json.loads(hs.run("day", day, "--json", env={"TZ": "UTC"}).stdout)
    assert [n["kind"] for n in view["heartRateNotifications"]] == ["irregular", "high"]
    assert [c["text"] for c in view["cycleTracking"]] == ["Menstrual flow: Medium", "Spotting"]


def test_the_records_page_and_the_days_events_at_both_sizes(web, browser, tmp_path):
    from records_fixture import events_json, records_zip
    from selenium.webdriver.common.by import By
    from test_web import shot
    from datetime import date
    web.hs.run("import", str(records_zip(tmp_path / "export.zip")), "--no-progress")
    today = date.today()
    web.hs.run("import", str(events_json(tmp_path / "HealthAutoExport.json", today)), "--no-progress")
    browser.get(web.link())
    browser.get(web.base + "/settings")
    assert "Kept on this computer, not sent: your providers' records are the most private data you have" in \
        browser.find_element(By.ID, "t-clinicalRecord-d").text
    for size, tag in (((1280, 900), "desktop"), ((390, 844), "phone")):
        browser.set_window_size(*size)
        browser.get(web.base + "/records")
        lists = {s.get_attribute("id"): s.text for s in browser.find_elements(By.CSS_SELECTOR, "section.records")}
        assert set(lists) == {"conditions", "allergies", "provider-medications", "immunizations"}
        assert "Essential hypertension" in lists["conditions"] and "Asthma" in lists["conditions"]
        assert "Lisinopril 10 mg tablet" in lists["provider-medications"]
        [hearing] = browser.find_elements(By.CSS_SELECTOR, "#audiograms table.audiogram")
        assert [[c.text for c in r.find_elements(By.CSS_SELECTOR, "th, td")] for r in hearing.find_elements(By.CSS_SELECTOR, "tbody tr")][:2] == \
            [["250 Hz", "10 dB HL", "5 dB HL"], ["500 Hz", "15 dB HL", "10 dB HL"]]
        tables = {t.find_element(By.TAG_NAME, "caption").text.split("\n")[0]: t
                  for t in browser.find_elements(By.CSS_SELECTOR, "#vision-prescriptions table.prescription")}
        assert set(tables) == {"Glasses", "Contact lenses (Acuvue Oasys)"}
        glasses = tables["Glasses"]
        assert [c.text for c in glasses.find_elements(By.CSS_SELECTOR, "tbody tr")[0].find_elements(By.CSS_SELECTOR, "th, td")] == \
            ["Sphere", "-1.25 D", "-1.5 D"]
        shot(browser, f"records-{tag}")
        browser.execute_script("document.getElementById('audiograms').scrollIntoView()")
        shot(browser, f"records-tests-{tag}")
        browser.execute_script("document.getElementById('vision-prescriptions').scrollIntoView()")
        shot(browser, f"records-vision-{tag}")
        browser.get(web.base + f"/day/{today.isoformat()}")
        notes = browser.find_element(By.CSS_SELECTOR, "section.heart-notifications").text
        assert "High heart rate: 131 bpm (above 120)" in notes and "Irregular rhythm" in notes
        assert "Menstrual flow: Medium" in browser.find_element(By.CSS_SELECTOR, "section.cycle").text
        browser.execute_script("document.querySelector('section.heart-notifications').scrollIntoView()")
        shot(browser, f"day-events-{tag}")


def test_records_cli_text_and_json_agree_with_the_stored_records(hs, tmp_path):
    from records_fixture import records_zip
    hs.env["TZ"] = "UTC"
    assert hs.run("records").stdout.startswith("No health records stored."), "none: one plain line"
    empty = json.loads(hs.run("records", "--json").stdout)
    assert all(v == [] for v in empty.values()) and {"conditions", "audiograms", "visionPrescriptions"} <= set(empty)
    hs.run("import", str(records_zip(tmp_path / "export.zip")), "--no-progress")
    j = json.loads(hs.run("records", "--json").stdout)
    text = hs.run("records").stdout
    kinds = {"Condition": "conditions", "AllergyIntolerance": "allergies", "MedicationStatement": "provider-medications",
             "MedicationRequest": "provider-medications", "MedicationOrder": "provider-medications", "Immunization": "immunizations"}
    expected: dict[str, list[str]] = {k: [] for k in set(kinds.values())}
    for r in reversed(stored(hs, "clinicalRecord")):    # newest first
        if r["metadata"]["resourceType"] in kinds:
            expected[kinds[r["metadata"]["resourceType"]]].append(r["metadata"].get("display") or r["metadata"]["resourceType"])
    assert all(expected.values()), expected
    titles = {"conditions": "Conditions", "allergies": "Allergies", "provider-medications": "Medications from your providers",
              "immunizations": "Immunizations"}
    blocks = {b.splitlines()[0]: b.splitlines()[1:] for b in text.strip().split("\n\n")}
    for key, names in expected.items():
        assert [i["name"] for i in j[key]] == names, key
        assert [l.strip().rsplit(" (", 1)[0] for l in blocks[titles[key]]] == names, key
    [audiogram] = stored(hs, "audiogram")
    points = json.loads(audiogram["metadata"]["points"])
    assert [(p["frequencyHz"], p["left"], p["right"]) for p in j["audiograms"][0]["points"]] == \
        [(p["frequencyHz"], p["left"], p["right"]) for p in points]
    hearing = blocks["Hearing tests"]
    assert hearing[0].strip() == "2024-09-14 (Mimi Hearing), thresholds in dB HL:"
    rows = [l.split() for l in hearing[2:]]
    assert [(r[0], int(r[2]), int(r[3])) for r in rows] == [("250", 10, 5), ("500", 15, 10), ("1", 15, 10), ("2", 20, 15), ("4", 35, 25), ("8", 45, 40)]
    vision = {json.dumps(json.loads(v["metadata"]["rightEye"]), sort_keys=True) for v in stored(hs, "visionPrescription")}
    assert {json.dumps(p["rightEye"], sort_keys=True) for p in j["visionPrescriptions"]} == vision
    assert sorted(p["kind"] for p in j["visionPrescriptions"]) == ["contacts", "glasses"]
    lines = blocks["Vision prescriptions"]
    assert any(l.split() == ["Sphere", "-1.25", "D", "-1.5", "D"] for l in lines), lines
    assert any(l.split() == ["Axis", "90°", "85°"] for l in lines), lines
    assert any(l.split() == ["Base", "curve", "8.4", "mm", "8.4", "mm"] for l in lines), lines
    assert "Contact lenses (Acuvue Oasys), issued 2024-02-20, expires 2025-02-20" in "\n".join(lines)


def test_clinical_records_whose_files_are_absent_are_named(hs, tmp_path):
    from records_fixture import GOLDEN
    files = sorted((GOLDEN / "clinical-records").glob("*.json"))
    gone = files[0].name
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("apple_health_export/export.xml", (GOLDEN / "clinical-export.xml").read_bytes())
        for f in files[1:]:
            z.writestr(f"apple_health_export/clinical-records/{f.name}", f.read_bytes())
    out = hs.run("import", str(path), "--no-progress", check=False)
    said = out.stdout + out.stderr
    assert f"1 ClinicalRecord names a file the zip does not hold ('{gone}')" in said, said
    assert len(stored(hs, "clinicalRecord")) == len(files) - 1, "the others are imported"
    # With every file there, no such note.
    from records_fixture import records_zip
    out = hs.run("import", str(records_zip(tmp_path / "all.zip")), "--no-progress", check=False)
    assert "does not hold" not in out.stdout + out.stderr, out.stdout + out.stderr
