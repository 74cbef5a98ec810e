"""Issue 13 ("Trust, part 1") end to end: the real daemon imports Health Auto Export files from
the spool; the stored samples are read back from its SQLite store, the .reason file from failed/."""
import json
import sqlite3

from conftest import wait_until


def stored(hs, where: str = "1", args=()) -> list[dict]:
    db = sqlite3.connect(hs.state / "healthspool.db")
    db.row_factory = sqlite3.Row
    try:
        rows = db.execute("SELECT t.name AS type, s.value, s.unit, s.start_ms, s.end_ms, s.metadata FROM samples s "
                          f"JOIN types t ON t.id = s.type WHERE {where} ORDER BY s.start_ms, t.name", args)
        return [dict(r) for r in rows]
    finally:
        db.close()


def imported(hs, name: str) -> bool:
    return not (hs.spool / name).exists() and any(p.name.startswith(name.split(".")[0]) for p in (hs.spool / "archive").iterdir())


def test_an_aggregated_night_is_its_asleep_total_over_its_sleep_span(hs):
    hs.start()
    night = {"date": "2024-09-28 00:00:00 +1000", "asleep": 6.5, "core": 3.5, "deep": 1.2, "rem": 1.7, "awake": 0.3,
             "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:45:00 +1000",
             "inBed": 7.9, "inBedStart": "2024-09-27 22:40:00 +1000", "inBedEnd": "2024-09-28 06:50:00 +1000", "source": "Watch"}
    hs.drop("sleep.json", json.dumps({"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [night]}]}}))
    assert wait_until(lambda: imported(hs, "sleep.json")), hs.read_log()
    sleep = stored(hs, "t.name = 'sleepAnalysis'")
    assert len(sleep) == 1
    s = sleep[0]
    assert s["value"] == 390, "6.5 h asleep, not 6.5 h plus its stages"
    assert s["end_ms"] - s["start_ms"] == (7 * 60 + 45) * 60_000, "the night spans sleepStart…sleepEnd"
    assert s["value"] <= (s["end_ms"] - s["start_ms"]) / 60_000
    meta = json.loads(s["metadata"])
    assert meta["coreMinutes"] == "210" and meta["deepMinutes"] == "72" and meta["remMinutes"] == "102"
    bed = stored(hs, "t.name = 'timeInBed'")[0]
    assert bed["end_ms"] - bed["start_ms"] == (8 * 60 + 10) * 60_000


def test_a_workouts_csv_gives_workouts_and_no_activity_samples(hs):
    hs.start()
    csv = ("Type,Start,End,Duration,Active Energy (kcal),Distance (km),Step Count (count),Avg Heart Rate (count/min)\n"
           "Outdoor Run,2024-09-28 06:00:00 +1000,2024-09-28 06:45:30 +1000,0:45:30,512.4,8.2,7400,148\n"
           "Outdoor Walk,2024-09-28 18:00:00 +1000,2024-09-28 18:30:00 +1000,00:30:00,120,2.5,3100,101\n")
    hs.drop("Workouts-20240928.csv", csv)
    assert wait_until(lambda: imported(hs, "Workouts-20240928.csv")), hs.read_log()
    rows = stored(hs)
    assert [r["type"] for r in rows] == ["workout", "workout"], rows
    assert rows[0]["value"] == 45.5
    meta = json.loads(rows[0]["metadata"])
    assert meta["workoutName"] == "Outdoor Run" and meta["activeEnergyKcal"] == "512.4" and meta["stepCount"] == "7400"


def test_symptoms_and_state_of_mind_are_stored_and_unread_sections_are_named(hs):
    hs.start()
    doc = {"data": {
        "metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-02-06 00:00:00 -0800", "qty": 5000}]}],
        "symptoms": [{"start": "2024-02-06 10:00:00 -0800", "end": "2024-02-06 12:00:00 -0800", "name": "Headache",
                      "severity": "Moderate", "userEntered": True, "source": "Health"}],
        "stateOfMind": [{"id": "a", "start": "2024-02-06 14:00:00 -0800", "end": "2024-02-06 14:00:00 -0800", "kind": "mood",
                         "labels": ["Calm"], "associations": ["Work"], "valence": 0.7, "valenceClassification": 1}],
        "hearingTests": [{"name": "left"}, {"name": "right"}],
    }}   # (ECGs, medications, cycles and heart-rate notifications are read since issue 42:
    #    test_routes_ecgs.py, test_clinical_records.py; a section no release reads stands in)
    hs.drop("HealthAutoExport-journal.json", json.dumps(doc))
    assert wait_until(lambda: imported(hs, "HealthAutoExport-journal.json")), hs.read_log()
    types = {r["type"]: r for r in stored(hs)}
    assert types["headache"]["value"] == 3
    assert json.loads(types["headache"]["metadata"])["severity"] == "Moderate"
    assert types["stateOfMind"]["value"] == 0.7
    assert json.loads(types["stateOfMind"]["metadata"])["labels"] == '["Calm"]'
    log = wait_until(lambda: "not read:" in hs.read_log() and hs.read_log())
    line = next(l for l in log.splitlines() if "HealthAutoExport-journal.json" in l and "not read:" in l)
    assert "hearingTests (section not read) (2)" in line
    # The CLI's JSON summary names them too.
    again = hs.home / "again.json"
    again.write_text(json.dumps(doc).replace("Headache", "Nausea"))
    summary = json.loads(hs.run("import", "--json", str(again)).stdout)[0]
    assert summary["notRead"] == {"hearingTests (section not read)": 2}


def test_a_reason_file_names_every_problem_by_kind_with_the_total(hs):
    hs.start()
    points = [{"date": f"day {n}", "qty": 1} for n in range(80)]
    points += [{"date": f"2024-09-28 10:00:0{n} +1000", "qty": "n/a"} for n in range(6)]
    points += [{"date": "2024-09-28 11:00:00 +1000", "qty": 42}]
    hs.drop("many-problems.json", json.dumps({"data": {"metrics": [{"name": "step_count", "units": "count", "data": points}]}}))
    reason_file = hs.spool / "failed" / "many-problems.json.reason"
    text = wait_until(lambda: reason_file.exists() and reason_file.read_text())
    assert text, hs.read_log()
    assert "86 part(s) could not be read, 2 kind(s)" in text
    assert "problems: 86, by kind:" in text
    assert "80 × metric step_count, point N: \"date\" '…' is not a date" in text
    assert "6 × metric step_count, point N: no numeric \"qty\"" in text
    assert text.count("\n      e.g. ") == 6, "the first three examples of each kind"
    assert [r["value"] for r in stored(hs)] == [42], "the readable point is kept"
    # The journal line stays one line and names both kinds with their counts.
    log = wait_until(lambda: "many-problems.json" in hs.read_log() and hs.read_log())
    line = next(l for l in log.splitlines() if "could not import many-problems.json" in l)
    assert "80 × " in line and "6 × " in line
    # healthspool import --json gives the same counts.
    copy = hs.home / "copy.json"
    copy.write_bytes((hs.spool / "failed" / "many-problems.json").read_bytes())
    p = hs.run("import", "--json", str(copy), check=False)
    summary = json.loads(p.stdout)[0]
    assert summary["problemCount"] == 86
    assert [k["count"] for k in summary["problemKinds"]] == [80, 6]
    assert all(len(k["examples"]) == 3 for k in summary["problemKinds"])
