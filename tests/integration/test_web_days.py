"""The web's day view, month calendar and import by drop (issues 17 and 18): the real daemon
serving them, driven in headless Chromium through Selenium; figures compared with
`healthspool day --json` on the same store."""
from __future__ import annotations

import http.client
import json
from datetime import datetime, timedelta, timezone

import pytest

from conftest import free_port, samples, wait_until
from test_web import Web, browser, listening, shot, no_axe_violations  # noqa: F401 (fixture)

UTC = timezone.utc
WATCH = "Anna’s Apple Watch"


def record(kind: str, start: datetime, end: datetime, value, unit: str = "") -> str:
    u = f' unit="{unit}"' if unit else ""
    f = lambda t: t.strftime("%Y-%m-%d %H:%M:%S +0000")  # noqa: E731
    return (f'<Record type="{kind}" sourceName="{WATCH}" sourceVersion="1"{u} creationDate="{f(end)}" '
            f'startDate="{f(start)}" endDate="{f(end)}" value="{value}"/>')


def two_day_export(tmp_path):
    """Data on 2026-11-20 (whole day) and 2026-11-21 (until noon) only: steps every 10 minutes,
    heart rate every 10 minutes, distance, and the night 20→21 asleep 23:00–06:30."""
    rows = []
    t, end = datetime(2026, 11, 20, tzinfo=UTC), datetime(2026, 11, 21, 12, tzinfo=UTC)
    while t < end:
        rows.append(record("HKQuantityTypeIdentifierStepCount", t, t + timedelta(minutes=10), 100, "count"))
        rows.append(record("HKQuantityTypeIdentifierDistanceWalkingRunning", t, t + timedelta(minutes=10), 0.07, "km"))
        rows.append(record("HKQuantityTypeIdentifierHeartRate", t, t, 55 + (t.hour * 7 + t.minute) % 50, "count/min"))
        t += timedelta(minutes=10)
    night = datetime(2026, 11, 20, 23, tzinfo=UTC)
    rows.append(record("HKCategoryTypeIdentifierSleepAnalysis", night - timedelta(minutes=20), night + timedelta(hours=8),
                       "HKCategoryValueSleepAnalysisInBed"))
    rows.append(record("HKCategoryTypeIdentifierSleepAnalysis", night, night + timedelta(hours=3), "HKCategoryValueSleepAnalysisAsleepCore"))
    rows.append(record("HKCategoryTypeIdentifierSleepAnalysis", night + timedelta(hours=3), night + timedelta(hours=5),
                       "HKCategoryValueSleepAnalysisAsleepDeep"))
    rows.append(record("HKCategoryTypeIdentifierSleepAnalysis", night + timedelta(hours=5), night + timedelta(hours=7, minutes=30),
                       "HKCategoryValueSleepAnalysisAsleepREM"))
    path = tmp_path / "export.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n' + "\n".join(rows)
                    + "\n</HealthData>\n", encoding="utf-8")
    return path


@pytest.fixture
def days_web(hs, tmp_path):
    hs.env["TZ"] = "UTC"
    hs.run("import", str(two_day_export(tmp_path)), "--no-progress")
    hs.run("symptom", "log", "headache", "--severity", "severe", "--at", "2026-11-21T09:00", "--category", "migraine")
    hs.run("symptom", "log", "nausea", "--severity", "moderate", "--at", "2026-11-21T10:00", "--category", "migraine")
    w = Web(hs, free_port())
    w.env["HEALTHSPOOL_WEB_UPLOAD_MAX_MB"] = "1"
    hs.start(env=w.env)
    assert wait_until(lambda: listening(w.port), 15), hs.read_log()
    return w


def assert_large_enough(browser, name: str):
    small, tiny = browser.execute_script("""
        const small = [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length && e.childNodes.length &&
            [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && parseFloat(getComputedStyle(e).fontSize) < 16);
        const tiny = [...document.querySelectorAll('a, button, input:not([type=hidden]), select')].filter(e => {
            const r = e.getBoundingClientRect(); return r.width > 0 && (r.height < 44 || r.width < 24); });
        return [small.map(e => e.tagName + ':' + e.textContent.slice(0, 30)), tiny.map(e => e.outerHTML.slice(0, 80))];""")
    assert small == [], f"{name}: text under 16 px: {small[:5]}"
    assert tiny == [], f"{name}: small targets: {tiny[:5]}"


