"""Issue 40, "Done when": the two journeys, as a person makes them in Chromium, at 1280×900 with a
mouse and keyboard and at 390×844 with touch (CDP Input.dispatchTouchEvent; the three fast taps on
"Taken" 150 ms apart, as a tremor gives them). Every click or tap and every key is counted and
printed ("journey 70 at 390x844: 41 taps, 23 keys") and written to test-artifacts/web/journeys.txt.
Each journey ends by reading back through the CLI that what the person meant is what is stored.

- The 70-year-old: "headache, moderate, this morning"; a blood pressure seen back on /measure; a
  medication typed with a typo, corrected on its Change page, taken twice a day (a reminder at
  08:00 and 20:00); "Taken" tapped three times fast (one dose); the headache deleted and brought
  back with Undo; yesterday opened on the calendar; the 30-day summary printed with their name.
- The 10-year-old: a symptom; a goal set and ticked; today's steps seen.

Presses go through Chromium's input (CDP mouse or touch events at the element's centre, after
scrolling it into view as the person would): what is under the finger is what gets it."""
from __future__ import annotations

import base64
import json
import re
import subprocess
import time
from datetime import date, datetime, timedelta

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import meant_day, wait_until
from test_web import SCREENSHOTS, browser, flash, shot, web  # noqa: F401 (fixtures)

DESKTOP, PHONE = (1280, 900), (390, 844)
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x900", "390x844"])
TREMOR_S = 0.15  # between the fast taps: 120–200 ms
STRAY_MS = 750   # app.js ignores a touch in a page's first 700 ms; the person waits that long


