"""FHIR R4 out (issue 45), checked by independent tools: the golden week's bundle (made by the
Swift unit tests from a fixed week, Tests/HealthJournalTests/Golden/fhir-week.json) and a
year's bundle written by the real `healthspool report --fhir` validate with PyPI `fhir.resources`
(its R4B models), their IPS section rules and references hold as `fhirpathpy` expressions, and a
real daemon with `gateway.format = fhir` delivers Observations through the test gateway into Kafka
(Tansu) that validate the same way."""
from __future__ import annotations

import datetime
import json
import os
import stat
from pathlib import Path

import pytest

from conftest import consume, wait_until
from test_web import listening, web  # noqa: F401 (fixtures)

fhir_bundle = pytest.importorskip("fhir.resources.R4B.bundle")
fhir_observation = pytest.importorskip("fhir.resources.R4B.observation")
fhirpathpy = pytest.importorskip("fhirpathpy")

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "Tests/HealthJournalTests/Golden/fhir-week.json"
UTC = {"TZ": "UTC"}

# The International Patient Summary's rules that hold for every document healthspool writes.
IPS_RULES = {
    "a document bundle with an identifier and a timestamp":
        "Bundle.type = 'document' and Bundle.identifier.system.exists() and Bundle.timestamp.exists()",
    "the Composition comes first":
        "Bundle.entry.first().resource.resourceType = 'Composition'",
    "the Composition is a patient summary":
        "Bundle.entry.first().resource.type.coding.where(system = 'http://loinc.org' and code = '60591-5').exists()",
    "the required sections are there (medications, allergies, problems)":
        "Bundle.entry.first().resource.section.code.coding.where(system = 'http://loinc.org').code"
        ".intersect('10160-0' | '48765-2' | '11450-4').count() = 3",
    "every section has a narrative and entries or a reason for none":
        "Bundle.entry.first().resource.section.all(text.`div`.exists() and (entry.exists() or emptyReason.exists()))",
    "every section entry resolves":
        "Bundle.entry.first().resource.section.entry.reference.all(%urls contains $this)",
    "every reference anywhere resolves":
        "Bundle.entry.resource.descendants().where($this is Reference or reference.exists()).reference"
        ".all(%urls contains $this)",
    "every fullUrl is the resource's id":
        "Bundle.entry.all(fullUrl = 'urn:uuid:' + resource.id)",
    "the subject of every Observation is the one Patient":
        "Bundle.entry.resource.where(resourceType = 'Observation').subject.reference.distinct()"
        " = Bundle.entry.where(resource.resourceType = 'Patient').fullUrl",
    "vital signs have the vital-signs category and UCUM units":
        "Bundle.entry.resource.where(resourceType = 'Observation' and category.coding.code contains 'vital-signs')"
        ".all((valueQuantity | component.valueQuantity).all(system = 'http://unitsofmeasure.org' and code.exists()))",
    "a blood pressure panel has systolic and diastolic components":
        "Bundle.entry.resource.where(code.coding.code contains '85354-9')"
        ".all(component.code.coding.code contains '8480-6')",
}


def check_bundle(bundle: dict) -> None:
    fhir_bundle.Bundle.model_validate(bundle)   # raises on anything R4(B) refuses
    urls = [e["fullUrl"] for e in bundle["entry"]]
    assert len(urls) == len(set(urls)), "every fullUrl once"
    failed = [name for name, rule in IPS_RULES.items()
              if fhirpathpy.evaluate(bundle, rule, {"urls": urls}) != [True]]
    assert not failed, failed


def test_the_golden_week_validates_and_keeps_the_ips_rules():
    bundle = json.loads(GOLDEN.read_text())
    check_bundle(bundle)
    codes = set(fhirpathpy.evaluate(bundle, "Bundle.entry.resource.code.coding.code"))
    assert {"85354-9", "8867-4", "59408-5", "9279-1", "29463-7", "8310-5", "15074-8", "41950-7", "93832-4"} <= codes
    names = fhirpathpy.evaluate(bundle, "Bundle.entry.resource.where(resourceType = 'Patient').name.text")
    assert names == ["Alice Example"]


