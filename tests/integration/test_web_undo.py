"""Issue 28, item 3 and "nothing can be corrected in the browser": every entry can be changed
and deleted in the browser through the CLI's use cases, every save and delete offers Undo (a
plain form in the confirmation), a deleted entry comes back whole under the same id (the
gateway gets the tombstone, then the entry again), and a form sent twice 40 ms apart changes
things once."""
from __future__ import annotations

import html
import json
import re
import urllib.parse

from conftest import wait_until
from test_web import Web, browser, flash, web, shot, no_axe_violations  # noqa: F401 (fixtures)
from test_web_measure import FORM, form_fields, get, post_twice

UNDO = re.compile(r'name="undo" value="([0-9a-f]{32})"')


def post(web: Web, cookie: str, path: str, fields: dict[str, str]) -> tuple[int, str]:
    """Posts a form as the browser does: (status, Location)."""
    body = urllib.parse.urlencode(fields)
    r, _ = web.request("POST", path, {"Cookie": cookie, "Content-Type": FORM, "Origin": web.base}, body)
    return r.status, web.spelled(cookie, r.getheader("Location")) or ""


def follow(web: Web, cookie: str, location: str) -> str:
    """The page a redirect lands on."""
    return get(web, cookie, location)


def undo(web: Web, cookie: str, page: str) -> tuple[int, str]:
    """Taps Undo in the confirmation `page` shows."""
    fields = form_fields(page, "/undo")
    assert UNDO.search(page), "the confirmation offers no Undo"
    return post(web, cookie, "/undo", fields)


def symptoms(hs, date: str | None = None) -> list[dict]:
    args = ["symptom", "list", "--json"] + (["--date", date] if date else [])
    return json.loads(hs.run(*args).stdout)


def test_every_post_form_on_every_page_carries_a_one_time_token(web):
    hs = web.hs
    hs.run("med", "add", "Ibuprofen", "--dose", "400 mg")
    hs.run("med", "take", "Ibuprofen")
    hs.run("remind", "add", "Take ibuprofen", "--times", "08:00", "--med", "Ibuprofen")
    e = json.loads(hs.run("symptom", "log", "headache", "--severity", "mild", "--json").stdout)
    l_ = json.loads(hs.run("lifestyle", "log", "caffeine", "--amount", "2", "--unit", "cups", "--json").stdout)
    hs.run("note", "add", "Ask about the dose", "--category", "cardiology")
    hs.run("measure", "bp", "128/82")
    cookie, _ = web.session()
    note = json.loads(hs.run("note", "list", "--json").stdout)[0]["id"]
    key = re.search(r'data-reading="([^"]+)"', get(web, cookie, "/measure")).group(1)
    pages = ["/", "/journal", "/day", "/meds", "/reminders", "/measure", "/notes", "/settings", "/symptoms/log?symptom=Headache",
             f"/symptoms/{e['id']}/edit", f"/lifestyle/{l_['id']}/edit", f"/notes/{note}/edit", f"/measure/{key}/edit"]
    forms = 0
    for path in pages:
        page = get(web, cookie, path)
        for action, body in re.findall(r'<form method="post" action="([^"]*)"[^>]*>(.*?)</form>', page, re.S):
            forms += 1
            assert re.search(r'name="once" value="[0-9a-f]{32}"', body), f"{path}: the form posting to {action} has no one-time token"
            assert 'name="csrf"' in body, f"{path}: {action} without CSRF"
    assert forms >= 20, forms


