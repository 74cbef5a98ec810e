"""Issue 28, "half the journal is command-line only": lifestyle factors, reminders with every
repeat rule the CLI accepts (said in words, with the next ring, and changed), goals (one-off,
repeating, measured; removed), medications changed and removed, a steps form and a chart per
measurement — over HTTP with the session, CSRF and one-time tokens, checked against the CLI."""
from __future__ import annotations

import datetime
import json
import re
import urllib.parse

from test_web import Web, browser, web  # noqa: F401 (fixtures)
from test_web_measure import form_fields, get, post_twice

FORM = "application/x-www-form-urlencoded"
NEW_PAGES = ["/lifestyle", "/goals", "/reminders", "/meds", "/measure"]


def post(web: Web, cookie: str, page: str, action: str, fields: dict | list, marker: str = ""):
    """Posts `fields` through the form of `page` that posts to `action` (its CSRF and one-time
    tokens): (status, Location, body)."""
    hidden = form_fields(get(web, cookie, page), action, marker)
    pairs = list(hidden.items()) + (list(fields.items()) if isinstance(fields, dict) else fields)
    body = urllib.parse.urlencode(pairs)
    r, data = web.request("POST", action, {"Cookie": cookie, "Content-Type": FORM, "Origin": web.base}, body)
    return r.status, web.spelled(cookie, r.getheader("Location")), data.decode()


def notice(location: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(location).query).get("ok", [""])[0]


def field_tag(page: str, id_: str) -> str:
    m = re.search(r'<(?:input|select)[^>]* id="%s"[^>]*>' % re.escape(id_), page)
    assert m, f"no field {id_}"
    return m.group(0)


def assert_marked(page: str, id_: str, message: str):
    """The field is marked invalid and described by its error, which says `message`."""
    tag = field_tag(page, id_)
    assert 'aria-invalid="true"' in tag, tag
    assert f"{id_}-error" in tag, tag
    assert re.search(r'<p class="error" id="%s-error">%s</p>' % (re.escape(id_), re.escape(message)), page), message


def test_every_post_form_on_the_new_pages_carries_csrf_and_a_one_time_token(web):
    web.hs.run("med", "add", "Vitamin D", "--dose", "1000 IU")
    web.hs.run("remind", "add", "Vitamin D", "--times", "08:00", "--med", "Vitamin D")
    web.hs.run("goal", "add", "Walk")
    cookie, csrf = web.session()
    for path in NEW_PAGES + ["/reminders/edit?id=1", "/meds/edit?id=1"]:
        page = get(web, cookie, path)
        forms = re.findall(r'<form method="post"[^>]*>(.*?)</form>', page, re.S)
        assert forms, path
        for f in forms:
            assert f'name="csrf" value="{csrf}"' in f, (path, f[:200])
            assert re.search(r'name="once" value="[^"]{16,}"', f), (path, f[:200])
        assert "healthspool goal add" not in page and "run the command" not in page.lower(), path


def test_the_new_forms_posted_twice_40_ms_apart_make_one_entry(web):
    cookie, _ = web.session()
    for page, action, fields, listed in [
        ("/lifestyle", "/lifestyle/log", [("factor", "water"), ("amount", "1"), ("unit", "glass"), ("level", ""), ("when", "")], ("lifestyle", "list")),
        ("/goals", "/goals/add", [("name", "Walk"), ("repeat", "daily"), ("type", ""), ("target", "")], ("goal", "list")),
        ("/reminders", "/reminders/add", [("name", "Pills"), ("time", "08:00"), ("start", "2026-01-05"), ("repeat", "days"), ("every_days", "2")],
         ("remind", "list")),
    ]:
        hidden = form_fields(get(web, cookie, page), action)
        body = urllib.parse.urlencode(list(hidden.items()) + fields)
        first, second = post_twice(web, cookie, action, body)
        assert first[0] == 303 and "ok=" in first[1], (action, first)
        assert second == first, action
        assert len(json.loads(web.hs.run(*listed, "--json").stdout)) == 1, action


