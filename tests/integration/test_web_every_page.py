"""Issue 28, "Done when": every page of the web interface, the edit pages and the report too, at
1280×900 and at 390×844: axe-core finds nothing, no text is under 18 px and no target under
48 px in the page's content, nothing scrolls sideways, the console has no Content-Security-Policy
violation, and a screenshot of each is saved in test-artifacts/web/ (every-NAME-WxH.png) to be
looked at. The journal holds one entry of each kind, so each list and edit page shows content."""
from __future__ import annotations

import json
import re
import tempfile
from datetime import date, datetime, timedelta
from pathlib import Path

from test_web import browser, no_axe_violations, shot, web  # noqa: F401 (fixtures)
from test_web_forms import DESKTOP, PHONE, SIZES
from test_web_measure import get
from records_fixture import events_json, records_zip


CALENDAR_DAYS = """
    return [...document.querySelectorAll('.cal a')].map(a => a.getBoundingClientRect())
        .filter(r => r.width > 0).map(r => Math.min(r.width, r.height));"""


def fill_journal(hs) -> dict[str, str]:
    """One entry of each kind, some of them on earlier days; returns the ids the edit pages need."""
    def ago(days: int, at: str = "08:00") -> str:
        return (datetime.now() - timedelta(days=days)).strftime(f"%Y-%m-%d {at}")
    hs.run("med", "add", "Ibuprofen", "--dose", "400 mg", "--directions", "with food")
    hs.run("med", "take", "Ibuprofen")
    hs.run("remind", "add", "Ibuprofen", "--times", "08:00,20:00", "--every", "2", "days", "--med", "Ibuprofen")
    hs.run("goal", "add", "Walk", "--every", "day", "--type", "stepCount", "--target", "10000")
    hs.run("goal", "add", "Book a check-up")
    symptom = json.loads(hs.run("symptom", "log", "headache", "--severity", "moderate", "--aggravated-by", "screens",
                                "--note", "after lunch", "--json").stdout)
    hs.run("symptom", "log", "back pain", "--severity", "mild", "--at", ago(1, "18:00"))
    lifestyle = json.loads(hs.run("lifestyle", "log", "caffeine", "--amount", "2", "--unit", "cups", "--json").stdout)
    hs.run("note", "add", "Ask about the dose", "--category", "cardiology")
    for days, bp, glucose in [(20, "131/85", "5.6"), (6, "118/76", "5.2"), (0, "124/80", "4.8")]:
        hs.run("measure", "bp", bp, "--at", ago(days))
        hs.run("measure", "glucose", glucose, "mmol/L", "--at", ago(days))
    note = json.loads(hs.run("note", "list", "--json").stdout)[0]["id"]
    return {"symptom": symptom["id"], "lifestyle": lifestyle["id"], "note": note}


def test_every_page_at_both_sizes_passes_axe_fits_and_keeps_the_content_security_policy(web, browser):
    ids = fill_journal(web.hs)
    # Providers' records (/records) and a day's heart-rate notifications and cycle entries (/day).
    with tempfile.TemporaryDirectory() as tmp:
        web.hs.run("import", str(records_zip(Path(tmp) / "export.zip")), "--no-progress")
        web.hs.run("import", str(events_json(Path(tmp) / "HealthAutoExport.json", date.today())), "--no-progress")
    cookie, _ = web.session()
    key = re.search(r'data-reading="([^"]+)"', get(web, cookie, "/measure")).group(1)
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    pages = {
        "today": "/", "journal": "/journal", "symptom-log": "/symptoms/log?symptom=Headache",
        "symptom-edit": f"/symptoms/{ids['symptom']}/edit", "day": "/day", "day-yesterday": f"/day/{yesterday}",
        "meds": "/meds", "med-edit": "/meds/edit?id=1", "reminders": "/reminders", "reminder-edit": "/reminders/edit?id=1",
        "measure": "/measure", "measure-90": "/measure?range=90", "measure-edit": f"/measure/{key}/edit",
        "lifestyle": "/lifestyle", "lifestyle-edit": f"/lifestyle/{ids['lifestyle']}/edit", "goals": "/goals",
        "notes": "/notes", "note-edit": f"/notes/{ids['note']}/edit", "report": "/report", "import": "/import",
        "sync": "/sync", "settings": "/settings", "deletions": "/deletions", "records": "/records",
    }
    # The menu marks where each page belongs (the pages without an entry of their own included).
    menu = {"today": "Today", "journal": "Journal", "symptom-edit": "Journal", "day": "Days", "meds": "Medications",
            "med-edit": "Medications", "reminder-edit": "Reminders", "measure-edit": "Measurements", "lifestyle-edit": "Lifestyle",
            "notes": "Notes", "note-edit": "Notes", "report": "Summary", "sync": "Sending", "import": "Import",
            "settings": "Settings", "deletions": "Sending", "records": "Summary"}
    browser.get(web.link())
    problems = []   # every page is looked at before the test says what was wrong
    for size in (DESKTOP, PHONE):
        browser.set_window_size(*size)
        browser.get_log("browser")  # what came before
        for name, path in pages.items():
            browser.get(web.base + path)
            where = f"{path} at {size[0]}×{size[1]}"
            shot(browser, f"every-{name}-{size[0]}x{size[1]}")
            marked = browser.execute_script("return document.querySelector('nav a[aria-current=page]')?.textContent ?? null")
            if name in menu and marked != menu[name]:
                problems.append(f"{where}: the menu marks {marked}, not {menu[name]}")
            if "Not found" in browser.title or "Something went wrong" in browser.title:
                problems.append(f"{where}: {browser.title}")
            try:
                no_axe_violations(browser, where)
            except AssertionError as e:
                problems.append(str(e))
            small, tiny = browser.execute_script(SIZES.replace("main a,", "main a:not(.cal a),"))
            # The month's days, seven to a row, may be narrower than 48 px on a phone; 44 px is
            # WCAG's enhanced target size (2.5.5), and each is a whole cell with space around.
            days = browser.execute_script(CALENDAR_DAYS)
            if days and min(days) < 44:
                problems.append(f"{where}: a calendar day {min(days):.0f} px")
            if small:
                problems.append(f"{where}: text under 18 px: {small[:5]}")
            if tiny:
                problems.append(f"{where}: targets under 48 px: {tiny[:3]}")
            overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 0:
                problems.append(f"{where} scrolls sideways by {overflow} px")
            csp = [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
            if csp:
                problems.append(f"{where}: {csp}")
    assert problems == [], "\n".join(problems)
    # Signed out: the page that says how to come back in.
    browser.delete_all_cookies()
    for size in (DESKTOP, PHONE):
        browser.set_window_size(*size)
        browser.get(web.base + "/")
        no_axe_violations(browser, f"signed out at {size[0]}")
        assert "applications menu" in browser.find_element("tag name", "body").text
        shot(browser, f"every-signed-out-{size[0]}x{size[1]}")