def test_a_symptom_changed_or_deleted_twice_40_ms_apart_changes_once_and_undo_brings_it_back_whole(web):
    hs = web.hs
    e = json.loads(hs.run("symptom", "log", "headache", "--severity", "mild", "--relieved-by", "rest", "--note", "after the walk",
                          "--json").stdout)
    cookie, _ = web.session()
    page = get(web, cookie, f"/symptoms/{e['id']}/edit?back=/journal")
    fields = form_fields(page, "/symptoms/edit")
    assert 'value="mild" checked' in page and "after the walk" in page
    for name in ("date", "time", "category", "relieved", "aggravated"):
        m = re.search(rf'name="{name}" type="[a-z]+" value="([^"]*)"', page)
        fields[name] = html.unescape(m.group(1)) if m else ""
    fields.update(severity="severe", note="after the walk", when="")
    body = urllib.parse.urlencode(fields)
    first, second = post_twice(web, cookie, "/symptoms/edit", body)
    assert first[0] == 303 and "ok=Changed" in first[1] and "undo=" in first[1], first
    assert second == first   # the same answer: changed once
    changed = symptoms(hs)
    assert [(c["id"], c["severity"], c["version"], c["note"], c["relievedBy"]) for c in changed] == [
        (e["id"], "severe", 2, "after the walk", ["rest"])], changed

    # Delete, twice 40 ms apart: one tombstone (version 3), not two.
    fields = form_fields(get(web, cookie, "/journal"), "/symptoms/delete", e["id"])
    first, second = post_twice(web, cookie, "/symptoms/delete", urllib.parse.urlencode(fields))
    assert first[0] == 303 and "ok=Deleted" in first[1] and second == first, (first, second)
    assert symptoms(hs) == []
    landed = follow(web, cookie, first[1])
    assert "Deleted: headache" in landed and 'id="undo"' in landed

    # Undo, tapped twice: the entry is back once, whole, under its id, as version 4.
    fields = form_fields(landed, "/undo")
    first, second = post_twice(web, cookie, "/undo", urllib.parse.urlencode(fields))
    assert first[0] == 303 and "ok=Undone" in first[1] and second == first, (first, second)
    back = symptoms(hs)
    assert [(b["id"], b["severity"], b["version"], b["note"], b["relievedBy"]) for b in back] == [
        (e["id"], "severe", 4, "after the walk", ["rest"])], back
    # An offer is used once: its token again (a new form) says there is nothing to undo.
    again = form_fields(landed, "/undo")
    fresh = form_fields(get(web, cookie, "/journal"), "/symptoms/delete")   # for a token not yet used
    status, location = post(web, cookie, "/undo", {**again, "once": fresh["once"]})
    assert status == 303 and "nothing to undo" in urllib.parse.unquote(location), location
    assert len(symptoms(hs)) == 1


def test_the_gateway_sees_the_tombstone_and_then_the_entry_again(web, gateway):
    hs = web.hs
    e = json.loads(hs.run("symptom", "log", "dizziness", "--severity", "moderate", "--json").stdout)
    cookie, _ = web.session()
    fields = form_fields(get(web, cookie, "/journal"), "/symptoms/delete", e["id"])
    status, location = post(web, cookie, "/symptoms/delete", fields)
    assert status == 303 and "undo=" in location
    landed = follow(web, cookie, location)
    # The running daemon sends the tombstone; then Undo puts the entry back and it is sent again.
    assert wait_until(lambda: any(s["id"] == e["id"] and s.get("deleted") for s in gateway.samples), 30), hs.read_log()
    status, location = undo(web, cookie, landed)
    assert status == 303 and "Undone" in urllib.parse.unquote(location)
    assert wait_until(lambda: [s for s in gateway.samples if s["id"] == e["id"] and s["version"] == 3], 30), hs.read_log()
    sent = [(s["version"], s.get("deleted", False), s["metadata"]["severity"]) for s in gateway.samples if s["id"] == e["id"]]
    assert sent == [(1, False, "moderate"), (2, True, "moderate"), (3, False, "moderate")], sent
    assert [s["id"] for s in symptoms(hs)] == [e["id"]]