def test_a_broken_bundle_is_refused_by_the_same_checks():
    """The checks can fail: a reference to nothing, and an Observation without its status."""
    bundle = json.loads(GOLDEN.read_text())
    bundle["entry"][0]["resource"]["section"][0]["entry"].append({"reference": "urn:uuid:00000000-0000-0000-0000-000000000000"})
    with pytest.raises(AssertionError):
        check_bundle(bundle)
    bundle = json.loads(GOLDEN.read_text())
    obs = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Observation")
    del obs["status"]
    with pytest.raises(Exception):
        fhir_bundle.Bundle.model_validate(bundle)


def make_year(hs):
    """A year of journal and samples (UTC), ending 2026-11-28: symptoms every few days, a
    medication with a reminder and doses, blood pressure, glucose, heart rate and steps."""
    def run(*args):
        hs.run(*args, env=UTC)
    run("med", "add", "metformin", "--dose", "500 mg", "--directions", "with breakfast")
    run("remind", "add", "Take metformin", "--times", "08:00", "--every", "day", "--start", "2025-12-01", "--med", "metformin")
    start = datetime.date(2025, 12, 1)
    for i in range(0, 360, 9):
        d = start + datetime.timedelta(days=i)
        run("symptom", "log", "headache", "--severity", ["mild", "moderate", "severe"][i % 3], "--at", f"{d}T19:30",
            "--category", "Head")
        run("med", "take", "metformin", "--at", f"{d} 08:05")
    for i in range(0, 360, 30):
        d = start + datetime.timedelta(days=i)
        run("measure", "bp", f"{120 + i % 15}/{80 + i % 7}", "--at", f"{d} 09:00")
        run("measure", "glucose", "101", "--at", f"{d} 09:05")
    rows = []
    for i in range(0, 360, 3):
        d = start + datetime.timedelta(days=i)
        for m in range(30):
            rows.append({"type": "heartRate", "value": 60 + m % 25, "unit": "count/min",
                         "startDate": f"{d}T10:{m:02d}:00Z", "source": "Watch"})
        rows.append({"type": "stepCount", "value": 4000 + i, "unit": "count", "startDate": f"{d}T12:00:00Z",
                     "endDate": f"{d}T13:00:00Z", "source": "Watch"})
    path = hs.home / "year.json"
    path.write_text(json.dumps(rows))
    hs.run("import", str(path), "--no-progress", env=UTC)


def test_a_years_report_fhir_validates_is_0600_and_a_second_export_keeps_the_ids(hs, tmp_path):
    make_year(hs)
    hs.env["HEALTHSPOOL_REPORT_NAME"] = "Alice Example"
    out = tmp_path / "year.fhir.json"
    args = ("report", "--fhir", "--from", "2025-11-29", "--to", "2026-11-28", "--out", str(out))
    assert "wrote" in hs.run(*args, env=UTC).stdout
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    bundle = json.loads(out.read_text())
    check_bundle(bundle)
    types = fhirpathpy.evaluate(bundle, "Bundle.entry.resource.resourceType")
    assert types.count("MedicationStatement") == 1 and types.count("Patient") == 1
    assert fhirpathpy.evaluate(bundle, "Bundle.entry.resource.where(code.text = 'headache').count()") == [40]
    # Glucose in the person's unit (mmol/L is the default).
    assert set(fhirpathpy.evaluate(bundle, "Bundle.entry.resource.where(code.coding.code contains '15074-8').valueQuantity.code")) == {"mmol/L"}
    # Heart rate past 60 readings: a day each, with its period.
    assert fhirpathpy.evaluate(bundle, "Bundle.entry.resource.where(code.coding.code contains '8867-4').all(effectivePeriod.exists())") == [True]
    adherence = fhirpathpy.evaluate(
        bundle, "Bundle.entry.resource.where(resourceType = 'MedicationStatement').extension.extension.where(url = 'taken').valueInteger")
    assert adherence == [40]
    # The same period again: the same resources, by id.
    again = tmp_path / "again.fhir.json"
    hs.run(*args[:-1], str(again), env=UTC)
    ids = lambda b: sorted(e["fullUrl"] for e in b["entry"])   # noqa: E731
    assert ids(json.loads(again.read_text())) == ids(bundle)


