"""The written clinical-record fixtures as an export.zip, and a Health Auto Export file with a
heart-rate notification and cycle entries on a given day: content for the records page and the
day view (issue 42)."""
from __future__ import annotations

import json
import zipfile
from datetime import date
from pathlib import Path

from conftest import ROOT

GOLDEN = ROOT / "Tests" / "HealthExportTests" / "Golden"


def records_zip(out: Path) -> Path:
    """Tests/HealthExportTests/Golden's clinical-export.xml and clinical-records/*.json."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("apple_health_export/export.xml", (GOLDEN / "clinical-export.xml").read_bytes())
        for f in sorted((GOLDEN / "clinical-records").glob("*.json")):
            z.writestr(f"apple_health_export/clinical-records/{f.name}", f.read_bytes())
    return out


def events_json(out: Path, day: date) -> Path:
    """A high and an irregular heart-rate notification and two cycle entries on `day`."""
    d = day.isoformat()
    out.write_text(json.dumps({"data": {
        "heartRateNotifications": [
            {"type": "High Heart Rate", "start": f"{d} 14:10:00 +0000", "end": f"{d} 14:20:00 +0000", "threshold": 120,
             "heartRate": [{"date": f"{d} 14:10:00 +0000", "qty": 131}]},
            {"type": "Irregular Rhythm", "start": f"{d} 02:10:00 +0000"}],
        "cycleTracking": [{"name": "menstrual_flow", "date": f"{d} 00:00:00 +0000", "value": "Medium"},
                          {"name": "spotting", "date": f"{d} 00:00:00 +0000"}]}}))
    return out


def recent_glucose(day: date, mmol: float) -> tuple[str, str]:
    """An R4 lab glucose in mmol/L taken on `day` (a zip member name and its JSON), named by no
    ClinicalRecord element: found by its content."""
    return (f"apple_health_export/clinical-records/Observation-glucose-{day.isoformat()}.json", json.dumps({
        "resourceType": "Observation", "id": f"glucose-{day.isoformat()}", "status": "final",
        "code": {"coding": [{"system": "http://loinc.org", "code": "2345-7", "display": "Glucose [Mass/volume] in Serum or Plasma"}],
                 "text": "Glucose"},
        "effectiveDateTime": f"{day.isoformat()}T08:30:00Z",
        "valueQuantity": {"value": mmol, "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"},
        "referenceRange": [{"low": {"value": 3.9, "unit": "mmol/L"}, "high": {"value": 5.5, "unit": "mmol/L"}}]}))