def test_doses_lifestyle_notes_measurements_and_reminders_are_corrected_and_undone_like_the_cli_sees(web):
    hs = web.hs
    hs.run("med", "add", "Ibuprofen")
    cookie, _ = web.session()

    # A dose: Taken (Undo removes it), then its time changed, then deleted and put back.
    fields = form_fields(get(web, cookie, "/meds"), "/meds/take")
    status, location = post(web, cookie, "/meds/take", fields)
    assert status == 303 and "undo=" in location
    undo(web, cookie, follow(web, cookie, location))
    assert json.loads(hs.run("med", "doses", "--json").stdout) == []
    post(web, cookie, "/meds/take", form_fields(get(web, cookie, "/meds"), "/meds/take"))
    dose = json.loads(hs.run("med", "doses", "--json").stdout)[0]
    page = get(web, cookie, "/meds")
    fields = form_fields(page, "/doses/edit", f'value="{dose["id"]}"')
    status, location = post(web, cookie, "/doses/edit", {**fields, "time": "07:05"})
    assert status == 303 and "Changed" in urllib.parse.unquote(location), location
    assert "T07:05" in json.loads(hs.run("med", "doses", "--json").stdout)[0]["takenAt"]
    fields = form_fields(get(web, cookie, "/meds"), "/doses/delete", f'value="{dose["id"]}"')
    status, location = post(web, cookie, "/doses/delete", fields)
    assert json.loads(hs.run("med", "doses", "--json").stdout) == []
    undo(web, cookie, follow(web, cookie, location))
    again = json.loads(hs.run("med", "doses", "--json").stdout)
    assert [(d["id"], d["takenAt"][11:16]) for d in again] == [(dose["id"], "07:05")], again

    # A lifestyle entry on the day view: changed, deleted, put back (same id).
    l_ = json.loads(hs.run("lifestyle", "log", "caffeine", "--amount", "2", "--unit", "cups", "--json").stdout)
    day = get(web, cookie, "/day")
    assert f'/lifestyle/{l_["id"]}/edit' in day
    page = get(web, cookie, f"/lifestyle/{l_['id']}/edit?back=/day")
    fields = form_fields(page, "/lifestyle/edit")
    fields.update(factor="caffeine", amount="3", unit="cups", level="", note="strong")
    status, location = post(web, cookie, "/lifestyle/edit", fields)
    assert status == 303 and "Changed" in urllib.parse.unquote(location), location
    listed = json.loads(hs.run("lifestyle", "list", "--json").stdout)
    assert [(x["id"], x["amount"], x.get("note")) for x in listed] == [(l_["id"], 3, "strong")], listed
    status, location = post(web, cookie, "/lifestyle/delete", form_fields(get(web, cookie, "/day"), "/lifestyle/delete", l_["id"]))
    assert json.loads(hs.run("lifestyle", "list", "--json").stdout) == []
    undo(web, cookie, follow(web, cookie, location))
    assert [x["id"] for x in json.loads(hs.run("lifestyle", "list", "--json").stdout)] == [l_["id"]]
    # Logged on the lifestyle page: Undo there takes it back; its week list has Change and Delete.
    status, location = post(web, cookie, "/lifestyle/log", {**form_fields(get(web, cookie, "/lifestyle"), "/lifestyle/log"),
                                                            "factor": "water", "amount": "500", "unit": "ml"})
    assert status == 303 and "undo=" in location, location
    assert [x["factor"] for x in json.loads(hs.run("lifestyle", "list", "--json").stdout)] == ["caffeine", "water"]
    undo(web, cookie, follow(web, cookie, location))
    assert [x["factor"] for x in json.loads(hs.run("lifestyle", "list", "--json").stdout)] == ["caffeine"]
    assert f'/lifestyle/{l_["id"]}/edit' in get(web, cookie, "/lifestyle")
    # And the CLI's own lifestyle edit shows on the day view.
    hs.run("lifestyle", "edit", l_["id"][:8], "--amount", "4")
    day = get(web, cookie, "/day")
    assert "caffeine – 4 cups" in day, re.findall(r"<ul class=\"entries\" id=\"lifestyle\">.*?</ul>", day, re.S)

    # A note: changed (the CLI sees it), deleted, put back.
    hs.run("note", "add", "Ask about the dose", "--category", "cardiology")
    notes = get(web, cookie, "/notes")
    note_id = re.search(r'data-note="(\d+)"', notes).group(1)
    fields = form_fields(get(web, cookie, f"/notes/{note_id}/edit"), "/notes/edit")
    status, location = post(web, cookie, "/notes/edit", {**fields, "category": "cardiology", "text": "Ask about the evening dose"})
    assert "Ask about the evening dose" in hs.run("note", "list").stdout
    status, location = post(web, cookie, "/notes/delete", form_fields(get(web, cookie, "/notes"), "/notes/delete", f'value="{note_id}"'))
    assert "evening dose" not in hs.run("note", "list").stdout
    undo(web, cookie, follow(web, cookie, location))
    assert "Ask about the evening dose" in hs.run("note", "list").stdout

    # A measurement: its numbers changed, then deleted and put back; the CLI lists what the page shows.
    hs.run("measure", "bp", "182/82")
    key = re.search(r'data-reading="([^"]+)"', get(web, cookie, "/measure")).group(1)
    fields = form_fields(get(web, cookie, f"/measure/{key}/edit"), "/measure/edit")
    status, location = post(web, cookie, "/measure/edit", {**fields, "systolic": "128", "diastolic": "82"})
    assert status == 303 and "128/82" in urllib.parse.unquote(location), location
    assert [r["text"] for r in json.loads(hs.run("measure", "list", "--json").stdout)["days"][0]["readings"]] == ["128/82 mmHg"]
    landed = follow(web, cookie, location)
    undo(web, cookie, landed)   # back to 182/82
    assert [r["text"] for r in json.loads(hs.run("measure", "list", "--json").stdout)["days"][0]["readings"]] == ["182/82 mmHg"]
    key = re.search(r'data-reading="([^"]+)"', get(web, cookie, "/measure")).group(1)
    status, location = post(web, cookie, "/measure/delete", form_fields(get(web, cookie, "/measure"), "/measure/delete", key))
    assert json.loads(hs.run("measure", "list", "--json").stdout)["days"] == []
    assert "182/82" not in hs.run("day").stdout
    undo(web, cookie, follow(web, cookie, location))
    assert "Blood pressure 182/82 mmHg" in hs.run("day").stdout

    # A reminder removed in the browser comes back under its id.
    hs.run("remind", "add", "Take ibuprofen", "--times", "08:00", "--med", "Ibuprofen")
    before = json.loads(hs.run("remind", "list", "--json").stdout)
    status, location = post(web, cookie, "/reminders/remove", form_fields(get(web, cookie, "/reminders"), "/reminders/remove"))
    assert json.loads(hs.run("remind", "list", "--json").stdout) == []
    status, location = undo(web, cookie, follow(web, cookie, location))
    assert "Take ibuprofen is back" in urllib.parse.unquote_plus(location), location
    after = json.loads(hs.run("remind", "list", "--json").stdout)
    assert [(r["id"], r["name"]) for r in after] == [(r["id"], r["name"]) for r in before], (before, after)


