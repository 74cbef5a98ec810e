"""The health journal's medications, reminders, goals, notes and manual measurements, through
the real CLI on a real store; reminder recurrence checked against an independent RFC 5545
implementation (recurring-ical-events on icalendar)."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
from datetime import datetime
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events
from conftest import BIN, wait_until

# Every repeat rule the CLI accepts, in its own words.
RULES = [
    ["--every", "day"],
    ["--every", "2", "days"],
    ["--every", "3", "days"],
    ["--weekdays", "mon,wed,fri"],
    ["--every", "week"],
    ["--every", "2", "weeks"],
    ["--every", "3", "weeks", "--weekdays", "tue,sat"],
    ["--monthly"],
    ["--monthly", "--month-day", "31"],
    ["--every", "2", "months"],
    ["--rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TH"],
]
START = "2026-01-31"     # a 31st: months without one are skipped
AFTER = "2026-02-01 00:00"


def add_reminder(hs, zone: str, rule: list[str], times: str = "08:00,20:30") -> int:
    p = hs.run("remind", "add", "R " + " ".join(rule), "--times", times, "--start", START, *rule, "--json", env={"TZ": zone})
    return json.loads(p.stdout)["id"]


def reference(export: str, rid: int, zone: str, count: int) -> list[datetime]:
    """The first `count` occurrences of reminder `rid` after AFTER, as recurring-ical-events sees the export."""
    full = icalendar.Calendar.from_ical(export)
    cal = icalendar.Calendar()
    for k, v in full.items():
        cal.add(k, v)
    for c in full.subcomponents:
        if c.name == "VTIMEZONE" or str(c.get("UID", "")).startswith(f"reminder-{rid}-"):
            cal.add_component(c)
    start = datetime(2026, 2, 1, tzinfo=ZoneInfo(zone))
    out = []
    for ev in recurring_ical_events.of(cal).after(start):
        dt = ev["DTSTART"].dt
        if dt > start:
            out.append(dt)
        if len(out) >= count:
            break
    return sorted(out, key=lambda d: d.timestamp())


@pytest.mark.parametrize("zone", ["Europe/Berlin", "America/New_York"])
def test_next_50_occurrences_of_every_rule_agree_with_recurring_ical_events(hs, zone):
    ids = [add_reminder(hs, zone, rule) for rule in RULES]
    export = hs.run("remind", "export", env={"TZ": zone}).stdout
    for rule, rid in zip(RULES, ids):
        ours = json.loads(hs.run("remind", "next", str(rid), "--count", "50", "--after", AFTER, "--json", env={"TZ": zone}).stdout)
        theirs = reference(export, rid, zone, 50)
        assert len(ours) == 50, rule
        ours_dt = [datetime.fromisoformat(t.replace("Z", "+00:00")) for t in ours]
        # Same instants, and the same local wall-clock times and offsets (DST on both sides).
        assert [d.timestamp() for d in ours_dt] == [d.timestamp() for d in theirs], rule
        assert [d.isoformat()[:19] for d in ours_dt] == [d.isoformat()[:19] for d in theirs], rule
        assert [d.utcoffset() for d in ours_dt] == [d.utcoffset() for d in theirs], rule
        # 08:00 stays 08:00 local on both sides of a change.
        assert {d.strftime("%H:%M") for d in ours_dt} == {"08:00", "20:30"}, rule


def test_export_is_a_valid_calendar_with_alarms_and_time_zone(hs):
    add_reminder(hs, "Europe/Berlin", ["--weekdays", "mon,fri"], times="08:00,20:00")
    raw = subprocess.run([BIN, "remind", "export"], env={**hs.env, "TZ": "Europe/Berlin"}, capture_output=True, check=True).stdout
    assert raw.startswith(b"BEGIN:VCALENDAR\r\n") and raw.endswith(b"END:VCALENDAR\r\n")
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    text = raw.decode()
    cal = icalendar.Calendar.from_ical(text)
    events = list(cal.walk("VEVENT"))
    assert len(events) == 2
    for ev in events:
        assert ev["RRULE"]["FREQ"] == ["WEEKLY"] and ev["RRULE"]["BYDAY"] == ["MO", "FR"]
        assert ev["DTSTART"].params["TZID"] == "Europe/Berlin"
        assert len(list(ev.walk("VALARM"))) == 1
    assert [str(t["TZID"]) for t in cal.walk("VTIMEZONE")] == ["Europe/Berlin"]


def test_a_reminder_time_the_clocks_skip_gives_no_occurrence_that_day(hs):
    # 02:30 does not exist in Berlin on 2026-03-29 (02:00 → 03:00): RFC 5545 §3.3.10 ignores it.
    rid = add_reminder(hs, "Europe/Berlin", ["--every", "day"], times="02:30")
    out = json.loads(hs.run("remind", "next", str(rid), "--count", "3", "--after", "2026-03-28 00:00", "--json",
                            env={"TZ": "Europe/Berlin"}).stdout)
    assert out == ["2026-03-28T02:30:00.000+01:00", "2026-03-30T02:30:00.000+02:00", "2026-03-31T02:30:00.000+02:00"]
    # Fall back: 02:30 on 2026-10-25 happens twice; the first (+02:00) is the one.
    out = json.loads(hs.run("remind", "next", str(rid), "--count", "1", "--after", "2026-10-25T00:00:00+02:00", "--json",
                            env={"TZ": "Europe/Berlin"}).stdout)
    assert out == ["2026-10-25T02:30:00.000+02:00"]


def test_bad_repeat_options_are_refused_with_what_is_allowed(hs):
    p = hs.run("remind", "add", "x", "--times", "8x", check=False)
    assert p.returncode != 0 and "HH:MM" in p.stderr
    p = hs.run("remind", "add", "x", "--times", "08:00", "--weekdays", "mon,funday", check=False)
    assert p.returncode != 0 and "funday" in p.stderr
    p = hs.run("remind", "add", "x", "--times", "08:00", "--rrule", "FREQ=YEARLY", check=False)
    assert p.returncode != 0 and "DAILY, WEEKLY or MONTHLY" in p.stderr
    assert json.loads(hs.run("remind", "list", "--json").stdout) == []


def test_medications_and_doses_with_editable_time_stamps(hs):
    hs.run("med", "add", "ibuprofen", "--dose", "400 mg", "--other-names", "Advil,Nurofen", "--prescriber", "Dr. Lee",
           "--directions", "with food", "--times", "08:00,20:00")
    meds = json.loads(hs.run("med", "list", "--json").stdout)
    assert meds == [{"id": 1, "name": "ibuprofen", "otherNames": ["Advil", "Nurofen"], "dose": "400 mg", "prescriber": "Dr. Lee",
                     "directions": "with food", "times": ["08:00", "20:00"]}]
    assert hs.run("med", "add", "Nurofen", check=False).returncode == 1
    env = {"TZ": "Europe/Berlin"}
    dose = json.loads(hs.run("med", "take", "advil", "--at", "2026-03-29 08:05", "--json", env=env).stdout)
    assert dose["takenAt"] == "2026-03-29T08:05:00.000+02:00" and dose["medication"] == "ibuprofen"
    hs.run("med", "dose", "edit", str(dose["id"]), "--at", "2026-03-29 07:50", env=env)
    doses = json.loads(hs.run("med", "doses", "--date", "2026-03-29", "--json", env=env).stdout)
    assert [d["takenAt"] for d in doses] == ["2026-03-29T07:50:00.000+02:00"]
    # A medication reminder's "taken" action logs a dose linked to the reminder.
    rid = json.loads(hs.run("remind", "add", "Take ibuprofen", "--times", "08:00", "--med", "ibuprofen", "--json").stdout)["id"]
    hs.run("remind", "taken", str(rid), "--at", "2026-03-30 08:01", env=env)
    doses = json.loads(hs.run("med", "doses", "--date", "2026-03-30", "--json", env=env).stdout)
    assert [(d["reminderId"], d["medication"]) for d in doses] == [(rid, "ibuprofen")]
    hs.run("med", "remove", "ibuprofen")
    assert json.loads(hs.run("med", "doses", "--all", "--json").stdout) == []
    assert hs.run("med", "take", "ibuprofen", check=False).returncode == 1


def stored_samples(hs) -> list[tuple]:
    db = sqlite3.connect(hs.state / "healthspool.db")
    try:
        return db.execute("SELECT t.name, s.value, s.unit, s.metadata FROM samples s JOIN types t ON t.id = s.type ORDER BY s.rowid").fetchall()
    finally:
        db.close()


def test_manual_measurements_are_samples_and_out_of_range_values_are_refused(hs):
    hs.run("measure", "bp", "128/82", "--at", "2026-03-29 08:00")
    hs.run("measure", "hr", "62")
    hs.run("measure", "spo2", "97")
    hs.run("measure", "glucose", "5.4", "mmol/L")
    hs.run("measure", "steps", "1200", "--from", "2026-03-29 09:00", "--to", "2026-03-29 10:00")
    for args, words in [(["spo2", "40"], "50–100 %"), (["bp", "80/120"], "systolic above diastolic"),
                        (["hr", "500"], "20–300"), (["glucose", "80", "mmol/L"], "0.5–55 mmol/L"),
                        (["glucose", "5", "mg/dL"], "10–1000 mg/dL")]:
        p = hs.run("measure", *args, check=False)
        assert p.returncode == 1 and words in p.stderr, (args, p.stderr)
    rows = stored_samples(hs)
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("bloodPressureSystolic", 128, "mmHg"), ("bloodPressureDiastolic", 82, "mmHg"), ("heartRate", 62, "count/min"),
        ("oxygenSaturation", 97, "%"), ("bloodGlucose", pytest.approx(97.29828), "mg/dL"), ("stepCount", 1200, "count")]
    sys_meta, dia_meta = json.loads(rows[0][3]), json.loads(rows[1][3])
    assert sys_meta["HKCorrelationID"] == dia_meta["HKCorrelationID"]
    assert sys_meta["HKCorrelationType"] == "HKCorrelationTypeIdentifierBloodPressure"
    assert all(json.loads(r[3])["HKWasUserEntered"] == "1" for r in rows)


def test_goals_by_hand_and_from_the_days_samples(hs):
    env = {"TZ": "Europe/Berlin"}
    hs.run("goal", "add", "Physio", "--every", "day", "--start", "2026-03-29", env=env)
    hs.run("goal", "add", "Walk", "--every", "day", "--type", "stepCount", "--target", "2000", "--start", "2026-03-29", env=env)
    hs.run("goal", "add", "Book cardiology visit", env=env)
    hs.run("measure", "steps", "1200", "--from", "2026-03-29 09:00", "--to", "2026-03-29 10:00", env=env)
    day = {g["name"]: g for g in json.loads(hs.run("goal", "list", "--date", "2026-03-29", "--json", env=env).stdout)}
    assert not day["Walk"]["done"] and day["Walk"]["total"] == 1200
    hs.run("measure", "steps", "900", "--from", "2026-03-29 17:00", "--to", "2026-03-29 18:00", env=env)
    hs.run("goal", "done", str(day["Physio"]["id"]), "--date", "2026-03-29", env=env)
    day = {g["name"]: g for g in json.loads(hs.run("goal", "list", "--date", "2026-03-29", "--json", env=env).stdout)}
    assert (day["Walk"]["done"], day["Walk"]["doneBy"], day["Walk"]["total"]) == (True, "data", 2100)
    assert (day["Physio"]["done"], day["Physio"]["doneBy"]) == (True, "hand")
    nextday = {g["name"]: g for g in json.loads(hs.run("goal", "list", "--date", "2026-03-30", "--json", env=env).stdout)}
    assert not nextday["Physio"]["done"] and not nextday["Walk"]["done"]


def test_notes_keep_audio_beside_the_store_and_purge_removes_it(hs, tmp_path):
    audio = tmp_path / "visit.m4a"
    audio.write_bytes(os.urandom(300_000))
    note = json.loads(hs.run("note", "add", "--category", "cardiology", "--audio", str(audio),
                             "Symptoms: palpitations. Plan: Holter.", "--json").stdout)
    kept = hs.state / "notes" / f"{note['id']}.m4a"
    assert note["audio"] == str(kept) and kept.read_bytes() == audio.read_bytes()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    hs.run("note", "add", "Ask about dose", "--category", "cardiology")
    hs.run("note", "add", "General thought")
    assert json.loads(hs.run("note", "categories", "--json").stdout) == [
        {"category": "cardiology", "notes": 2}, {"category": "general", "notes": 1}]
    p = hs.run("note", "add", "x", "--audio", str(tmp_path / "missing.m4a"), check=False)
    assert p.returncode == 1 and "audio" in p.stderr
    hs.run("note", "remove", str(note["id"]))
    assert not kept.exists()
    again = json.loads(hs.run("note", "add", "again", "--audio", str(audio), "--json").stdout)
    assert os.path.exists(again["audio"])
    hs.run("purge", "--yes")
    assert not os.path.exists(again["audio"]) and not (hs.state / "healthspool.db").exists()


def test_journal_commands_work_while_the_daemon_runs(hs):
    hs.start()
    try:
        hs.run("med", "add", "metformin", "--dose", "500 mg")
        hs.run("med", "take", "metformin")
        hs.run("measure", "hr", "64")
        hs.run("remind", "add", "Change CGM sensor", "--times", "09:00", "--every", "2", "weeks", "--kind", "device")
        assert len(json.loads(hs.run("med", "doses", "--json").stdout)) == 1
        assert json.loads(hs.run("remind", "list", "--json").stdout)[0]["kind"] == "device"
    finally:
        hs.stop()


def test_a_running_daemon_sends_a_measurement_logged_from_the_cli_at_once(hs, gateway):
    # Before the one journal runner, med/measure/… opened the journal without telling a running
    # daemon: a measurement waited for the next unrelated sync of its type.
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test")
    hs.start()
    try:
        hs.run("med", "add", "metformin", "--dose", "500 mg")
        hs.run("med", "take", "metformin")
        hs.run("measure", "bp", "128/82")
        assert wait_until(lambda: {"bloodPressureSystolic", "bloodPressureDiastolic"} <= {s["type"] for s in gateway.samples}, 20), hs.read_log()
        assert sorted((s["type"], s["value"]) for s in gateway.samples) == [("bloodPressureDiastolic", 82), ("bloodPressureSystolic", 128)]
    finally:
        hs.stop()
