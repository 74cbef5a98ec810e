"""Issue 40, items 1, 3 and 5: what the person meant is what is stored, and they can reach it.

1. A part of the day chosen is the time meant ("morning" at 18:07 is 08:30, shown as
   "Morning"), from the command line and the browser alike.
3. Steps typed in are listed under "Readings by day" with Change and Delete.
5. On a phone the blood-pressure form and the calendar are near the top of their pages."""
from __future__ import annotations

import datetime as dt
import json
import time

from conftest import wait_until
from test_web import Web, browser, flash, shot, web  # noqa: F401 (fixtures)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

PHONE = (390, 844)
DESKTOP = (1280, 900)
# The middle of each part of the day, as minutes after midnight, and where the part begins.
PARTS = {"morning": (5 * 60, 7 * 60), "afternoon": (12 * 60, 5 * 60), "evening": (17 * 60, 4 * 60), "night": (21 * 60, 8 * 60)}


def meant(part: str, now: dt.datetime) -> dt.datetime:
    """The time the rule stores for `part` chosen at `now` (an aware local time), written out
    independently of the daemon: the middle of the latest occurrence that has begun, or now."""
    start, length = PARTS[part]
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    begin = midnight + dt.timedelta(minutes=start)
    if begin > now:
        begin -= dt.timedelta(days=1)
    middle = begin + dt.timedelta(minutes=length // 2)
    return middle if middle < now else now


def a_past_part(now: dt.datetime) -> str:
    """A part of the day whose middle has passed and which is not the current one (so the stored
    time is not now)."""
    for part in ("morning", "afternoon", "evening", "night"):
        if meant(part, now) < now - dt.timedelta(minutes=30):
            return part
    raise AssertionError("no such part")


def local_now(hs) -> dt.datetime:
    """Now in the offset the journal writes (from a throwaway entry's `at`)."""
    e = json.loads(hs.run("lifestyle", "log", "water", "--json").stdout)
    return dt.datetime.fromisoformat(e["at"])


def test_a_part_of_the_day_from_the_command_line_is_the_time_meant(web):
    hs = web.hs
    now = local_now(hs)
    part = a_past_part(now)
    e = json.loads(hs.run("symptom", "log", "Headache", "--severity", "moderate", "--when", part, "--json").stdout)
    at = dt.datetime.fromisoformat(e["at"])
    print(f"chosen {part} at {now:%H:%M}: stored {at:%Y-%m-%d %H:%M}")
    assert e["timeOfDay"] == part and e["partMeant"] is True
    assert abs((at - meant(part, now)).total_seconds()) < 90, (at, meant(part, now))
    listed = json.loads(hs.run("symptom", "list", "--json").stdout)
    assert [x["at"] for x in listed] == [e["at"]]


def test_a_part_of_the_day_chosen_in_the_browser_is_stored_then_shown_as_that_part(web, browser):
    hs = web.hs
    now = local_now(hs)
    part = a_past_part(now)
    browser.set_window_size(*PHONE)
    browser.get(web.link())
    browser.get(web.base + "/symptoms/log?symptom=Headache")
    browser.find_element(By.CSS_SELECTOR, "#symptom-details > summary").click()
    Select(browser.find_element(By.ID, "f-when")).select_by_value(part)
    browser.find_element(By.CSS_SELECTOR, "button[name=severity][value=moderate]").click()
    said = flash(browser, "ok", "Saved: Headache")
    shown = {"morning": "in the morning", "afternoon": "in the afternoon", "evening": "in the evening", "night": "at night"}[part]
    assert said.startswith(f"Saved: Headache, moderate, {shown}"), said
    e = json.loads(hs.run("symptom", "list", "--json").stdout)[0]
    at = dt.datetime.fromisoformat(e["at"])
    assert e["timeOfDay"] == part and e["partMeant"] is True
    assert abs((at - meant(part, now)).total_seconds()) < 90, (at, meant(part, now))
    # The journal of that day shows the part, not a clock time.
    browser.get(web.base + "/day/" + at.date().isoformat())
    journal = browser.find_element(By.ID, "day-journal").text
    assert f"{part.capitalize()} Headache: moderate" in journal, journal
    assert f"{at:%H:%M} Headache" not in journal, journal
    browser.execute_script("document.getElementById('day-journal').scrollIntoView()")
    shot(browser, "meant-day-390")


def test_steps_typed_in_can_be_changed_and_deleted_from_the_readings(web, browser):
    hs = web.hs
    browser.set_window_size(*DESKTOP)
    browser.get(web.link())
    browser.get(web.base + "/measure")
    browser.find_element(By.ID, "f-value-steps").send_keys("4200")
    since = browser.find_element(By.ID, "f-since")
    since.clear()
    since.send_keys("00:00")
    browser.find_element(By.XPATH, "//button[text()='Save steps']").click()
    assert flash(browser, "ok", "steps, 00:00 to")
    rows = [li for li in browser.find_elements(By.CSS_SELECTOR, "#recent li.editable") if "Steps" in li.text]
    assert len(rows) == 1, [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#recent li")]
    assert "4,200 steps" in rows[0].text or "4200 steps" in rows[0].text, rows[0].text
    browser.execute_script("document.getElementById('recent').scrollIntoView()")
    shot(browser, "steps-readings-1280")
    rows[0].find_element(By.LINK_TEXT, "Change").click()
    assert wait_until(lambda: "/edit" in browser.current_url, 10)
    field = browser.find_element(By.ID, "f-value-steps")
    field.clear()
    field.send_keys("4500")
    browser.find_element(By.ID, "save-changes").click()
    said = flash(browser, "ok", "Changed: steps")
    assert "4,500" in said or "4500" in said, said
    day = json.loads(hs.run("day", "--json").stdout)
    assert day["totals"]["stepCount"] == 4500, day["totals"]
    rows = [li for li in browser.find_elements(By.CSS_SELECTOR, "#recent li.editable") if "Steps" in li.text]
    rows[0].find_element(By.XPATH, ".//button[text()='Delete']").click()
    assert "Deleted: steps" in flash(browser, "ok", "Deleted: steps")
    assert not [li for li in browser.find_elements(By.CSS_SELECTOR, "#recent li") if "Steps" in li.text]
    assert json.loads(hs.run("day", "--json").stdout)["totals"].get("stepCount") in (None, 0)


def test_on_a_phone_the_blood_pressure_form_and_the_calendar_are_near_the_top(web, browser):
    hs = web.hs
    hs.run("measure", "bp", "128/82")
    hs.run("measure", "hr", "72")
    hs.run("measure", "weight", "72.5")
    browser.get(web.link())
    for size in (PHONE, DESKTOP):
        browser.set_window_size(*size)
        browser.get(web.base + "/measure")
        bp = browser.execute_script("return document.getElementById('f-systolic').getBoundingClientRect().top + window.scrollY")
        browser.get(web.base + "/day")
        cal = browser.execute_script("return document.getElementById('calendar').getBoundingClientRect().top + window.scrollY")
        shot(browser, f"day-top-{size[0]}")
        browser.get(web.base + "/measure")
        shot(browser, f"measure-top-{size[0]}")
        print(f"{size[0]}×{size[1]}: blood-pressure form at {bp:.0f} px, calendar at {cal:.0f} px")
        # Within about one and a half screens of the top (it was 2,040 and 3,560 px on a phone).
        assert bp < 1.5 * size[1], bp
        assert cal < 1.5 * size[1], cal
