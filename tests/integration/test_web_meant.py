"""Issue 40, the minor list: what a person types or taps is stored as they meant it. A time typed
into the middle of a time box ("0900" into "18:07") is 09:00, in the browser with a mouse and with
touch at 390×844; a time no one means is refused, not stored as another."""
from __future__ import annotations

import json
import re
import time
import urllib.parse
from datetime import date, timedelta

from conftest import wait_until
from test_web import Web, browser, shot, web  # noqa: F401 (fixtures)
from test_web_forms import post
from test_web_measure import get
from test_web_taps import centre, phone, tap
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys


def yesterday_dose(hs, at: str = "18:07") -> tuple[int, str]:
    """A Metformin dose yesterday at `at` (the journal's own today): (id, yesterday)."""
    hs.run("med", "add", "Metformin", "--dose", "500 mg")
    today = json.loads(hs.run("med", "take", "Metformin", "--json").stdout)
    hs.run("med", "dose", "remove", str(today["id"]))
    day = (date.fromisoformat(today["takenAt"][:10]) - timedelta(days=1)).isoformat()
    dose = json.loads(hs.run("med", "take", "Metformin", "--at", f"{day} {at}", "--json").stdout)
    return dose["id"], day


def taken_at(hs) -> list[str]:
    return [d["takenAt"][:16] for d in json.loads(hs.run("med", "doses", "--all", "--json").stdout)]


def test_0900_typed_into_the_middle_of_a_time_box_is_nine_oclock(web, browser):
    hs = web.hs
    dose_id, day = yesterday_dose(hs)
    for size, touch in [((1280, 900), False), ((390, 844), True)]:
        hs.run("med", "dose", "edit", str(dose_id), "--at", f"{day} 18:07")
        if touch:
            phone(browser)
        else:
            browser.set_window_size(*size)
        browser.get(web.link())
        browser.get(web.base + f"/day/{day}")
        box = browser.find_element(By.ID, f"dose-time-{dose_id}")
        assert box.get_attribute("value") == "18:07"
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        time.sleep(1.0)
        # Between "18:" and "07", where the person put a finger or the pointer.
        left = browser.execute_script("return arguments[0].getBoundingClientRect().left", box)
        x, y = centre(browser, box)
        if touch:
            tap(browser, left + 30, y)
        else:
            ActionChains(browser).move_to_element_with_offset(box, int(left + 30 - x), 0).click().perform()
        time.sleep(0.3)
        keys = "0900"
        browser.switch_to.active_element.send_keys(keys)
        shot(browser, f"meant-time-typed-{size[0]}")
        browser.switch_to.active_element.send_keys(Keys.ENTER)
        assert wait_until(lambda: "notice=" in browser.current_url, 10), browser.current_url   # the server holds the message (issue 39)
        shot(browser, f"meant-time-saved-{size[0]}")
        print(f"{size[0]} px: 1 {'tap' if touch else 'click'}, {len(keys) + 1} keys; stored {taken_at(hs)}")
        assert taken_at(hs) == [f"{day}T09:00"], (size, taken_at(hs))
        assert "18:08" not in browser.page_source and " PM" not in browser.page_source


def test_times_typed_as_people_type_them_are_stored_as_meant_and_nonsense_is_refused(web):
    hs = web.hs
    dose_id, day = yesterday_dose(hs)
    cookie, _ = web.session()
    for typed, meant in [("0900", "09:00"), ("9:30 pm", "21:30"), ("9am", "09:00"), ("7.15", "07:15")]:
        status, where, _ = post(web, cookie, f"/day/{day}", "/doses/edit", {"time": typed}, f'value="{dose_id}"')
        assert status == 303 and "Changed" in urllib.parse.unquote(where), (typed, where)
        assert taken_at(hs) == [f"{day}T{meant}"], (typed, taken_at(hs))
    # What the browser's own box could send when the text was typed into its middle: refused.
    status, where, _ = post(web, cookie, f"/day/{day}", "/doses/edit", {"time": "18:0900:07"}, f'value="{dose_id}"')
    assert "error=" in where, where
    assert taken_at(hs) == [f"{day}T07:15"]
    page = get(web, cookie, f"/day/{day}")
    assert 'type="time"' not in page and 'value="07:15"' in page


VISIBLE = "return [...document.querySelectorAll('#f-every_days, #weekday-mo, #f-every_weeks, #f-month_day, #f-every_months')]" \
          ".filter(e => e.getBoundingClientRect().height > 0).map(e => e.id)"


