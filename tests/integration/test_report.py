"""The doctor's summary (issue 29): entries made with the real CLI, `healthspool report` writing
one self-contained HTML file (no script, nothing fetched, user text escaped, mode 0600) and the
same figures as JSON; `/report` in the real daemon's web interface, checked with axe-core,
photographed wide and narrow, and printed to PDF by Chromium on A4 and Letter."""
from __future__ import annotations

import json
import os
import stat
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import wait_until
from test_web import SCREENSHOTS, browser, listening, no_axe_violations, shot, web  # noqa: F401 (fixtures)

UTC = {"TZ": "UTC"}
FROM, TO = "2026-03-02", "2026-03-08"
SPOKEN = "2 Mar 2026 to 8 Mar 2026"   # the printed header writes dates as people do (issue 40)


def make_week(hs):
    """A hand-made week (2026-03-02 to 03-08, UTC): symptoms, factors, a medication twice a day
    with one dose missed and one late, another without reminder, blood pressure, steps, notes."""
    def run(*args):
        hs.run(*args, env=UTC)
    run("symptom", "log", "headache", "--severity", "severe", "--at", "2026-03-03T08:00", "--category", "Head",
        "--aggravated-by", "screens <b>", "--relieved-by", "rest")
    run("symptom", "log", "headache", "--severity", "moderate", "--at", "2026-03-03T19:00", "--category", "Head",
        "--aggravated-by", "screens <b>")
    run("symptom", "log", "migraine", "--severity", "debilitating", "--at", "2026-03-05T14:00", "--category", "Head")
    run("symptom", "log", "nausea", "--severity", "mild", "--at", "2026-03-04T22:00", "--category", "Stomach")
    run("lifestyle", "log", "caffeine", "--at", "2026-03-03T07:00")
    run("med", "add", "ibuprofen", "--dose", "400 mg", "--directions", "with food", "--prescriber", "Dr <Weiss> & Co")
    run("med", "add", "vitamin D")
    run("remind", "add", "Take ibuprofen", "--times", "08:00,20:00", "--every", "day", "--start", FROM, "--med", "ibuprofen")
    for day in range(2, 9):
        for due in ("08:00", "20:00"):
            if day == 4 and due == "20:00":
                continue                               # missed
            at = "10:30" if (day, due) == (6, "08:00") else ("08:15" if due == "08:00" else "19:50")
            run("med", "take", "ibuprofen", "--at", f"2026-03-0{day} {at}")
    run("med", "take", "vitamin D", "--at", "2026-03-03 09:00")
    run("measure", "bp", "128/82", "--at", "2026-03-03 08:00")
    run("measure", "bp", "135/85", "--at", "2026-03-04 08:00")
    run("measure", "steps", "5000", "--from", "2026-03-03 10:00", "--to", "2026-03-03 11:00")
    run("measure", "steps", "7000", "--from", "2026-03-04 10:00", "--to", "2026-03-04 11:00")


# The figures of that week, as the tables show them (cells of a row, first the row's name).
IBUPROFEN = ["ibuprofen", "400 mg", "with food", "Dr <Weiss> & Co", "13", "14", "12", "1", "1"]
HEAD = ["All (Head)", "3", "2", "9", "5", "3 Mar 2026 (5), 5 Mar 2026 (4)", "morning 1, afternoon 1, evening 1"]
HEADACHE = ["headache", "2", "1", "5", "5", "3 Mar 2026 (5)", "morning 1, evening 1"]