def test_a_lifestyle_factor_logged_in_the_browser_is_listed_there_and_by_the_cli(web):
    cookie, _ = web.session()
    status, where, _ = post(web, cookie, "/lifestyle", "/lifestyle/log",
                            {"factor": "water", "amount": "2", "unit": "glasses", "level": "", "when": "morning", "note": "with lemon"})
    assert status == 303, where
    assert "Water: 2 glasses (morning) – with lemon" in notice(where)
    status, where, _ = post(web, cookie, "/lifestyle", "/lifestyle/log",
                            {"factor": "", "other": "Gardening", "amount": "", "unit": "", "level": "high", "when": ""})
    assert status == 303, where
    page = get(web, cookie, "/lifestyle")
    listed = re.search(r'id="lifestyle-list".*?</section>', page, re.S).group(0)
    assert "Water: 2 glasses (morning) – with lemon" in listed and "Gardening: high level" in listed
    # The morning meant: before 05:00, yesterday's (issue 40).
    from conftest import meant_day
    listed_on = lambda day: {e["factor"]: e for e in json.loads(web.hs.run("lifestyle", "list", "--json", "--date", day.isoformat()).stdout)}
    cli = {**listed_on(datetime.date.today()), **listed_on(meant_day("morning"))}
    assert cli["water"]["amount"] == 2 and cli["water"]["unit"] == "glasses" and cli["water"]["timeOfDay"] == "morning"
    assert cli["Gardening"]["level"] == "high"
    # A factor the user named is offered as a choice the next time.
    assert 'value="gardening"' in page.lower()


def test_a_wrong_lifestyle_amount_is_refused_next_to_its_field_and_kept(web):
    cookie, _ = web.session()
    status, _, page = post(web, cookie, "/lifestyle", "/lifestyle/log",
                           {"factor": "caffeine", "amount": "2 cups", "unit": "", "level": "", "when": ""})
    assert status == 422
    assert_marked(page, "f-amount", "Type only the number, for example 2.")
    assert 'value="2 cups"' in field_tag(page, "f-amount")
    assert 'value="caffeine" checked' in page
    status, _, page = post(web, cookie, "/lifestyle", "/lifestyle/log", {"factor": "", "other": "", "level": "", "when": ""})
    assert status == 422 and 'id="factor-error"' in page
    assert json.loads(web.hs.run("lifestyle", "list", "--json").stdout) == []


