"""Freshness per source (issue 43), with faked time: a watch that sent heart rate each day and
then nothing for three days shows one plain line in `status` and the metrics, one desktop
notification on the private session bus, and all of it goes once data arrives again."""
from __future__ import annotations

import json
import subprocess
import time

from conftest import BIN, wait_until
from test_journal_scheduler import FAKETIME_ENV, faked, needs_faketime, start_faked, stop_faked  # noqa: F401 (a fixture)
from test_metrics import parse
from test_notifications import session_bus  # noqa: F401  (the fixture)

LINE = "Your Apple Watch has sent no heart rate since Tuesday 10 March"


def heart_rate(day: str, n: int = 5) -> str:
    return json.dumps([{"type": "heartRate", "value": 60 + i, "unit": "count/min", "startDate": f"{day}T{8 + i:02d}:00:00Z",
                        "source": "Apple Watch"} for i in range(n)])


def status(hs, at: str, *args: str) -> str:
    """`healthspool status` at `at` (exit status 3: no daemon runs; the report is printed the same)."""
    p = subprocess.run(["faketime", "-f", "@" + at, BIN, "status", *args], env={**hs.env, **FAKETIME_ENV},
                       capture_output=True, text=True, timeout=60)
    assert p.returncode in (0, 3), p.stderr
    return p.stdout


def quiet(hs, at: str) -> list[str]:
    return [q["line"] for q in json.loads(status(hs, at, "--json"))["quietSources"]]


def test_a_quiet_watch_is_said_once_notified_once_counted_and_forgotten_when_data_arrives(hs, session_bus, tmp_path):  # noqa: F811
    for day in ("2026-03-09", "2026-03-10"):   # daily arrivals: the usual gap is a day
        f = tmp_path / f"{day}.json"
        f.write_text(heart_rate(day))
        faked(hs, f"{day} 12:00:00", "import", str(f))
    assert quiet(hs, "2026-03-11 12:00:00") == []          # a day: not quiet (the floor is 2 days)
    assert quiet(hs, "2026-03-13 12:00:00") == [LINE]      # three days
    assert "quiet:       " + LINE in status(hs, "2026-03-13 12:00:00")

    textfile = hs.home / "metrics" / "healthspool.prom"
    textfile.parent.mkdir()
    start_faked(hs, "2026-03-13 12:00:00", env={"DBUS_SESSION_BUS_ADDRESS": session_bus.address,
                                                "HEALTHSPOOL_METRICS_TEXTFILE": str(textfile)})
    try:
        assert wait_until(lambda: "'Notify'" in session_bus.notify_calls(), 40), hs.read_log()
        calls = session_bus.notify_calls()
        assert LINE in calls and "Health data stopped arriving" in calls

        def metrics():
            return parse(textfile.read_text()) if textfile.exists() else {}
        assert wait_until(lambda: metrics().get(("healthspool_sources_quiet", ())) == 1, 20), hs.read_log()
        newest = metrics()[("healthspool_source_last_sample_timestamp_seconds", (("source", "Apple Watch"), ("type", "heartRate")))]
        assert newest == 1773144000.0                # 2026-03-10T12:00:00Z, the newest sample
        # Once: the scheduler looks again every 15 s; no second Notify for the same quiet spell.
        time.sleep(17)
        assert session_bus.notify_calls().count("'Notify'") == 1

        # Data arrives again: the line, the count and the quiet spell end.
        hs.drop("2026-03-13.json", heart_rate("2026-03-13", 2))
        assert wait_until(lambda: metrics().get(("healthspool_sources_quiet", ())) == 0, 30), hs.read_log()
        assert quiet(hs, "2026-03-13 12:01:00") == []
        assert metrics()[("healthspool_source_last_sample_timestamp_seconds", (("source", "Apple Watch"), ("type", "heartRate")))] \
            == 1773392400.0                              # 2026-03-13T09:00:00Z
    finally:
        stop_faked(hs)