def test_the_repeat_fields_show_only_what_the_chosen_rule_needs(web, browser):
    browser.get(web.link())
    for page in ["/reminders", "/goals"]:
        browser.get(web.base + page)
        shown = {}
        for choice in ["daily", "days", "weeks", "month"]:
            browser.find_element(By.CSS_SELECTOR, f"label[for=repeat-{choice}]").click()
            shown[choice] = browser.execute_script(VISIBLE)
        assert shown == {"daily": [], "days": ["f-every_days"], "weeks": ["weekday-mo", "f-every_weeks"],
                         "month": ["f-month_day", "f-every_months"]}, (page, shown)
        for size in [(1280, 900), (390, 844)]:
            browser.set_window_size(*size)
            shot(browser, f"meant-repeat{page.replace('/', '-')}-{size[0]}")
        browser.set_window_size(1280, 900)


def test_a_goal_is_marked_done_on_the_goals_page_by_its_square(web, browser):
    hs = web.hs
    hs.run("goal", "add", "Physio exercises", "--every", "day")
    browser.get(web.link())
    browser.get(web.base + "/goals")
    square = browser.find_element(By.CSS_SELECTOR, "#all-goals button.mark .tick")
    clicks = 1
    square.click()
    assert wait_until(lambda: "notice=" in browser.current_url and browser.find_elements(By.CSS_SELECTOR, ".notice.ok"), 10), browser.current_url
    assert browser.current_url.split("?")[0].endswith("/goals")
    shot(browser, "meant-goal-done-1280")
    goals = json.loads(hs.run("goal", "list", "--json").stdout)
    print(f"goal marked done on /goals: {clicks} click; {goals}")
    assert "Done today" in browser.find_element(By.ID, "all-goals").text
    assert browser.find_elements(By.CSS_SELECTOR, "#all-goals button.mark") == []
    # Today's checklist agrees, with a tick and no button.
    browser.get(web.base + "/")
    assert browser.find_element(By.CSS_SELECTOR, "#goals li.goal").get_attribute("data-done") == "true"


def test_a_measurement_saved_says_what_was_saved(web):
    cookie, _ = web.session()
    status, where, _ = post(web, cookie, "/measure", "/measure", {"kind": "bp", "systolic": "124", "diastolic": "80"}, 'value="bp"')
    said = urllib.parse.parse_qs(urllib.parse.urlparse(where).query)["ok"][0]
    assert status == 303 and said.startswith("Saved: blood pressure 124/80 mmHg, at "), said


def test_the_name_on_the_summary_is_set_in_the_browser_and_printed(web, browser):
    browser.get(web.link())
    browser.get(web.base + "/report")
    box = browser.find_element(By.ID, "f-name")
    box.send_keys("Ada Lovelace")
    box.send_keys(Keys.ENTER)
    assert wait_until(lambda: "notice=" in browser.current_url and browser.find_elements(By.CSS_SELECTOR, ".notice.ok"), 10), browser.current_url
    assert "Ada Lovelace" in browser.find_element(By.CSS_SELECTOR, ".report-meta").text
    assert browser.find_element(By.ID, "f-name").get_attribute("value") == "Ada Lovelace"
    assert re.search(r"^report\.name\s+Ada Lovelace\s", web.hs.run("config", "show").stdout, re.M)   # the CLI's summary too
    for size in [(1280, 900), (390, 844)]:
        browser.set_window_size(*size)
        shot(browser, f"meant-report-name-{size[0]}")
        overflow = browser.execute_script(
            "return Math.max(0, ...[...document.querySelectorAll('.report .table-wrap')].map(w => w.scrollWidth - w.clientWidth))")
        assert overflow <= 0, f"a summary table scrolls sideways by {overflow} px at {size[0]} px"


def test_today_and_measure_say_how_each_figure_compares_with_the_usual(web, browser):
    from test_web import no_axe_violations
    hs = web.hs
    today = date.fromisoformat(json.loads(hs.run("day", "--json").stdout)["date"])
    for ago, bp in [(1, "118/79"), (3, "120/80"), (6, "122/81")]:
        hs.run("measure", "bp", bp, "--at", f"{(today - timedelta(days=ago)).isoformat()} 08:00")
    hs.run("measure", "bp", "141/88", "--at", "00:05")
    browser.get(web.link())
    for size in [(1280, 900), (390, 844)]:
        browser.set_window_size(*size)
        for page, where in [("/", "#fig-blood-pressure .glance"), ("/measure", "#latest-bloodPressure .glance")]:
            browser.get(web.base + page)
            glance = browser.find_element(By.CSS_SELECTOR, where)
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", glance)
            shot(browser, f"meant-glance{page.replace('/', '-').rstrip('-') or '-today'}-{size[0]}")
            # Words and an arrow (hidden from screen readers: the words say it), not colour alone.
            assert glance.text == "↑ top number higher than usual (usual 120/80 mmHg)", glance.text
            assert glance.find_element(By.CSS_SELECTOR, ".arrow").get_attribute("aria-hidden") == "true"
            no_axe_violations(browser, f"{page} at {size[0]}")