def current(browser, css: str) -> str:
    return browser.find_element("css selector", css + ' a[aria-current="date"]').get_attribute("data-date")


def value(browser, id_: str, attr: str = "data-value") -> str:
    return browser.find_element("id", id_).get_attribute(attr)


def test_day_figures_match_the_cli_and_calendar_strip_and_arrow_keys_move_together(days_web, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    hs, web = days_web.hs, days_web
    browser.get(web.link())
    browser.get(web.base + "/day/2026-11-21")
    for date in ("2026-11-20", "2026-11-21"):
        browser.get(web.base + "/day/" + date)
        d = json.loads(hs.run("day", date, "--json").stdout)
        assert float(value(browser, "steps")) == d["totals"]["stepCount"]
        assert float(value(browser, "distance")) == round(d["totals"]["distanceWalkingRunning"], 2)
        hr = d["heartRate"]
        assert (int(value(browser, "hr-min")), int(value(browser, "hr-max"))) == (hr["min"], hr["max"])
        assert int(value(browser, "hr-avg")) == round(hr["weightedAverage"])  # weighted by time; the plain mean stays in --json
        assert browser.find_element(By.CSS_SELECTOR, "svg.curve polyline").get_attribute("points").count(",") == len(hr["curve"])
        if d["sleep"]:
            assert int(value(browser, "asleep", "data-minutes")) == round(d["sleep"]["asleepMinutes"])
            assert int(value(browser, "in-bed", "data-minutes")) == round(d["sleep"]["inBedMinutes"])
            assert "Deep" in browser.find_element(By.ID, "stages").text
    assert d["sleep"]["asleepMinutes"] == 450
    # The journal of the 21st: both symptoms and the category's score (severe 3 + moderate 2).
    assert "headache" in browser.find_element(By.ID, "symptoms").text
    assert "migraine: 5" in browser.find_element(By.ID, "scores").text
    shot(browser, "day-2026-11-21")
    browser.execute_script("document.getElementById('hr-h').scrollIntoView()")
    shot(browser, "day-2026-11-21-heart-and-journal")
    # The day with data passes the checks every page passes (test_web.py): axe, 16 px text,
    # 44 px targets, no sideways scrolling at 640 and 360 px.
    no_axe_violations(browser, "/day/2026-11-21")
    assert_large_enough(browser, "/day/2026-11-21")
    for width in (640, 360):
        browser.set_window_size(width, 900)
        browser.get(web.base + "/day/2026-11-21")
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"/day at {width} px scrolls sideways by {overflow} px"
        shot(browser, f"narrow-{width}-day")
    browser.set_window_size(1280, 1000)
    browser.get(web.base + "/day/2026-11-21")

    # The calendar marks the two days with data, and the 21st's score in words and shade.
    cal = {a.get_attribute("data-date"): a for a in browser.find_elements(By.CSS_SELECTOR, "#calendar a")}
    assert len(cal) == 30
    assert [d for d, a in cal.items() if a.get_attribute("data-has-data") == "true"] == ["2026-11-20", "2026-11-21"]
    assert "symptom score 5" in cal["2026-11-21"].get_attribute("aria-label")
    assert cal["2026-11-21"].find_element(By.XPATH, "..").get_attribute("class") == "s2"
    assert cal["2026-11-19"].get_attribute("aria-label") == "19 November, no data"

    # Choosing a day in the calendar moves the strip.
    cal["2026-11-20"].click()
    assert wait_until(lambda: browser.current_url.endswith("/day/2026-11-20"), 10)
    assert current(browser, "#strip") == "2026-11-20" and current(browser, "#calendar") == "2026-11-20"
    # The chosen day is scrolled into the strip's view.
    inside = browser.execute_script("""
        const s = document.getElementById('strip').getBoundingClientRect();
        const a = document.querySelector('#strip a[aria-current=date]').getBoundingClientRect();
        return a.left >= s.left && a.right <= s.right;""")
    assert inside

    # The arrow keys move a day, and the calendar follows.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert wait_until(lambda: browser.current_url.endswith("/day/2026-11-21"), 10)
    assert current(browser, "#calendar") == "2026-11-21"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert wait_until(lambda: browser.current_url.endswith("/day/2026-11-20"), 10)

    # Choosing a day in the strip moves the calendar; the calendar's month links keep the day.
    browser.find_element(By.CSS_SELECTOR, '#strip a[data-date="2026-11-08"]').click()
    assert wait_until(lambda: browser.current_url.endswith("/day/2026-11-08"), 10)
    assert current(browser, "#calendar") == "2026-11-08"
    assert "No heart rate recorded" in browser.find_element(By.TAG_NAME, "main").text
    browser.find_element(By.ID, "prev-month").click()
    assert wait_until(lambda: browser.current_url.endswith("/day/2026-10-08"), 10)
    assert browser.find_element(By.ID, "cal-h").text == "October 2026"
    assert current(browser, "#strip") == "2026-10-08"

    r, _ = web.request("GET", "/day/2026-13-01", {"Cookie": web.session()[0]})
    assert r.status == 404


def test_a_file_chosen_with_the_file_input_is_imported_and_its_summary_shown(days_web, browser, tmp_path):
    from selenium.webdriver.common.by import By
    hs, web = days_web.hs, days_web
    before = hs.status()["store"]["samples"]
    upload = tmp_path / "my export.json"
    upload.write_text(json.dumps(samples(25, "heartRate", start=7000)))
    browser.get(web.link())
    browser.get(web.base + "/import")
    no_axe_violations(browser, "/import")
    assert_large_enough(browser, "/import")
    browser.find_element(By.ID, "import-file").send_keys(str(upload))
    text = lambda: browser.find_element(By.ID, "import-text").text  # noqa: E731
    assert wait_until(lambda: text().startswith("Imported"), 30), text()
    assert "my export.json: 25 new" in text()
    assert browser.find_element(By.ID, "import-progress").get_attribute("value") == "100"
    shot(browser, "import-done")
    assert hs.status()["store"]["samples"] == before + 25
    # Nothing half-written is left in the spool.
    assert [p.name for p in hs.spool.iterdir() if p.name.startswith(".upload")] == []


def test_an_upload_over_the_limit_or_without_the_token_is_refused_and_leaves_nothing(days_web):
    web = days_web
    cookie, csrf = web.session()
    head = {"Cookie": cookie, "Origin": web.base, "X-File-Name": "big.json", "Content-Type": "application/octet-stream"}
    r, _ = web.request("POST", "/import", {k: v for k, v in head.items()}, "[]")
    assert r.status == 403  # no CSRF token
    r, body = web.request("POST", "/import", {**head, "X-CSRF-Token": csrf}, "x" * (1 << 20 | 1))
    assert r.status == 413 and b"web.upload_max_mb" in body
    # Streamed without a length: refused once the limit is passed.
    c = http.client.HTTPConnection(web.address, web.port, timeout=20)
    c.request("POST", "/import", body=iter([b"y" * 65536] * 40), encode_chunked=True,
              headers={"Host": f"{web.address}:{web.port}", **head, "X-CSRF-Token": csrf, "Transfer-Encoding": "chunked"})
    assert c.getresponse().status == 413
    c.close()
    assert wait_until(lambda: sorted(p.name for p in web.hs.spool.iterdir() if p.is_file()) == [], 5), list(web.hs.spool.iterdir())
    # A hostile name stays inside the spool.
    r, body = web.request("POST", "/import", {**head, "X-CSRF-Token": csrf, "X-File-Name": "..%2F..%2F.bashrc"}, "[]")
    assert r.status == 201 and json.loads(body)["file"] == "bashrc"
