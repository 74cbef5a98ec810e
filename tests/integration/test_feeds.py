"""Continuous feeds end to end: overlapping Health Auto Export files and a revised daily total."""
import json

from conftest import wait_until


def hae(steps_today: int, steps_yesterday: int = 8000) -> str:
    return json.dumps({"data": {"metrics": [
        {"name": "step_count", "units": "count", "data": [
            {"date": "2026-01-01 00:00:00 +0100", "qty": steps_yesterday, "source": "iPhone"},
            {"date": "2026-01-02 00:00:00 +0100", "qty": steps_today, "source": "iPhone"},
        ]},
        {"name": "heart_rate", "units": "count/min", "data": [
            {"date": "2026-01-02 09:14:07 +0100", "Min": 58, "Avg": 61, "Max": 66, "source": "Apple Watch"},
        ]},
    ]}})


def test_overlapping_exports_dedup_and_a_revised_daily_total_ends_with_the_latest_value(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    # Steps are delivered hourly by default; deliver them at once for this test.
    hs.run("frequency", "--type", "stepCount", "immediate")
    hs.start()
    hs.drop("HealthAutoExport-1.json", hae(steps_today=1000))
    gateway.wait_for_samples(3)
    assert wait_until(lambda: hs.status()["store"]["queued"] == 0)
    hs.drop("HealthAutoExport-2.json", hae(steps_today=1500))
    got = gateway.wait_for_samples(4)
    assert len(got) == 4, "only the revised total is sent again"
    steps = [s for s in got if s["type"] == "stepCount"]
    today = [s for s in steps if s["startDate"].startswith("2026-01-02")]
    assert [s["value"] for s in today] == [1000, 1500]
    assert today[0]["id"] == today[1]["id"], "a revision keeps the sample id"
    latest = {}
    for s in got:
        latest[s["id"]] = s["value"]
    assert latest[today[0]["id"]] == 1500
    st = hs.status()
    assert st["lastImport"]["revised"] == 1 and st["lastImport"]["duplicates"] == 2
