"""Issue 40, item 4, end to end: Health Auto Export nights given as totals with their times show,
in the day view, the calendar and the summary, what was stored for each night, on the day it
ends: a night whose end touches the next night's start is not joined with it, and a night's span
(time awake included) is not its sleep."""
from __future__ import annotations

import json

UTC = {"TZ": "UTC"}


def night(date: str, start: str, end: str, hours: float) -> dict:
    return {"date": f"{date} 00:00:00 +0000", "totalSleep": hours, "sleepStart": f"{start} +0000", "sleepEnd": f"{end} +0000",
            "source": "Watch"}


def test_touching_nights_and_a_span_longer_than_the_sleep_show_as_stored_on_their_days(hs, tmp_path):
    nights = [
        # 553.5 min asleep over 690 min; its end touches the next night's start.
        night("2026-04-10", "2026-04-09 22:00:00", "2026-04-10 09:30:00", 553.5 / 60),
        # 441 min asleep over 1290 min.
        night("2026-04-11", "2026-04-10 09:30:00", "2026-04-11 07:00:00", 441 / 60),
        # 400 min asleep over 600 min, apart from the others.
        night("2026-04-12", "2026-04-11 22:00:00", "2026-04-12 08:00:00", 400 / 60),
    ]
    path = tmp_path / "HealthAutoExport-2026-04-12.json"
    path.write_text(json.dumps({"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": nights}]}}))
    hs.run("import", str(path), "--no-progress", env=UTC)
    shown = {}
    for date in ("2026-04-10", "2026-04-11", "2026-04-12"):
        d = json.loads(hs.run("day", date, "--json", env=UTC).stdout)
        shown[date] = d["sleep"]["asleepMinutes"] if d.get("sleep") else None
    print("day view:", shown)
    assert shown == {"2026-04-10": 553.5, "2026-04-11": 441, "2026-04-12": 400}
    cal = json.loads(hs.run("calendar", "2026-04", "--json", env=UTC).stdout)
    by_date = {d["date"]: d["sleepMinutes"] for d in cal["days"]}
    # The calendar gives whole minutes.
    assert all(abs(by_date[k] - v) <= 0.5 for k, v in shown.items()), by_date
    report = json.loads(hs.run("report", "--from", "2026-04-10", "--to", "2026-04-12", "--json", "--out", "-", env=UTC).stdout)
    days = report["activity"]["days"]
    assert len(days) == 3, days
    assert all(abs(a - b) <= 0.5 for a, b in zip([d["asleepMinutes"] for d in days], [553.5, 441, 400])), days