def test_a_daemon_with_gateway_format_fhir_delivers_valid_observations_into_kafka(hs, make_gateway, kafka, topic):
    g = make_gateway("confluent-v2")
    hs.env["HEALTHSPOOL_USER_ID"] = "alice"
    hs.run("gateway", "set", g.url, "--ca-file", str(g.certs["ca"]), "--no-test", "--format", "fhir", "--topic", topic)
    hs.run("symptom", "log", "headache", "--severity", "severe", "--at", "2026-03-03T08:00", "--category", "Head")
    hs.run("measure", "bp", "128/82", "--at", "2026-03-03 08:00")
    hs.start()
    rows = [{"type": "heartRate", "value": 60 + i, "unit": "count/min", "startDate": f"2026-01-01T10:{i:02d}:00Z",
             "source": "Watch"} for i in range(20)]
    rows.append({"type": "distanceWalkingRunning", "value": 0.4, "unit": "km", "startDate": "2026-01-01T11:00:00Z",
                 "endDate": "2026-01-01T11:05:00Z", "source": "Watch"})
    hs.drop("a.json", json.dumps(rows))
    records = []
    assert wait_until(lambda: len(records := consume(kafka, topic, 24, timeout=3)) >= 24 and records, 60), \
        f"{len(consume(kafka, topic))} records in Kafka"
    records = consume(kafka, topic, 24)
    values = [v for _, v, _ in records if v is not None]
    assert len(values) == 24, [v and v.get("code") for v in values]
    for v in values:
        fhir_observation.Observation.model_validate(v)
    codes = {c for v in values for c in fhirpathpy.evaluate(v, "Observation.code.coding.code")}
    assert {"8867-4", "8480-6", "8462-4", "symptomEntry", "distanceWalkingRunning"} <= codes
    hr = [v for v in values if "8867-4" in fhirpathpy.evaluate(v, "Observation.code.coding.code")]
    assert len(hr) == 20 and all(v["valueQuantity"]["system"] == "http://unitsofmeasure.org" for v in hr)
    assert fhirpathpy.evaluate(hr[0], "Observation.subject.identifier.value") == ["alice"]
    # The journal entry deleted: its deletion is its key with a null value.
    entry_id = next(v["id"] for v in values if v["code"].get("text") == "headache")
    hs.run("symptom", "delete", entry_id)
    assert wait_until(lambda: any(v is None and k.get("id") == entry_id
                                  for k, v, _ in consume(kafka, topic, 25, timeout=2) if isinstance(k, dict)), 60)


def test_the_summary_page_offers_the_fhir_file_with_its_one_line_and_it_validates(web):
    cookie, _ = web.session()
    web.hs.run("symptom", "log", "headache", "--severity", "mild", "--at", "2026-03-03T08:00")
    web.hs.run("measure", "bp", "128/82", "--at", "2026-03-03 08:00")
    r, body = web.request("GET", "/report?from=2026-03-02&to=2026-03-08", {"Cookie": cookie})
    assert r.status == 200
    page = body.decode()
    assert 'href="/report/fhir?from=2026-03-02&amp;to=2026-03-08"' in page or 'href="/report/fhir?from=2026-03-02&to=2026-03-08"' in page
    assert "For your clinic’s records system; your doctor may ask for it." in page
    r, _ = web.request("GET", "/report/fhir?from=2026-03-02&to=2026-03-08")
    assert r.status == 401, "the file needs the session, like the page"
    r, data = web.request("GET", "/report/fhir?from=2026-03-02&to=2026-03-08", {"Cookie": cookie})
    assert r.status == 200 and r.getheader("Content-Type").startswith("application/fhir+json")
    assert r.getheader("Content-Disposition") == 'attachment; filename="health-summary-2026-03-02-to-2026-03-08.fhir.json"'
    bundle = json.loads(data)
    check_bundle(bundle)
    assert fhirpathpy.evaluate(bundle, "Bundle.entry.resource.where(code.coding.code contains '85354-9').count()") == [1]