class Person:
    """Drives the browser as one person does, counting their clicks (taps) and keys."""

    def __init__(self, browser, web, size: tuple[int, int], who: str):
        self.b, self.web, self.size, self.who = browser, web, size, who
        self.touch = size == PHONE
        self.presses = self.keys = 0
        self.shots = 0
        browser.set_window_size(*size)
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": self.touch, "maxTouchPoints": 5 if self.touch else 1})

    @property
    def tag(self) -> str:
        return f"{self.size[0]}x{self.size[1]}"

    def counts(self) -> str:
        word = "taps" if self.touch else "clicks"
        return f"journey {self.who} at {self.tag}: {self.presses} {word}, {self.keys} keys"

    def shot(self, step: str):
        self.shots += 1
        shot(self.b, f"journey{self.who}-{self.tag}-{self.shots:02d}-{step}")

    # Pages

    def sign_in(self):
        """The link the applications menu opens (`healthspool ui`): one click or tap."""
        self.b.get(self.web.link())
        self.presses += 1
        self.settle()

    def settle(self):
        """The page is there, and (on a phone) past the moment in which app.js drops a stray tap."""
        def ready():
            try:
                return self.b.execute_script("""
                    const n = performance.getEntriesByType('navigation')[0];
                    return document.readyState === 'complete' && performance.now() >= n.domContentLoadedEventEnd + arguments[0];""",
                    STRAY_MS if self.touch else 0)
            except WebDriverException:
                return False
        assert wait_until(ready, 15), self.b.current_url

    def find(self, by: str, what: str, timeout: float = 10):
        def visible():
            try:
                return next((e for e in self.b.find_elements(by, what) if e.is_displayed()), None)
            except WebDriverException:
                return None
        found = wait_until(visible, timeout)
        assert found, f"{what} not on {self.b.current_url}"
        return found

    def button(self, label: str):
        """A button or link by its accessible name (aria-label, else its text), whole or its start."""
        return self.find(By.XPATH, f"//main//*[self::button or self::a][starts-with(@aria-label, '{label}') or "
                                   f"(not(@aria-label) and starts-with(normalize-space(.), '{label}'))]")

    # Hands

    def centre(self, el) -> tuple[float, float]:
        self.b.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", el)
        r = self.b.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", el)
        return r[0], r[1]

    def hit(self, x: float, y: float):
        """One click or tap at (x, y) in the window, through Chromium's input."""
        if self.touch:
            self.b.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            self.b.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        else:
            self.b.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
            for kind in ("mousePressed", "mouseReleased"):
                self.b.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
        self.presses += 1

    def press(self, el, leaves: bool = False):
        """Clicks or taps an element; with `leaves`, waits for the page it opens."""
        old = self.b.find_element(By.TAG_NAME, "html")
        x, y = self.centre(el)
        under = self.b.execute_script("const e = document.elementFromPoint(arguments[0], arguments[1]); return e && (arguments[2].contains(e) || e.control === arguments[2]) ? null : (e ? e.outerHTML.slice(0, 120) : 'nothing');", x, y, el)
        assert under is None, f"the press aimed at {el.tag_name} {el.text!r} lands on {under} ({self.b.current_url})"
        # The click the press makes, awaited when the page stays: a touch becomes a click a
        # moment after the finger is up, and keys typed before it are lost.
        self.b.execute_script("window.pressed = null; document.addEventListener('click', e => { window.pressed = e.target; }, {once: true, capture: true});")
        self.hit(x, y)
        if not leaves:
            assert wait_until(lambda: self.b.execute_script("return window.pressed !== null"), 5), f"the press on {el.tag_name} made no click"
        else:
            def gone():
                try:
                    old.tag_name
                    return False
                except WebDriverException:
                    return True
            if not wait_until(gone, 15):
                self.shot("stuck")
                info = self.b.execute_script("const f = arguments[0].form; return [f && f.checkValidity(), [...(f ? f.elements : [])].map(e => e.name + '=' + e.value + ':' + e.validationMessage).join(' | '), document.activeElement.outerHTML.slice(0, 100)]", el)
                raise AssertionError(f"still on {self.b.current_url}: {info}")
            self.settle()

    def go(self, menu: str):
        """Opens a page from the menu at the top (on a phone, Menu first)."""
        if not self.b.find_element(By.CSS_SELECTOR, "nav.nav-wide").is_displayed():
            self.press(self.find(By.CSS_SELECTOR, "details.nav-narrow > summary"))
        self.press(self.find(By.XPATH, f"//nav//a[normalize-space(.)='{menu}']"), leaves=True)

    def type(self, el, text: str):
        """Taps or clicks into a field and types, a key a character."""
        self.press(el)
        assert wait_until(lambda: self.b.switch_to.active_element == el, 5), "the field did not take the focus"
        assert el.get_attribute("value") == "", f"the field holds {el.get_attribute('value')!r} already"
        self.keys_into(el, text)
        assert el.get_attribute("value") == text, el.get_attribute("value")

    def fix(self, el, wrong: str, right: str):
        """Into a field holding a typo: to the end (End, or on a phone the tap at its end), back
        over the wrong letters, the right ones typed."""
        self.press(el)
        assert el.get_attribute("value") == wrong, el.get_attribute("value")
        if self.touch:
            self.b.execute_script("arguments[0].setSelectionRange(arguments[0].value.length, arguments[0].value.length)", el)
        else:
            el.send_keys(Keys.END)
            self.keys += 1
        common = next((i for i, (a, b) in enumerate(zip(wrong, right)) if a != b), min(len(wrong), len(right)))
        back = len(wrong) - common
        self.keys_into(el, "\b" * back + right[common:])
        assert el.get_attribute("value") == right, el.get_attribute("value")

    def keys_into(self, el, text: str):
        """Keys into the focused field, "\b" a backspace: from the keyboard (WebDriver) with a
        mouse; on a phone as its on-screen keyboard gives them (CDP Input.insertText, a key a
        character: key events sent by WebDriver into a touch-emulated page after another field
        had the focus reached the field but inserted nothing)."""
        if not self.touch:
            el.send_keys(text.replace("\b", Keys.BACKSPACE))
        else:
            for c in text:
                if c == "\b":
                    for kind in ("rawKeyDown", "keyUp"):
                        self.b.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": kind, "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8})
                else:
                    self.b.execute_cdp_cmd("Input.insertText", {"text": c})
        self.keys += len(text)

    def choose(self, select, text: str):
        """A drop-down: one press opens it, one chooses (headless Chromium draws no pop-up to press,
        so the choice is made through WebDriver; both count)."""
        self.b.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
        Select(select).select_by_visible_text(text)
        self.presses += 2

    def field(self, label: str):
        """An input by its label's text."""
        return self.find(By.XPATH, f"//main//label[starts-with(normalize-space(.), '{label}')]/following-sibling::*[self::input or self::select or self::textarea][1]"
                                   f" | //main//label[starts-with(normalize-space(.), '{label}')]/following-sibling::*[@class='hint' or @class='error']/following-sibling::*[self::input or self::select or self::textarea][1]")

    def radio(self, label: str):
        return self.find(By.XPATH, f"//main//label[normalize-space(.)='{label}']")

    def text(self) -> str:
        return self.b.find_element(By.TAG_NAME, "main").text


