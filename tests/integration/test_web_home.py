"""Issue 28: numbers written for people (counts without decimals, thousands grouped in the
user's locale, units as the Health app spells them), on the web and in the terminal."""
from __future__ import annotations

from conftest import free_port, wait_until
from test_web import Web, browser, listening, shot  # noqa: F401 (fixtures)
from selenium.webdriver.common.by import By

DESKTOP = (1280, 900)


def numbers_export(tmp_path):
    """2026-11-20: 14,400 steps, 43 floors, 1,084.68 kcal of active energy, a night with REM."""
    from datetime import datetime, timedelta, timezone
    from test_web_days import record
    t = datetime(2026, 11, 20, 9, tzinfo=timezone.utc)
    rows = [record("HKQuantityTypeIdentifierStepCount", t, t + timedelta(minutes=30), 7000, "count"),
            record("HKQuantityTypeIdentifierStepCount", t + timedelta(hours=2), t + timedelta(hours=3), 7400, "count"),
            record("HKQuantityTypeIdentifierFlightsClimbed", t, t + timedelta(minutes=30), 43, "count"),
            record("HKQuantityTypeIdentifierActiveEnergyBurned", t, t + timedelta(minutes=30), 542.34, "kcal"),
            record("HKQuantityTypeIdentifierActiveEnergyBurned", t + timedelta(hours=1), t + timedelta(hours=2), 542.34, "kcal"),
            record("HKCategoryTypeIdentifierSleepAnalysis", t - timedelta(hours=5), t - timedelta(hours=3), "HKCategoryValueSleepAnalysisAsleepREM")]
    path = tmp_path / "numbers.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n' + "\n".join(rows) + "\n</HealthData>\n")
    return path


def test_numbers_are_written_for_people_in_the_users_locale_on_the_web_and_in_the_terminal(hs, browser, tmp_path):
    hs.env["TZ"] = "UTC"
    hs.run("import", str(numbers_export(tmp_path)), "--no-progress")
    text = hs.run("day", "2026-11-20", env={"LANG": "en_US.UTF-8"}).stdout
    assert "14,400" in text and "Flights       43\n" in text and "1,085 kcal" in text and "REM 2 h 0 min" in text, text
    assert "1.085 kcal" in hs.run("day", "2026-11-20", env={"LANG": "de_DE.UTF-8"}).stdout
    assert "1,085 kcal" in hs.run("day", "2026-11-20", env={"LANG": "C"}).stdout
    w = Web(hs, free_port())
    hs.start(env={**w.env, "LANG": "de_DE.UTF-8"})
    assert wait_until(lambda: listening(w.port), 15), hs.read_log()
    browser.set_window_size(*DESKTOP)
    browser.get(w.link())
    browser.get(w.base + "/day/2026-11-20")
    assert browser.find_element(By.ID, "steps").text == "14.400"
    assert browser.find_element(By.ID, "flightsClimbed").text == "43"
    assert browser.find_element(By.ID, "activeEnergyBurned").text == "1.085 kcal"
    assert "REM" in browser.find_element(By.ID, "stages").text
    shot(browser, "day-numbers-de")
