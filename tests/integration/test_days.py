"""Day view and calendar through the real CLI on a real store: an Apple Health export where a
watch and a phone both count steps and two apps both record the nights, in Europe/Berlin across
the spring DST change; rollups kept at import and equal to a rebuild."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

BERLIN = ZoneInfo("Europe/Berlin")
WATCH, PHONE, APP = "Anna’s Apple Watch", "Anna’s iPhone", "AutoSleep"


def fmt(t: datetime) -> str:
    return t.astimezone(BERLIN).strftime("%Y-%m-%d %H:%M:%S %z")


def record(kind: str, source: str, start: datetime, end: datetime, value, unit: str = "") -> str:
    u = f' unit="{unit}"' if unit else ""
    return (f'<Record type="{kind}" sourceName="{source}" sourceVersion="1"{u} creationDate="{fmt(end)}" '
            f'startDate="{fmt(start)}" endDate="{fmt(end)}" value="{value}"/>')


def export(tmp_path) -> "Path":
    """2026-03-27 to 2026-03-30 local: the watch counts 100 steps every 10 minutes, the phone 80
    over 10 minutes shifted by 5; heart rate every 10 minutes; each night the watch and AutoSleep
    both record sleep, 23:00 to 06:00 and 23:30 to 06:30 local."""
    rows = []
    t = datetime(2026, 3, 27, tzinfo=BERLIN).astimezone(ZoneInfo("UTC"))
    end = datetime(2026, 3, 31, tzinfo=BERLIN).astimezone(ZoneInfo("UTC"))
    while t < end:
        rows.append(record("HKQuantityTypeIdentifierStepCount", WATCH, t, t + timedelta(minutes=10), 100, "count"))
        rows.append(record("HKQuantityTypeIdentifierStepCount", PHONE, t + timedelta(minutes=5), t + timedelta(minutes=15), 80, "count"))
        rows.append(record("HKQuantityTypeIdentifierHeartRate", WATCH, t, t, 60 + (t.minute // 10) * 10, "count/min"))
        t += timedelta(minutes=10)
    for day in range(27, 31):
        night = datetime(2026, 3, day, 23, 0, tzinfo=BERLIN)
        rows.append(record("HKCategoryTypeIdentifierSleepAnalysis", WATCH, night, night + timedelta(hours=7),
                           "HKCategoryValueSleepAnalysisAsleepCore"))
        rows.append(record("HKCategoryTypeIdentifierSleepAnalysis", APP, night + timedelta(minutes=30),
                           night + timedelta(hours=7, minutes=30), "HKCategoryValueSleepAnalysisAsleepUnspecified"))
    path = tmp_path / "export.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
                    + "\n".join(rows) + "\n</HealthData>\n", encoding="utf-8")
    return path


def day(hs, date: str) -> dict:
    return json.loads(hs.run("day", date, "--json", env={"TZ": "Europe/Berlin"}).stdout)


def test_watch_and_phone_steps_count_once_and_two_sleep_apps_give_the_union(hs, tmp_path):
    hs.run("import", str(export(tmp_path)), "--no-progress", env={"TZ": "Europe/Berlin"})
    d = day(hs, "2026-03-28")
    assert d["hours"] == 24
    # The watch covers every moment: 144 intervals of 100; the phone (8 per minute) adds nothing.
    assert d["totals"]["stepCount"] == 14400
    assert d["counts"]["stepCount"] == 288
    # The night 27→28: watch 23:00–06:00, AutoSleep 23:30–06:30: 7.5 h asleep, not 14 h.
    assert d["sleep"]["asleepMinutes"] == 450
    assert d["sleep"]["start"].startswith("2026-03-27T23:00") and d["sleep"]["end"].startswith("2026-03-28T06:30")
    hr = d["heartRate"]
    assert (hr["min"], hr["max"], hr["count"]) == (60, 110, 144)
    assert len(hr["curve"]) == 96

    # Clocks go forward on 2026-03-29: 23 hours, 138 watch intervals.
    dst = day(hs, "2026-03-29")
    assert dst["hours"] == 23
    assert dst["totals"]["stepCount"] == 13800
    # The first night ends on the 28th: the 27th has no sleep.
    assert day(hs, "2026-03-27")["sleep"] is None

    text = hs.run("day", "2026-03-28", env={"TZ": "Europe/Berlin"}).stdout
    assert "14,400" in text and "7 h 30 min asleep" in text


def test_the_heart_rate_average_is_weighted_by_time_and_the_plain_mean_stays_in_json(hs, tmp_path):
    """A resting day read every 10 minutes at 60 and one hour of workout read every 10 s at 150
    (360 readings): the plain mean is pulled to about 124, the curve's own mean is about 64."""
    rows = []
    day0 = datetime(2026, 3, 27, tzinfo=BERLIN)
    for i in range(144):
        t = day0 + timedelta(minutes=10 * i)
        if not 10 * 60 <= 10 * i < 11 * 60:
            rows.append(record("HKQuantityTypeIdentifierHeartRate", WATCH, t, t, 60, "count/min"))
    for i in range(360):
        t = day0 + timedelta(hours=10, seconds=10 * i)
        rows.append(record("HKQuantityTypeIdentifierHeartRate", WATCH, t, t, 150, "count/min"))
    path = tmp_path / "hr.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n' + "\n".join(rows) + "\n</HealthData>\n")
    hs.run("import", str(path), "--no-progress", env={"TZ": "Europe/Berlin"})
    hr = day(hs, "2026-03-27")["heartRate"]
    assert hr["count"] == 138 + 360
    assert round(hr["average"]) == round((138 * 60 + 360 * 150) / 498)
    assert abs(hr["weightedAverage"] - (23 * 60 + 150) / 24) < 0.5
    text = hs.run("day", "2026-03-27", env={"TZ": "Europe/Berlin"}).stdout
    assert "60 / 64 / 150 bpm (min / average / max)" in text, text
    assert "The average is weighted by time: each reading counts until the next, at most 10 minutes." in text