def test_an_undo_offer_belongs_to_its_session(web):
    hs = web.hs
    hs.run("symptom", "log", "nausea", "--severity", "mild")
    mine, _ = web.session()
    other, csrf = web.session()
    status, location = post(web, mine, "/symptoms/delete", form_fields(get(web, mine, "/journal"), "/symptoms/delete"))
    token = re.search(r"undo=([0-9a-f]{32})", location).group(1)
    status, location = post(web, other, "/undo", {"csrf": csrf, "undo": token})
    assert status == 303 and "error=" in location, location
    assert symptoms(hs) == []


# MARK: the browser, as a 70-year-old with a tremor

def test_journey_log_correct_delete_undo_double_tap_and_a_blood_pressure_seen_everywhere(web, browser):
    """Log a symptom, correct its severity, delete it and undo, tap Taken twice quickly (one
    dose), record a blood pressure and see it on /measure, /day and in `healthspool day`. Every
    click and key press is counted; the totals are asserted at the end."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    hs = web.hs
    hs.run("med", "add", "Ibuprofen", "--dose", "400 mg")
    counts = {"clicks": 0, "keys": 0}

    def click(el, times: int = 1):
        counts["clicks"] += times
        if times == 2:
            ActionChains(browser).double_click(el).perform()
        else:
            el.click()

    def keys(el, text: str, presses: int | None = None):
        counts["keys"] += len(text) if presses is None else presses
        el.send_keys(text)

    browser.get(web.link())   # opened from the application menu: no click counted here

    # 1. Log a symptom: Headache, then Moderate. 2 clicks.
    click(browser.find_element(By.LINK_TEXT, "Headache"))
    click(browser.find_element(By.CSS_SELECTOR, "button.severity[value=moderate]"))
    assert "Saved: Headache, moderate" in flash(browser, "ok", "Saved")
    assert browser.find_element(By.ID, "undo").is_displayed()
    [entry] = json.loads(hs.run("symptom", "list", "--json").stdout)
    assert counts == {"clicks": 2, "keys": 0}

    # 2. Correct its severity: Change, Severe, Save changes. 3 clicks.
    click(browser.find_element(By.CSS_SELECTOR, "#symptom-entries a[aria-label^='Change: Headache']"))
    click(browser.find_element(By.CSS_SELECTOR, "label[for=sev-severe]"))
    click(browser.find_element(By.ID, "save-changes"))
    assert "Changed: Headache, severe" in flash(browser, "ok", "Changed")
    assert "Headache: severe" in browser.find_element(By.ID, "symptom-entries").text
    [changed] = json.loads(hs.run("symptom", "list", "--json").stdout)
    assert (changed["id"], changed["severity"], changed["version"]) == (entry["id"], "severe", 2)
    assert counts == {"clicks": 5, "keys": 0}

    # 3. Delete it, then Undo: no "are you sure", and it comes back whole. 2 clicks.
    click(browser.find_element(By.CSS_SELECTOR, "#symptom-entries button[aria-label^='Delete: Headache']"))
    assert "Deleted: Headache" in flash(browser, "ok", "Deleted")
    assert json.loads(hs.run("symptom", "list", "--json").stdout) == []
    for w, h in [(1280, 900), (390, 844)]:
        browser.set_window_size(w, h)
        no_axe_violations(browser, f"/journal with Undo at {w}")
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"undo-journal-deleted-{w}x{h}")
        # Big, and on the first screen without scrolling.
        box = browser.execute_script("const r = document.getElementById('undo').getBoundingClientRect(); return [r.top, r.bottom, r.height, innerHeight]")
        assert box[2] >= 48 and box[0] >= 0 and box[1] <= box[3], box
    browser.set_window_size(1280, 1000)
    click(browser.find_element(By.ID, "undo"))
    assert "Undone: Headache, severe, is back" in flash(browser, "ok", "Undone")
    [back] = json.loads(hs.run("symptom", "list", "--json").stdout)
    assert (back["id"], back["severity"], back["symptom"]) == (entry["id"], "severe", "Headache")
    assert counts == {"clicks": 7, "keys": 0}

    # 4. Taken, tapped twice quickly: one dose. 1 click on the menu, 2 on Taken now.
    click(browser.find_element(By.CSS_SELECTOR, ".nav-wide a[href='/meds']"))
    click(browser.find_element(By.CSS_SELECTOR, "button[aria-label='Taken: Ibuprofen']"), times=2)
    assert "Logged: Ibuprofen taken" in flash(browser, "ok", "Logged")
    assert len(json.loads(hs.run("med", "doses", "--json").stdout)) == 1
    assert len(browser.find_elements(By.CSS_SELECTOR, "#doses li")) == 1
    assert counts == {"clicks": 10, "keys": 0}

    # 5. A blood pressure: the menu, the top number (3 keys), Tab, the bottom number (2 keys), Save.
    click(browser.find_element(By.CSS_SELECTOR, ".nav-wide a[href='/measure']"))
    top = browser.find_element(By.ID, "f-systolic")
    click(top)
    keys(top, "128")
    keys(top, Keys.TAB, presses=1)
    keys(browser.switch_to.active_element, "82")
    click(browser.find_element(By.XPATH, "//button[text()='Save blood pressure']"))
    assert "Saved" in flash(browser, "ok", "Saved")
    assert "128/82 mmHg" in browser.find_element(By.ID, "latest-bloodPressure").text
    assert "Blood pressure 128/82 mmHg" in browser.find_element(By.ID, "recent").text
    assert counts == {"clicks": 13, "keys": 6}
    browser.get(web.base + "/day")
    assert "Blood pressure 128/82 mmHg" in browser.find_element(By.ID, "day-measurements").text
    assert "Headache: severe" in browser.find_element(By.ID, "symptoms").text
    assert "Blood pressure 128/82 mmHg" in hs.run("day").stdout

    # The whole journey: 13 clicks and 6 key presses.
    assert counts == {"clicks": 13, "keys": 6}


def test_the_pages_that_correct_entries_are_accessible_large_and_fit_a_phone(web, browser):
    from selenium.webdriver.common.by import By
    hs = web.hs
    hs.run("med", "add", "Ibuprofen", "--dose", "400 mg")
    hs.run("med", "take", "Ibuprofen")
    hs.run("remind", "add", "Take ibuprofen", "--times", "08:00", "--med", "Ibuprofen")
    e = json.loads(hs.run("symptom", "log", "headache", "--severity", "moderate", "--relieved-by", "rest", "--json").stdout)
    l_ = json.loads(hs.run("lifestyle", "log", "caffeine", "--amount", "2", "--unit", "cups", "--json").stdout)
    hs.run("note", "add", "Ask about the evening dose", "--category", "cardiology")
    hs.run("measure", "bp", "128/82")
    hs.run("measure", "glucose", "98", "mg/dL")
    browser.get(web.link())
    note = json.loads(hs.run("note", "list", "--json").stdout)[0]["id"]
    browser.get(web.base + "/measure")
    key = browser.find_element(By.CSS_SELECTOR, "[data-reading]").get_attribute("data-reading")
    pages = [("/journal", "journal"), ("/meds", "meds"), ("/day", "day"), ("/measure", "measure"), ("/notes", "notes"), ("/lifestyle", "lifestyle"),
             ("/reminders", "reminders"), (f"/symptoms/{e['id']}/edit", "symptom-edit"), (f"/lifestyle/{l_['id']}/edit", "lifestyle-edit"),
             (f"/notes/{note}/edit", "note-edit"), (f"/measure/{key}/edit", "measure-edit")]
    for w, h in [(1280, 900), (390, 844)]:
        browser.set_window_size(w, h)
        for path, name in pages:
            browser.get(web.base + path)
            browser.get_log("browser")
            browser.refresh()
            no_axe_violations(browser, f"{path} at {w}")
            problems = browser.execute_script("""
                const small = [...document.querySelectorAll('main *')].filter(e => e.offsetParent !== null &&
                    [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && parseFloat(getComputedStyle(e).fontSize) < 18);
                // Checkboxes and radio buttons are 28 px inside a 48 px row whose label is the target too.
                const tiny = [...document.querySelectorAll('main a, main button, main input:not([type=hidden]):not([type=radio]):not([type=checkbox]), main select')]
                    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height < 48; });
                return [small.map(e => e.tagName + ':' + e.textContent.slice(0, 30)), tiny.map(e => e.outerHTML.slice(0, 90)),
                        document.documentElement.scrollWidth - window.innerWidth];""")
            assert problems[0] == [], f"{path} at {w}: text under 18 px: {problems[0][:5]}"
            assert problems[1] == [], f"{path} at {w}: targets under 48 px: {problems[1][:5]}"
            assert problems[2] <= 0, f"{path} at {w} scrolls sideways by {problems[2]} px"
            csp = [m["message"] for m in browser.get_log("browser") if "Content Security Policy" in m["message"]]
            assert csp == [], f"{path}: {csp}"
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, f"edit-{name}-{w}x{h}")
            part = {"day": "day-journal", "measure": "recent", "notes": "notes", "lifestyle": "lifestyle-list"}.get(name)
            if part:   # the lists with Change and Delete, further down
                browser.execute_script(f"document.getElementById('{part}').scrollIntoView()")
                shot(browser, f"edit-{name}-{w}x{h}-{part}")
    browser.set_window_size(1280, 1000)


def test_a_deleted_note_comes_back_with_its_recording(web):
    import struct
    hs = web.hs
    wav = hs.home / "visit.wav"
    data = b"\0\0" * 8000
    wav.write_bytes(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16)
                    + b"data" + struct.pack("<I", len(data)) + data)
    hs.run("note", "add", "Palpitations; plan: Holter", "--category", "cardiology", "--audio", str(wav))
    [n] = json.loads(hs.run("note", "list", "--json").stdout)
    cookie, _ = web.session()
    r, before = web.request("GET", f"/notes/{n['id']}/audio", {"Cookie": cookie})
    assert r.status == 200
    status, location = post(web, cookie, "/notes/delete", form_fields(get(web, cookie, "/notes"), "/notes/delete", f'value="{n["id"]}"'))
    assert json.loads(hs.run("note", "list", "--json").stdout) == []
    r, _ = web.request("GET", f"/notes/{n['id']}/audio", {"Cookie": cookie})
    assert r.status == 404
    undo(web, cookie, follow(web, cookie, location))
    [back] = json.loads(hs.run("note", "list", "--json").stdout)
    assert (back["id"], back["text"], back["category"]) == (n["id"], n["text"], n["category"]) and back["audio"]
    r, after = web.request("GET", f"/notes/{n['id']}/audio", {"Cookie": cookie})
    assert r.status == 200 and after == before


def test_a_measurement_deleted_with_the_cli_is_gone_from_the_pages_and_the_gateway_gets_its_tombstone(web, gateway):
    hs = web.hs
    hs.run("measure", "hr", "27")   # meant 72
    [reading] = json.loads(hs.run("measure", "list", "--json").stdout)["days"][0]["readings"]
    assert wait_until(lambda: any(s["type"] == "heartRate" for s in gateway.samples), 30), hs.read_log()
    out = hs.run("measure", "delete", reading["id"]).stdout
    assert "deleted Heart rate 27 bpm" in out, out
    cookie, _ = web.session()
    assert "27 bpm" not in get(web, cookie, "/measure") and "27 bpm" not in get(web, cookie, "/day")
    assert wait_until(lambda: any(s["type"] == "heartRate" and s.get("deleted") for s in gateway.samples), 30), hs.read_log()
    sent = [(s["value"], s.get("version", 0), s.get("deleted", False)) for s in gateway.samples if s["type"] == "heartRate"]
    assert sent == [(27, 0, False), (27, 2, True)], sent


def test_adding_a_medication_a_reminder_or_a_goal_offers_undo(web):
    hs = web.hs
    cookie, _ = web.session()
    for page, action, fields, listed in [
        ("/meds", "/meds/add", [("name", "Ibuprofen"), ("dose", "400 mg")], ("med", "list")),
        ("/reminders", "/reminders/add", [("name", "Pills"), ("time", "08:00"), ("start", "2026-01-05"), ("repeat", "days"), ("every_days", "2")],
         ("remind", "list")),
        ("/goals", "/goals/add", [("name", "Walk"), ("repeat", "daily"), ("type", ""), ("target", "")], ("goal", "list")),
    ]:
        status, location = post(web, cookie, action, {**form_fields(get(web, cookie, page), action), **dict(fields)})
        assert status == 303 and "undo=" in location, (action, location)
        assert len(json.loads(hs.run(*listed, "--json").stdout)) == 1, action
        status, location = undo(web, cookie, follow(web, cookie, location))
        assert status == 303 and "Undone" in urllib.parse.unquote(location), (action, location)
        assert json.loads(hs.run(*listed, "--json").stdout) == [], action