def record(person: Person):
    line = person.counts()
    print(line)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    out = SCREENSHOTS / "journeys.txt"
    lines = out.read_text().splitlines() if out.exists() else []
    key = line.split(":")[0]
    lines = sorted([ln for ln in lines if not ln.startswith(key + ":")] + [line])
    out.write_text("\n".join(lines) + "\n")


def local(s: str) -> datetime:
    return datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone()


def cli(hs, *args):
    return json.loads(hs.run(*args, "--json").stdout)


# MARK: the 70-year-old

NAME = "Margaret Brown"


@SIZES
def test_the_70_year_old_logs_measures_takes_corrects_undoes_looks_back_and_prints(web, browser, size):
    hs = web.hs
    p = Person(browser, web, size, "70")
    p.sign_in()
    p.shot("today")

    # "Headache, moderate, this morning": the symptom, the part of the day, how bad.
    p.press(p.find(By.XPATH, "//ul[@id='symptom-choices']//a[normalize-space(.)='Headache']"), leaves=True)
    p.press(p.find(By.XPATH, "//details[@id='symptom-details']/summary"))
    p.choose(p.field("Part of the day"), "Morning")
    p.shot("headache-morning")
    p.press(p.find(By.CSS_SELECTOR, "button[name=severity][value=moderate]"), leaves=True)
    assert "Headache" in flash(browser, "ok", "Headache"), p.text()
    p.shot("headache-saved")

    # A blood pressure, seen back on /measure.
    p.go("Measurements")
    p.type(p.field("Top number"), "135")
    p.type(p.field("Bottom number"), "85")
    p.press(p.button("Save blood pressure"), leaves=True)
    assert flash(browser, "ok"), p.text()[:600]
    assert wait_until(lambda: "135/85" in p.find(By.ID, "latest").text, 10), p.find(By.ID, "latest").text
    p.b.execute_script("document.getElementById('latest').scrollIntoView({block: 'center'})")
    p.shot("bp-seen")

    # A medication, with a typo, corrected on its Change page.
    p.go("Medications")
    p.type(p.field("Name"), "Metfromin")
    p.type(p.field("Dose"), "500 mg")
    p.press(p.button("Add medication"), leaves=True)
    p.press(p.button("Change Metfromin"), leaves=True)
    p.fix(p.field("Name"), "Metfromin", "Metformin")
    p.shot("typo-corrected")
    p.press(p.button("Save changes"), leaves=True)
    assert wait_until(lambda: "Metformin" in p.find(By.ID, "medications").text, 10)

    # Twice a day: a reminder at 08:00 and 20:00 for it, every day.
    p.go("Reminders")
    p.type(p.field("What to remember"), "Metformin")
    p.fix(p.field("Time"), "08:00", "08:00, 20:00")  # the field offers 08:00: the second time added after it
    p.press(p.radio("Every day"))
    p.choose(p.field("For a medication"), "Metformin")
    p.shot("reminder")
    p.press(p.button("Add reminder"), leaves=True)
    assert flash(browser, "ok"), p.text()[:600]
    # The page came back at the form; the message and its Undo came with it, in sight.
    notice = p.find(By.CSS_SELECTOR, ".notice.ok")
    assert wait_until(lambda: browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight;", notice), 5), \
        browser.execute_script("return arguments[0].getBoundingClientRect().top", notice)

    # "Taken now", three times fast: one dose. (A reminder made today asks for no dose whose time
    # had passed when it was made, so Today may list none yet: the medications page always has
    # the button.)
    p.go("Medications")
    taken = p.find(By.XPATH, "//button[starts-with(@aria-label, 'Taken: Metformin')]")
    x, y = p.centre(taken)
    for _ in range(3):
        p.hit(x, y)
        time.sleep(TREMOR_S)
    assert wait_until(lambda: "Metformin" in p.find(By.XPATH, "//h2[normalize-space(.)='Taken today']/..").text, 10), p.text()[:600]
    p.settle()
    p.shot("taken")

    # The headache deleted on the journal, and brought back with Undo. Before 05:00 the morning
    # meant is yesterday's (issue 40): its entry is on yesterday's page of Days.
    morning = ["--date", meant_day("morning").isoformat()]
    if meant_day("morning") == date.today():
        p.go("Journal")
    else:
        p.go("Days")
        p.press(p.find(By.ID, "prev-day"), leaves=True)
    p.press(p.button("Delete: Headache"), leaves=True)
    assert cli(hs, "symptom", "list", *morning) == [], "the delete did not delete"
    p.shot("deleted")
    p.press(p.find(By.ID, "undo"), leaves=True)
    assert "Undone: Headache" in flash(browser, "ok", "Undone"), p.text()[:300]
    assert [s["symptom"].lower() for s in cli(hs, "symptom", "list", *morning)] == ["headache"], "Undo did not bring it back"
    p.shot("undone")

    # Yesterday on the calendar.
    p.go("Days")
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    if not browser.find_elements(By.CSS_SELECTOR, f".cal a[data-date='{yesterday}']"):
        p.press(p.find(By.ID, "prev-month"), leaves=True)  # today is the 1st: yesterday is last month
    p.press(p.find(By.CSS_SELECTOR, f".cal a[data-date='{yesterday}']"), leaves=True)
    assert yesterday in browser.current_url, browser.current_url
    assert date.fromisoformat(yesterday).strftime("%A %-d %B %Y") in p.text(), p.text()[:200]
    p.shot("yesterday")

    # The last 30 days printed, with their name.
    p.go("Summary")
    p.type(p.field("Your name on the summary"), NAME)
    p.press(p.button("Save name"), leaves=True)
    p.press(p.button("Last 30 days"), leaves=True)
    p.shot("summary")
    # The person presses Print (counted); headless Chromium has no print dialog, so the page is
    # printed as Chromium prints it through DevTools.
    p.find(By.ID, "report-print")
    p.presses += 1
    pdf = SCREENSHOTS / f"journey70-{p.tag}-summary.pdf"
    pdf.write_bytes(base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69})["data"]))
    printed = " ".join(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split())
    for old in SCREENSHOTS.glob(f"journey70-{p.tag}-summary-page*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), str(SCREENSHOTS / f"journey70-{p.tag}-summary-page")], check=True)
    record(p)
    assert NAME in printed, printed[:400]
    assert "Headache" in printed and "morning 1" in printed, printed[:600]  # the part of the day as meant
    start = (date.today() - timedelta(days=29)).isoformat()
    assert start in printed or any(date.fromisoformat(start).strftime(f) in printed for f in ("%-d %B %Y", "%-d %b %Y")), printed[:400]

    # What they meant is what is stored.
    symptoms = cli(hs, "symptom", "list", *morning)
    assert len(symptoms) == 1, symptoms
    s = symptoms[0]
    assert (s["symptom"].lower(), s["severity"]) == ("headache", "moderate"), s
    at = local(s["at"])
    now = datetime.now().astimezone()
    assert (s["timeOfDay"], s["partMeant"]) == ("morning", True), s
    assert 5 <= at.hour < 12 and at <= now and now - at < timedelta(hours=24), f"stored at {at}, not this morning: {s}"
    readings = cli(hs, "measure", "list")
    assert [(r["kind"], r["value"], r["diastolic"]) for d in readings["days"] for r in d["readings"]] == [("bloodPressure", 135, 85)], readings
    meds = cli(hs, "med", "list")
    assert [(m["name"], m["dose"]) for m in meds] == [("Metformin", "500 mg")], meds
    reminders = cli(hs, "remind", "list")
    assert [(r["times"], r["rrule"], r["medicationId"]) for r in reminders] == [(["08:00", "20:00"], "FREQ=DAILY", meds[0]["id"])], reminders
    doses = cli(hs, "med", "doses")
    assert [d["medicationId"] for d in doses] == [meds[0]["id"]], doses


# MARK: the 10-year-old

def steps_today(hs, total: int):
    """A small native file of today's steps, dropped into the spool as the phone would."""
    now = datetime.now().astimezone()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    start = midnight + (now - midnight) / 2
    rows = [{"type": "stepCount", "value": v, "unit": "count", "source": "test",
             "startDate": (start + timedelta(minutes=i)).isoformat(timespec="seconds"),
             "endDate": (start + timedelta(minutes=i + 1)).isoformat(timespec="seconds")} for i, v in enumerate([1200, 1300, 834])]
    assert sum(r["value"] for r in rows) == total
    hs.drop("steps.json", json.dumps(rows))


@SIZES
def test_the_10_year_old_logs_a_symptom_sets_and_ticks_a_goal_and_sees_todays_steps(web, browser, size):
    hs = web.hs
    steps_today(hs, 3334)
    p = Person(browser, web, size, "10")
    p.sign_in()

    # A symptom: what, then how bad (two presses).
    choice = p.find(By.CSS_SELECTOR, "#symptom-choices a")
    name = choice.text
    p.press(choice, leaves=True)
    p.press(p.find(By.CSS_SELECTOR, "button[name=severity][value=mild]"), leaves=True)
    assert name in flash(browser, "ok", name)
    p.shot("symptom")

    # A goal, every day, ticked off where a goal can be ticked.
    p.go("Goals")
    p.type(p.field("Your goal"), "Read a book")
    p.press(p.radio("Every day"))
    p.press(p.button("Add goal"), leaves=True)
    assert flash(browser, "ok"), p.text()[:600]
    p.shot("goal-set")
    if not browser.find_elements(By.XPATH, "//main//button[@aria-label='Mark done: Read a book']"):
        p.press(p.button("Check off today"), leaves=True)
    p.press(p.button("Mark done: Read a book"), leaves=True)
    # Ticked on the goals page (its list says "Done today") or on the journal's checklist.
    assert wait_until(lambda: browser.find_elements(By.XPATH, "//*[@data-done='true'][.//strong[normalize-space(.)='Read a book']]")
                      or re.search(r"Read a book\s+Every day\s+Done today", p.text()), 10), p.text()
    p.shot("goal-ticked")

    # Today's steps.
    p.go("Today")
    figures = p.find(By.ID, "home-figures")
    p.b.execute_script("arguments[0].scrollIntoView({block: 'center'})", figures)
    seen = wait_until(lambda: re.search(r"Steps\s*([\d,. ]+)", p.find(By.ID, "home-figures").text), 30)
    p.shot("steps")
    record(p)
    assert seen and re.sub(r"\D", "", seen.group(1)) == "3334", p.find(By.ID, "home-figures").text

    # What they meant is what is stored.
    symptoms = cli(hs, "symptom", "list")
    assert [(s["symptom"], s["severity"]) for s in symptoms] == [(name, "mild")], symptoms
    goals = cli(hs, "goal", "list")
    assert len(goals) == 1 and goals[0]["name"] == "Read a book", goals
    assert (goals[0]["rrule"], goals[0]["done"], goals[0]["doneBy"]) == ("FREQ=DAILY", True, "hand"), goals