def test_calendar_marks_the_days_with_data_and_agrees_with_a_rebuild(hs, tmp_path):
    hs.run("import", str(export(tmp_path)), "--no-progress", env={"TZ": "Europe/Berlin"})
    cal = json.loads(hs.run("calendar", "2026-03", "--json", env={"TZ": "Europe/Berlin"}).stdout)
    marked = [d["date"] for d in cal["days"] if d["hasData"]]
    assert marked == ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31"]
    assert len(cal["days"]) == 31
    assert {d["date"]: d["steps"] for d in cal["days"]}["2026-03-29"] == 13800
    grid = hs.run("calendar", "2026-03", env={"TZ": "Europe/Berlin"}).stdout
    assert "28*" in grid and "March 2026" in grid
    before = hs.run("day", "2026-03-28", "--json", env={"TZ": "Europe/Berlin"}).stdout
    hs.run("rebuild-rollups", env={"TZ": "Europe/Berlin"})
    assert hs.run("day", "2026-03-28", "--json", env={"TZ": "Europe/Berlin"}).stdout == before


def test_another_zone_rebuilds_the_rollups_for_its_days(hs, tmp_path):
    hs.run("import", str(export(tmp_path)), "--no-progress", env={"TZ": "Europe/Berlin"})
    # In New York (UTC-4 since March 8) the 28th starts at 05:00 Berlin time: still 144 intervals;
    # the night ending 06:30 Berlin ends 01:30 New York time.
    ny = json.loads(hs.run("day", "2026-03-28", "--json", env={"TZ": "America/New_York"}).stdout)
    assert ny["totals"]["stepCount"] == 14400
    assert ny["sleep"]["asleepMinutes"] == 450
    assert ny["sleep"]["end"].startswith("2026-03-28T01:30")


def test_a_bad_date_is_named(hs):
    p = hs.run("day", "2026-13-01", check=False)
    assert p.returncode != 0 and "2026-13-01" in p.stderr and "YYYY-MM-DD" in p.stderr