class Page(HTMLParser):
    """The tags, attributes, text and table rows of an HTML document."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.rows: list[list[str]] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def row(self, first: str) -> list[str]:
        found = [r for r in self.rows if r and r[0] == first]
        assert found, f"no row for {first!r} in {self.rows}"
        return found[0]


def self_contained(page: Page):
    names = [t for t, _ in page.tags]
    assert "script" not in names and "iframe" not in names and "img" not in names and "link" not in names, names
    for tag, attrs in page.tags:
        for name in ("src", "href", "action", "xlink:href"):
            assert name not in attrs, (tag, attrs)
        assert "style" not in attrs or tag == "svg", (tag, attrs)


def test_report_file_is_self_contained_with_exact_figures_and_json_agrees(hs, tmp_path):
    make_week(hs)
    out = tmp_path / "f.html"
    p = hs.run("report", "--from", FROM, "--to", TO, "--out", str(out), env=UTC)
    assert str(out) in p.stdout
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    html = out.read_text()
    page = Page(html)
    self_contained(page)
    assert "http://" not in html and "https://" not in html
    # User text is text: no <b> or <weiss> element made of it, the characters shown as typed.
    assert not [t for t, _ in page.tags if t in ("b", "weiss")]
    assert "screens &lt;b&gt;" in html and "Dr &lt;Weiss&gt; &amp; Co" in html
    text = "".join(page.text)
    assert "These figures are from the person's own records" in text
    assert "Mon 2 Mar 2026 to Sun 8 Mar 2026 (7 days)" in text
    assert page.row("ibuprofen") == IBUPROFEN
    assert page.row("vitamin D")[:5] == ["vitamin D", "", "", "", "1"]
    assert page.row("All (Head)") == HEAD
    assert page.row("headache") == HEADACHE
    assert page.row("3 Mar 2026, 08:00") == ["3 Mar 2026, 08:00", "128 / 82"]   # dates as people write them (issue 40)
    assert page.row("screens <b>") == ["screens <b>", "2"]
    assert page.row("3 Mar 2026")[:2] == ["3 Mar 2026", "5,000"]
    assert "Mean steps a day: 6,000" in text
    for section in ("Symptoms", "Medications", "Measurements", "Activity and sleep", "Factors", "Plan"):
        assert any(t == "h2" for t, _ in page.tags) and section in text, section
    assert "Notes" not in [t.strip() for t in page.text]      # no note in that week: no section

    # Printed as it is (Chromium, A4): the sections one after another (issue 40: not a page
    # each), the period and page N of M on each page.
    printed = tmp_path / "f.pdf"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                    f"--print-to-pdf={printed}", out.as_uri()], capture_output=True, timeout=120, check=True)
    text = subprocess.run(["pdftotext", str(printed), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.count(f"Health summary {SPOKEN}")
    assert 2 <= pages <= 4 and f"Page {pages} of {pages}" in text, text[:500]

    # --json: the same figures.
    j = json.loads(hs.run("report", "--from", FROM, "--to", TO, "--json", "--out", "-", env=UTC).stdout)
    assert (j["from"], j["to"], j["days"]) == (FROM, TO, 7)
    ibu = j["medications"][0]
    assert ibu["name"] == "ibuprofen" and ibu["taken"] == 13 and ibu["prescriber"] == "Dr <Weiss> & Co"
    assert ibu["adherence"] == {"due": 14, "onTime": 12, "late": 1, "missed": 1}
    assert ibu["weeks"] == [{"week": FROM, "due": 14, "onTime": 12, "late": 1, "missed": 1}]
    assert j["medications"][1]["adherence"] is None
    head = j["symptoms"][0]["category"]
    assert [head["name"], head["entries"], head["days"], head["total"], head["highest"]] == ["Head", 3, 2, 9, 5]
    assert head["daily"] == [0, 5, 0, 4, 0, 0, 0]
    assert head["partsOfDay"] == {"morning": 1, "afternoon": 1, "evening": 1}
    bp = j["measurements"][0]
    assert bp["kind"] == "bloodPressure" and [(r["value"], r["second"]) for r in bp["readings"]] == [(128, 82), (135, 85)]
    assert j["activity"]["meanSteps"] == 6000
    assert j["factors"]["aggravating"] == [{"name": "screens <b>", "count": 2}]
    assert j["notes"] == []


def test_report_notes_questions_first_and_the_default_period(hs, tmp_path):
    hs.run("note", "add", "Echo <script>alert(1)</script> normal", "--category", "cardiology")
    hs.run("note", "add", "Is 400 mg right?", "--category", "questions")
    out = tmp_path / "r.html"
    hs.run("report", "--questions", "questions", "--out", str(out))
    page = Page(out.read_text())
    self_contained(page)
    text = "".join(page.text)
    assert text.index("questions (questions)") < text.index("cardiology")
    assert "Echo <script>alert(1)</script> normal" in text
    j = json.loads(hs.run("report", "--json", "--out", "-").stdout)
    assert j["days"] == 30 and [g["category"] for g in j["notes"]] == ["cardiology", "questions"]
    # "Since the last appointment": from the day of the latest note of a category.
    j = json.loads(hs.run("report", "--since", "cardiology", "--json", "--out", "-").stdout)
    assert j["days"] == 1
    p = hs.run("report", "--since", "dentist", check=False)
    assert p.returncode != 0 and "no note in category 'dentist'" in p.stderr
    p = hs.run("report", "--from", "2026-03-08", "--to", "2026-03-02", check=False)
    assert p.returncode != 0 and "--from" in p.stderr


def pdf(driver, paper: tuple[float, float], name: str) -> tuple[Path, str, int]:
    """Prints the page to PDF as Chromium does (its print style sheet), saves it with PNGs of its
    pages in test-artifacts/web/; returns the file, its text and its page count."""
    import base64
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    r = driver.execute_cdp_cmd("Page.printToPDF", {"paperWidth": paper[0], "paperHeight": paper[1], "printBackground": False})
    path = SCREENSHOTS / f"{name}.pdf"
    path.write_bytes(base64.b64decode(r["data"]))
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    pages = int([line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")][0])
    for old in SCREENSHOTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-l", "4", str(path), str(SCREENSHOTS / name)], check=True)
    return path, text, pages


A4, LETTER = (8.27, 11.69), (8.5, 11.0)


def test_report_page_needs_the_session_and_its_style_is_the_files(web):
    r, _ = web.request("GET", f"/report?from={FROM}&to={TO}")
    assert r.status == 401
    cookie, _ = web.session()
    r, body = web.request("GET", "/report", {"Cookie": cookie})
    assert r.status == 200 and b'href="/static/report.css"' in body
    assert "default-src 'none'" in r.getheader("Content-Security-Policy")
    r, css = web.request("GET", "/static/report.css", {"Cookie": cookie})
    assert r.status == 200 and b"@media print" in css
    # The printed pages' header: the period, and the name from the settings once one is set.
    header = f"/report/page.css?from={FROM}&to={TO}"
    r, _ = web.request("GET", header)
    assert r.status == 401
    r, css = web.request("GET", header, {"Cookie": cookie})
    assert r.status == 200 and f'content:"Health summary {SPOKEN}"'.encode() in css
    config = web.hs.home / ".config" / "healthspool" / "healthspool.conf"
    config.write_text(config.read_text() + "\nreport.name = Ada Lovelace\n")
    # The daemon rereads its config file when it changes (inotify), a moment after the write.
    named = f'content:"Ada Lovelace \\2014  Health summary {SPOKEN}"'.encode()
    css = wait_until(lambda: (got := web.request("GET", header, {"Cookie": cookie}))[0].status == 200 and named in got[1] and got[1], 10)
    assert css, web.request("GET", header, {"Cookie": cookie})[1]


def test_report_page_in_the_browser_prints_on_a4_and_letter(web, browser):
    make_week(web.hs)
    web.hs.run("note", "add", "Is 400 mg right?", "--category", "questions")
    browser.get(web.link())
    browser.set_window_size(1280, 900)
    browser.get(web.base + f"/report?from={FROM}&to={TO}")
    assert wait_until(lambda: browser.find_elements("id", "r-medications"), 10)
    page = Page(browser.page_source)
    assert page.row("ibuprofen") == IBUPROFEN
    assert page.row("All (Head)") == HEAD
    assert browser.find_element("id", "f-from").get_attribute("value") == FROM
    no_axe_violations(browser, "/report")
    small = browser.execute_script("""
        return [...document.querySelectorAll('main *')].filter(e => e.getClientRects().length && e.childNodes.length &&
            [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && parseFloat(getComputedStyle(e).fontSize) < 16)
            .map(e => e.tagName + ':' + e.textContent.slice(0, 30));""")
    assert small == [], f"text under 16 px: {small[:5]}"
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "report-1280")
    browser.set_window_size(390, 844)
    browser.get(web.base + f"/report?from={FROM}&to={TO}")
    overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/report at 390 px scrolls sideways by {overflow} px"
    shot(browser, "report-390")
    browser.execute_script("document.getElementById('r-symptoms').scrollIntoView()")
    shot(browser, "report-390-symptoms")
    # Issue 40: no table scrolls sideways inside its box, and the charts' labels are 16 px at
    # least as drawn (they were 8.3 px on a phone).
    inside = browser.execute_script(
        "return [...document.querySelectorAll('.report .table-wrap')].filter(w => w.scrollWidth > w.clientWidth + 1).map(w => w.getAttribute('aria-label'))")
    assert inside == [], f"tables scrolling sideways at 390 px: {inside}"
    labels = browser.execute_script("return [...document.querySelectorAll('svg.report-chart text')].map(t => t.getBoundingClientRect().height)")
    assert labels and min(labels) >= 16, f"chart labels as drawn at 390 px: {min(labels):.1f} px"
    doses = browser.execute_script("return [...document.querySelectorAll('.report td[data-label=Dose]')].map(td => td.textContent)")
    assert "400 mg" in doses, doses   # each cell is shown under its column's heading
    browser.set_window_size(1280, 900)
    browser.get(web.base + f"/report?from={FROM}&to={TO}")

    for paper, name in ((A4, "report-a4"), (LETTER, "report-letter")):
        path, text, pages = pdf(browser, paper, name)
        # No menu, no controls; the sections one after another (issue 40: a section a page made
        # 6 pages of a week's little data): symptoms, medications, measurements, activity,
        # factors, plan (the period's notes are today's: none here).
        for gone in ("Overview", "Reminders", "Settings", "Skip to content", "Show this period", "Quick choices"):
            assert gone not in text, (name, gone)
        assert 2 <= pages <= 5, (name, pages)
        assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text, name
        assert text.count(f"Health summary {SPOKEN}") == pages, name
        flat = " ".join(text.split())
        assert "with food Dr <Weiss>" in flat and "13 14 12 1 1" in flat, name
        assert "These figures are from the person's own records" in flat
        assert (SCREENSHOTS / f"{name}-1.png").exists() or (SCREENSHOTS / f"{name}-01.png").exists()

    # A year: the default of the quick choice; the notes of today are in it, questions first.
    browser.get(web.base + "/report?days=365&questions=questions")
    assert wait_until(lambda: browser.find_elements("id", "r-notes"), 10)
    current = browser.find_element("css selector", ".report-controls a[aria-current=page]")
    assert current.text == "Last year" and "questions=questions" in current.get_attribute("href")
    no_axe_violations(browser, "/report?days=365")
    _, text, pages = pdf(browser, A4, "report-year-a4")
    assert "Is 400 mg right?" in text and pages >= 2   # the sections one after another (issue 40)