RULES = [
    ({"repeat": "days", "every_days": "2"}, "Every other day at 08:00", "FREQ=DAILY;INTERVAL=2"),
    ({"repeat": "days", "every_days": "3"}, "Every 3 days at 08:00", "FREQ=DAILY;INTERVAL=3"),
    ([("repeat", "weeks"), ("weekday", "MO"), ("weekday", "FR"), ("every_weeks", "3")],
     "Every 3 weeks on Monday and Friday at 08:00", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR;WKST=MO"),
    ([("repeat", "weeks"), ("weekday", "TU"), ("weekday", "TH"), ("every_weeks", "1")],
     "Tuesday and Thursday at 08:00", "FREQ=WEEKLY;BYDAY=TU,TH;WKST=MO"),
    ({"repeat": "month", "month_day": "15", "every_months": "1"}, "Every month on the 15th at 08:00", "FREQ=MONTHLY;BYMONTHDAY=15"),
    ({"repeat": "daily"}, "Every day at 08:00", "FREQ=DAILY"),
]


def test_reminders_with_every_repeat_rule_are_said_in_words_with_the_next_ring_as_the_cli_says(web):
    cookie, _ = web.session()
    for i, (repeat, words, rrule) in enumerate(RULES):
        fields = [("name", f"Reminder {i}"), ("time", "08:00"), ("start", "2026-01-05")]
        fields += list(repeat.items()) if isinstance(repeat, dict) else repeat
        status, where, body = post(web, cookie, "/reminders", "/reminders/add", fields)
        assert status == 303, body[:2000]
        assert notice(where) == f"Reminder set: Reminder {i}. {words}.", where
    page = get(web, cookie, "/reminders")
    cli = {r["name"]: r for r in json.loads(web.hs.run("remind", "list", "--json").stdout)}
    text = web.hs.run("remind", "list").stdout
    for i, (_, words, rrule) in enumerate(RULES):
        item = re.search(r'<li class="entry" id="reminder-%d">.*?</li>' % cli[f"Reminder {i}"]["id"], page, re.S).group(0)
        assert f'<span class="rule">{words}</span>' in item, item
        assert re.search(r'<span class="ring">Next: (today|tomorrow|\w+day)( \d+ \w+( \d{4})?)? 08:00</span>', item), item
        assert cli[f"Reminder {i}"]["rrule"] == rrule and cli[f"Reminder {i}"]["repeat"] == words
        assert f"Reminder {i}  [other]  {words} ({rrule})" in text, text


def test_a_reminder_form_with_mistakes_is_sent_back_with_each_field_marked_and_kept(web):
    cookie, _ = web.session()
    status, _, page = post(web, cookie, "/reminders", "/reminders/add",
                           [("name", "Stretch"), ("time", "8 o'clock"), ("start", "2026-01-05"), ("repeat", "weeks"), ("every_weeks", "two")])
    assert status == 422
    assert_marked(page, "f-time", "Type the time as hours and minutes, for example 08:00.")
    assert 'value="8 o&#39;clock"' in field_tag(page, "f-time") or "value=\"8 o'clock\"" in field_tag(page, "f-time")
    assert_marked(page, "f-every_weeks", "Type a whole number from 1 to 1000, for example 1.")
    assert 'id="weekday-error">Choose at least one day of the week.</p>' in page
    assert 'aria-invalid="true"' in field_tag(page, "weekday-mo")
    assert 'value="weeks" checked' in page and 'value="Stretch"' in field_tag(page, "f-name")
    assert json.loads(web.hs.run("remind", "list", "--json").stdout) == []


def test_a_reminder_changed_in_the_browser_is_changed_for_the_cli_and_the_other_way(web):
    web.hs.run("med", "add", "Ibuprofen")
    rid = json.loads(web.hs.run("remind", "add", "Pills", "--times", "08:00", "--json").stdout)["id"]
    cookie, _ = web.session()
    page = get(web, cookie, f"/reminders/edit?id={rid}")
    assert 'value="daily" checked' in page and 'value="Pills"' in field_tag(page, "f-name")
    status, where, _ = post(web, cookie, f"/reminders/edit?id={rid}", "/reminders/edit",
                            [("id", str(rid)), ("name", "Pills after food"), ("time", "09:30, 21:00"), ("start", "2026-01-05"),
                             ("repeat", "days"), ("every_days", "2"), ("med", "1")])
    assert status == 303 and notice(where) == "Changed: Pills after food. Every other day at 09:30 and 21:00.", where
    [r] = json.loads(web.hs.run("remind", "list", "--json").stdout)
    assert (r["id"], r["name"], r["times"], r["rrule"], r["medicationId"], r["kind"]) == \
        (rid, "Pills after food", ["09:30", "21:00"], "FREQ=DAILY;INTERVAL=2", 1, "medication")
    web.hs.run("remind", "edit", str(rid), "--weekdays", "sat,sun", "--every", "2", "weeks")
    assert "Every other week on Saturday and Sunday at 09:30 and 21:00" in get(web, cookie, "/reminders")


def test_goals_one_off_repeating_and_measured_are_added_and_removed_in_the_browser(web):
    cookie, _ = web.session()
    assert "Add one with the command" not in get(web, cookie, "/journal")
    assert 'href="/goals"' in get(web, cookie, "/journal")
    for fields, said in [
        ([("name", "Book a check-up"), ("repeat", "once"), ("type", ""), ("target", "")], "Once"),
        ([("name", "Physio"), ("repeat", "weeks"), ("weekday", "MO"), ("weekday", "WE"), ("every_weeks", "1"), ("type", ""), ("target", "")],
         "Monday and Wednesday"),
        ([("name", "Walk"), ("repeat", "daily"), ("type", "stepCount"), ("target", "10000")], "Every day"),
    ]:
        status, where, body = post(web, cookie, "/goals", "/goals/add", fields)
        assert status == 303, body[:2000]
        assert notice(where) == f"Goal added: {fields[0][1]}. {said}.", where
    goals = {g["name"]: g for g in json.loads(web.hs.run("goal", "list", "--json").stdout)}
    assert goals["Book a check-up"]["rrule"] is None
    assert goals["Physio"]["rrule"] == "FREQ=WEEKLY;BYDAY=MO,WE;WKST=MO"
    assert (goals["Walk"]["rrule"], goals["Walk"]["type"], goals["Walk"]["target"]) == ("FREQ=DAILY", "stepCount", 10000)
    page = get(web, cookie, "/goals")
    assert "Every day · 10,000 steps a day, from your data" in page
    status, where, _ = post(web, cookie, "/goals", "/goals/remove", {"id": str(goals["Physio"]["id"])}, f'value="{goals["Physio"]["id"]}"')
    assert status == 303 and notice(where) == "Removed: Physio.", where
    assert sorted(g["name"] for g in json.loads(web.hs.run("goal", "list", "--json").stdout)) == ["Book a check-up", "Walk"]
    # A target without what it counts is refused next to the field, the name kept.
    status, _, page = post(web, cookie, "/goals", "/goals/add", [("name", "Stairs"), ("repeat", "daily"), ("type", ""), ("target", "10")])
    assert status == 422
    assert 'aria-invalid="true"' in field_tag(page, "f-type") and 'value="Stairs"' in field_tag(page, "f-name")


def test_a_medication_is_changed_and_removed_in_the_browser_and_the_cli_agrees(web):
    web.hs.run("med", "add", "Ibuprofen", "--dose", "400 mg")
    web.hs.run("med", "add", "Paracetamol")
    web.hs.run("remind", "add", "Ibuprofen", "--times", "08:00", "--med", "Ibuprofen")
    web.hs.run("med", "take", "Ibuprofen")
    meds = {m["name"]: m for m in json.loads(web.hs.run("med", "list", "--json").stdout)}
    ibu = meds["Ibuprofen"]["id"]
    cookie, _ = web.session()
    assert f'href="/meds/edit?id={ibu}"' in get(web, cookie, "/meds")
    status, where, _ = post(web, cookie, f"/meds/edit?id={ibu}", "/meds/edit",
                            {"id": str(ibu), "name": "Ibuprofen", "dose": "200 mg", "other_names": "Advil", "directions": "with food",
                             "times": "08:00", "prescriber": ""})
    assert status == 303 and notice(where) == "Changed: Ibuprofen.", where
    m = {m["name"]: m for m in json.loads(web.hs.run("med", "list", "--json").stdout)}["Ibuprofen"]
    assert (m["id"], m["dose"], m["otherNames"], m["directions"], m["times"]) == (ibu, "200 mg", ["Advil"], "with food", ["08:00"])
    assert json.loads(web.hs.run("remind", "list", "--json").stdout)[0]["medicationId"] == ibu  # still linked
    # Another medication's name is refused next to the field, what was typed kept.
    status, _, page = post(web, cookie, f"/meds/edit?id={ibu}", "/meds/edit",
                           {"id": str(ibu), "name": "Paracetamol", "dose": "100 mg", "other_names": "", "directions": "", "times": "",
                            "prescriber": ""})
    assert status == 422
    assert_marked(page, "f-name", "Paracetamol already has the name Paracetamol. Choose another.")
    assert 'value="100 mg"' in field_tag(page, "f-dose")
    status, where, _ = post(web, cookie, "/meds", "/meds/remove", {"id": str(ibu)}, f'value="{ibu}"><button type="submit" class="secondary" aria-label="Remove Ibuprofen"')
    assert status == 303 and notice(where) == "Removed: Ibuprofen and its logged doses.", where
    assert [m["name"] for m in json.loads(web.hs.run("med", "list", "--json").stdout)] == ["Paracetamol"]
    assert json.loads(web.hs.run("med", "doses", "--all", "--json").stdout) == []


def test_steps_typed_on_the_measure_page_count_in_the_day(web):
    cookie, _ = web.session()
    status, _, page = post(web, cookie, "/measure", "/measure", {"kind": "steps", "value-steps": "4,200", "since": "00:00"}, 'value="steps"')
    assert status == 422
    assert_marked(page, "f-value-steps", "Type only the whole number, without dots or spaces, for example 4200.")
    assert 'value="4,200"' in field_tag(page, "f-value-steps")
    status, where, _ = post(web, cookie, "/measure", "/measure", {"kind": "steps", "value-steps": "4200", "since": "00:00"}, 'value="steps"')
    # Issue 40: the save says what was saved, as a symptom's does.
    assert status == 303 and re.fullmatch(r"Saved: 4\D?200 steps, 00:00 to \d\d:\d\d\.", notice(where)), where
    day = json.loads(web.hs.run("day", "--json").stdout)
    assert day["totals"]["stepCount"] == 4200


def test_each_measured_kind_has_a_chart_with_its_usual_range_shaded(web):
    hs = web.hs
    hs.run("measure", "bp", "128/82")
    hs.run("measure", "spo2", "97")
    hs.run("measure", "hr", "72")
    cookie, _ = web.session()
    page = get(web, cookie, "/measure")
    charts = re.search(r'<section class="card" aria-labelledby="charts-h" id="charts">.*?</section>', page, re.S).group(0)
    assert 'href="/measure?range=30#charts" aria-current="page"' in charts and 'href="/measure?range=90#charts"' in charts
    for kind, bands in [("bloodPressure", 2), ("oxygen", 1), ("heartRate", 1)]:
        svg = re.search(r'<svg [^>]*id="chart-%s">.*?</svg>' % kind, charts, re.S).group(0)
        assert svg.count('class="band"') == bands, kind
        assert "<title" in svg and "style=" not in svg
    assert 'id="chart-glucose"' not in charts and "No readings in the last 30 days." in charts
    assert "Shaded: the usual blood oxygen, 95–100 %." in charts
    assert "Last 90 days" in get(web, cookie, "/measure?range=90")


# MARK: in the browser

PHONE = (390, 844)
DESKTOP = (1280, 900)
LABEL_SIZES = """
    return [...document.querySelectorAll('svg.trend text')].filter(t => t.getBBox().width > 0)
        .map(t => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize));"""
SIZES = """
    // Chart labels are measured as drawn (LABEL_SIZES), not by their SVG units.
    const small = [...document.querySelectorAll('main *')].filter(e => !e.closest('svg') && e.offsetParent !== null && e.childNodes.length &&
        [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) && parseFloat(getComputedStyle(e).fontSize) < 18);
    // Radio buttons and checkboxes (issue 40: they were 28 px) and their labels: 44 px at least
    // (WCAG 2.5.5); every other control 48 px.
    const toggles = 'main input[type=checkbox], main input[type=radio]';
    const tiny = [...document.querySelectorAll('main a, main button, main input:not([type=hidden]), main select')].filter(e => {
        const r = e.getBoundingClientRect(), least = e.matches(toggles) ? 44 : 48;
        return r.width > 0 && (r.height < least || r.width < least); }).concat(
        [...document.querySelectorAll(toggles)].map(e => e.labels && e.labels[0]).filter(l => {
            const r = l ? l.getBoundingClientRect() : null; return r && r.width > 0 && r.height < 44; }));
    return [small.map(e => e.tagName + ':' + e.textContent.slice(0, 30)), tiny.map(e => e.outerHTML.slice(0, 90))];"""


def wait_for(browser, id_: str):
    """The element with `id_` once the page that has it is loaded (after a form was sent, the
    previous page may still be shown)."""
    from selenium.common.exceptions import WebDriverException
    from conftest import wait_until

    def found():
        try:
            e = browser.find_element("id", id_)
            return e if e.get_attribute("id") == id_ else None
        except WebDriverException:
            return None
    e = wait_until(found, 10)
    assert e, f"no #{id_}"
    return e


def test_a_ten_year_old_adds_a_medication_with_an_every_other_day_reminder_at_8_all_in_the_browser(web, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    from test_web import flash, no_axe_violations, shot
    browser.set_window_size(*DESKTOP)
    browser.get(web.link())                                                    # opens Health journal from the menu
    browser.find_element(By.LINK_TEXT, "Medications").click()                  # click 1
    browser.find_element(By.ID, "f-name").send_keys("Vitamin D")              # 9 keys
    browser.find_element(By.XPATH, "//button[text()='Add medication']").click()  # click 2
    assert flash(browser, "ok", "Added Vitamin D") == "Added Vitamin D.\nUndo"   # the confirmation offers Undo
    browser.find_element(By.LINK_TEXT, "Reminders").click()                    # click 3
    browser.find_element(By.ID, "f-name").send_keys("Take vitamin D")         # 14 keys
    assert browser.find_element(By.ID, "f-time").get_attribute("value") == "08:00"  # already there: 0 keys
    browser.find_element(By.CSS_SELECTOR, "label[for=repeat-days]").click()   # click 4: "Every few days"
    assert browser.find_element(By.ID, "f-every_days").get_attribute("value") == "2"  # "2 means every other day": 0 keys
    Select(browser.find_element(By.ID, "f-med")).select_by_visible_text("Vitamin D")  # clicks 5 and 6 (open, choose)
    browser.find_element(By.XPATH, "//button[text()='Add reminder']").click()  # click 7
    # 7 clicks and 23 keys in all, no command typed.
    assert flash(browser, "ok", "Reminder set") == "Reminder set: Take vitamin D. Every other day at 08:00.\nUndo"
    item = browser.find_element(By.CSS_SELECTOR, "#reminders li").text
    assert "Take vitamin D" in item and "(for Vitamin D)" in item
    assert "Every other day at 08:00" in item
    assert re.search(r"Next: (today|tomorrow|\w+day) 08:00", item), item
    no_axe_violations(browser, "/reminders after adding")
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "journey-10-reminder-set-1280x900")
    # The command line says the same rule, in the same words, for the same medication.
    [r] = json.loads(web.hs.run("remind", "list", "--json").stdout)
    meds = json.loads(web.hs.run("med", "list", "--json").stdout)
    assert (r["rrule"], r["times"], r["repeat"], r["kind"]) == ("FREQ=DAILY;INTERVAL=2", ["08:00"], "Every other day at 08:00", "medication")
    assert r["medicationId"] == meds[0]["id"] and meds[0]["name"] == "Vitamin D"
    assert "Take vitamin D  [medication]  Every other day at 08:00 (FREQ=DAILY;INTERVAL=2)  next " in web.hs.run("remind", "list").stdout


def test_the_new_pages_pass_axe_are_large_fit_a_phone_and_keep_the_content_security_policy(web, browser):
    from selenium.webdriver.common.by import By
    from test_web import no_axe_violations, shot
    hs = web.hs
    hs.run("med", "add", "Ibuprofen", "--dose", "400 mg", "--directions", "with food")
    hs.run("remind", "add", "Ibuprofen", "--times", "08:00,20:00", "--every", "2", "days", "--med", "Ibuprofen")
    hs.run("remind", "add", "Physio", "--times", "17:30", "--weekdays", "mon,wed,fri", "--every", "3", "weeks")
    hs.run("goal", "add", "Walk", "--every", "day", "--type", "stepCount", "--target", "10000")
    hs.run("goal", "add", "Book a check-up")
    hs.run("lifestyle", "log", "caffeine", "--amount", "2", "--unit", "cups", "--when", "morning")
    from datetime import datetime, timedelta

    def ago(days: int) -> str:
        return (datetime.now() - timedelta(days=days)).strftime("%Y-%m-%d 08:00")
    for days, bp, spo2, hr, glucose, weight in [(80, "138/88", "94", "88", "6.1", "74.0"), (25, "131/85", "96", "72", "5.6", "73.4"),
                                                (12, "118/76", "97", "64", "5.2", "72.9"), (3, "124/80", "98", "69", "4.8", "72.5")]:
        for kind, value in [("bp", bp), ("spo2", spo2), ("hr", hr), ("glucose", glucose), ("weight", weight)]:
            hs.run("measure", kind, value, *(["mmol/L"] if kind == "glucose" else []), "--at", ago(days))
    browser.get(web.link())
    pages = {"lifestyle": "/lifestyle", "goals": "/goals", "reminders": "/reminders", "reminder-edit": "/reminders/edit?id=1",
             "meds": "/meds", "med-edit": "/meds/edit?id=1", "measure": "/measure", "measure-90": "/measure?range=90",
             "journal": "/journal", "today": "/"}
    for size in (DESKTOP, PHONE):
        browser.set_window_size(*size)
        browser.get_log("browser")  # what came before
        for name, path in pages.items():
            browser.get(web.base + path)
            no_axe_violations(browser, f"{path} at {size[0]}")
            small, tiny = browser.execute_script(SIZES)
            assert small == [], f"{path} at {size[0]}: text under 18 px: {small[:5]}"
            assert tiny == [], f"{path} at {size[0]}: targets under 48 px: {tiny[:5]}"
            overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{path} at {size[0]} px scrolls sideways by {overflow} px"
            csp = [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
            assert csp == [], f"{path}: {csp}"
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, f"forms-{name}-{size[0]}x{size[1]}")
        browser.get(web.base + "/measure")
        sizes = browser.execute_script(LABEL_SIZES)
        assert len(sizes) > 10 and min(sizes) >= 16, f"/measure at {size[0]} px: chart labels {min(sizes or [0]):.1f} px"
        browser.execute_script("document.getElementById('charts').scrollIntoView()")
        shot(browser, f"forms-measure-charts-{size[0]}x{size[1]}")
        browser.execute_script("document.getElementById('steps-h').scrollIntoView()")
        shot(browser, f"forms-measure-steps-{size[0]}x{size[1]}")
        browser.get(web.base + "/reminders")
        browser.execute_script("document.getElementById('repeat').scrollIntoView()")
        shot(browser, f"forms-reminders-repeat-{size[0]}x{size[1]}")
    # A form sent back with its mistakes: marked, described, kept; axe still finds nothing.
    browser.set_window_size(*DESKTOP)
    browser.get(web.base + "/reminders")
    browser.find_element(By.ID, "f-name").send_keys("Stretch")
    times = browser.find_element(By.ID, "f-time")
    times.clear()
    times.send_keys("8 o'clock")
    browser.find_element(By.CSS_SELECTOR, "label[for=repeat-weeks]").click()
    browser.find_element(By.XPATH, "//button[text()='Add reminder']").click()
    wait_for(browser, "weekday-error")
    field = browser.find_element(By.ID, "f-time")
    assert field.get_attribute("aria-invalid") == "true" and field.get_attribute("value") == "8 o'clock"
    assert browser.find_element(By.ID, "f-time-error").text == "Type the time as hours and minutes, for example 08:00."
    assert browser.find_element(By.ID, "weekday-error").text == "Choose at least one day of the week."
    no_axe_violations(browser, "/reminders with errors")
    browser.execute_script("document.getElementById('f-time').scrollIntoView()")
    shot(browser, "forms-reminders-error-1280x900")
    browser.get(web.base + "/lifestyle")
    browser.find_element(By.ID, "f-amount").send_keys("2 cups")
    browser.find_element(By.XPATH, "//button[text()='Save']").click()
    wait_for(browser, "factor-error")
    assert browser.find_element(By.ID, "f-amount").get_attribute("aria-invalid") == "true"
    assert browser.find_element(By.ID, "factor-error").text.startswith("Choose what you want to note")
    no_axe_violations(browser, "/lifestyle with errors")
    shot(browser, "forms-lifestyle-error-1280x900")
