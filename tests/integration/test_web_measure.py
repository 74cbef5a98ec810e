"""Issue 28, a first slice: a double tap never makes two entries (one-time form tokens), and
measurements shown back on /measure, the day view and `healthspool day`, with errors in plain
words next to their field and glucose in the unit chosen in settings."""
from __future__ import annotations

import html
import json
import re
import threading
import time

from conftest import wait_until
from test_web import Web, browser, flash, web, shot, no_axe_violations  # noqa: F401 (fixtures)

FORM = "application/x-www-form-urlencoded"


def form_fields(page: str, action: str, marker: str = "") -> dict[str, str]:
    """The hidden fields of the first form posting to `action` (and holding `marker`)."""
    for f in re.findall(r'<form method="post" action="([^"]*)"[^>]*>(.*?)</form>', page, re.S):
        if f[0] == action and marker in f[1]:
            return {html.unescape(n): html.unescape(v)
                    for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', f[1])}
    raise AssertionError(f"no form posting to {action} with {marker!r}")


def post_twice(web: Web, cookie: str, path: str, body: str, gap: float = 0.04):
    """Posts the same form twice, the second `gap` seconds after the first (a double tap)."""
    headers = {"Cookie": cookie, "Content-Type": FORM, "Origin": web.base}
    answers: list = [None, None]

    def send(i: int):
        r, _ = web.request("POST", path, headers, body)
        answers[i] = (r.status, web.spelled(cookie, r.getheader("Location")))
    threads = [threading.Thread(target=send, args=(0,)), threading.Thread(target=send, args=(1,))]
    threads[0].start()
    time.sleep(gap)
    threads[1].start()
    for t in threads:
        t.join(20)
    return answers


def text_of(browser, id_: str) -> str:
    """An element's text, or "" while the page is being replaced."""
    from selenium.common.exceptions import WebDriverException
    try:
        return browser.find_element("id", id_).text
    except WebDriverException:
        return ""


def get(web: Web, cookie: str, path: str) -> str:
    r, page = web.request("GET", path, {"Cookie": cookie})
    assert r.status == 200, (path, r.status)
    return page.decode()


def test_taken_now_and_a_symptom_posted_twice_40_ms_apart_make_one_entry(web):
    web.hs.run("med", "add", "Ibuprofen", "--dose", "400 mg")
    cookie, _ = web.session()
    fields = form_fields(get(web, cookie, "/meds"), "/meds/take")
    assert fields.get("once"), fields
    body = "&".join(f"{k}={v}" for k, v in fields.items())
    first, second = post_twice(web, cookie, "/meds/take", body)
    assert first[0] == 303 and "ok=" in first[1], first
    assert second == first  # the same answer, not an error
    assert len(json.loads(web.hs.run("med", "doses", "--json").stdout)) == 1

    fields = form_fields(get(web, cookie, "/symptoms/log?symptom=Headache"), "/symptoms/log")
    body = "&".join(f"{k}={v}" for k, v in fields.items()) + "&severity=moderate"
    first, second = post_twice(web, cookie, "/symptoms/log", body)
    assert first[0] == 303 and "ok=" in first[1], first
    assert second == first
    assert len(json.loads(web.hs.run("symptom", "list", "--json").stdout)) == 1

    # A token is single use; the page's next form has a new one, so a second dose is two.
    again = form_fields(get(web, cookie, "/meds"), "/meds/take")
    assert again["once"] != fields["once"]
    first, _ = post_twice(web, cookie, "/meds/take", "&".join(f"{k}={v}" for k, v in again.items()), gap=0.5)
    assert len(json.loads(web.hs.run("med", "doses", "--json").stdout)) == 2
    # A token never issued is refused, and changes nothing.
    r, _ = web.request("POST", "/meds/take", {"Cookie": cookie, "Content-Type": FORM, "Origin": web.base},
                       f"csrf={fields['csrf']}&id={again['id']}&once=" + "0" * 32)
    assert r.status == 409
    assert len(json.loads(web.hs.run("med", "doses", "--json").stdout)) == 2


def test_measurements_are_shown_back_on_the_measure_page_the_day_view_and_the_cli(web, browser):
    from selenium.webdriver.common.by import By
    hs = web.hs
    hs.run("measure", "hr", "72")
    hs.run("measure", "spo2", "97")
    hs.run("measure", "glucose", "98", "mg/dL")
    hs.run("measure", "weight", "160", "lb")
    browser.get(web.link())
    browser.get(web.base + "/measure")
    browser.find_element(By.ID, "f-systolic").send_keys("128")
    browser.find_element(By.ID, "f-diastolic").send_keys("82")
    browser.find_element(By.XPATH, "//button[text()='Save blood pressure']").click()
    assert "Saved" in flash(browser, "ok", "Saved")
    latest = {k: browser.find_element(By.ID, "latest-" + k).text for k in ["bloodPressure", "heartRate", "oxygen", "glucose", "weight"]}
    assert "128/82 mmHg" in latest["bloodPressure"], latest
    assert "72 bpm" in latest["heartRate"] and "97 %" in latest["oxygen"], latest
    assert "5.4 mmol/L" in latest["glucose"] and "98 mg/dL" in latest["glucose"], latest
    assert "72.6 kg" in latest["weight"], latest  # 160 lb
    recent = browser.find_element(By.ID, "recent").text
    assert "Blood pressure 128/82 mmHg" in recent and "Blood sugar 5.4 mmol/L (98 mg/dL)" in recent, recent
    # Newest first: the blood pressure, saved last, is the first reading of the day.
    assert recent.index("128/82") < recent.index("72 bpm"), recent

    browser.get(web.base + "/day")
    day = browser.find_element(By.ID, "day-measurements").text
    assert "Blood pressure 128/82 mmHg" in day and "Heart rate 72 bpm" in day and "97 %" in day, day
    text = hs.run("day").stdout
    assert "Measurements" in text and "Blood pressure 128/82 mmHg" in text and "Blood sugar 5.4 mmol/L (98 mg/dL)" in text, text
    listed = json.loads(hs.run("day", "--json").stdout)["measurements"]
    assert [(m["kind"], m["text"]) for m in listed] == [
        ("heartRate", "72 bpm"), ("oxygen", "97 %"), ("glucose", "5.4 mmol/L"), ("weight", "72.6 kg"), ("bloodPressure", "128/82 mmHg")], listed

    # The CLI lists what the measurements page shows, from the same view.
    view = json.loads(hs.run("measure", "list", "--json").stdout)
    assert view["latest"]["bloodPressure"]["text"] == "128/82 mmHg" and view["latest"]["oxygen"]["text"] == "97 %", view
    assert [r["text"] for r in view["days"][0]["readings"]][0] == "128/82 mmHg", view
    assert "Blood pressure  128/82 mmHg" in hs.run("measure", "list").stdout

    for path, name, part in [("/measure", "measure", "recent"), ("/day", "day-with-measurements", "day-measurements")]:
        for w, h in [(1280, 900), (390, 844)]:
            browser.set_window_size(w, h)
            browser.get(web.base + path)
            no_axe_violations(browser, f"{path} at {w}")
            overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{path} at {w} px scrolls sideways by {overflow} px"
            browser.execute_script("window.scrollTo(0, 0)")
            shot(browser, f"{name}-{w}x{h}")
            browser.execute_script(f"document.getElementById('{part}').scrollIntoView()")
            shot(browser, f"{name}-{w}x{h}-{part}")
    browser.set_window_size(1280, 1000)


def test_a_wrong_number_is_refused_next_to_its_field_in_plain_words_and_kept(web, browser):
    from selenium.webdriver.common.by import By
    cookie, csrf = web.session()
    headers = {"Cookie": cookie, "Content-Type": FORM, "Origin": web.base}
    for body, field, typed, message in [
        ("kind=spo2&value-spo2=97%25", "value-spo2", "97%", "Type only the number, for example 97."),
        ("kind=hr&value-hr=6+2", "value-hr", "6 2", "Type only the number, for example 72."),
        ("kind=hr&value-hr=abc", "value-hr", "abc", "Type only the number, for example 72."),
        ("kind=bp&systolic=80&diastolic=120", "systolic", "80",
         "The top number must be higher than the bottom number. Check the reading and type it again."),
    ]:
        r, page = web.request("POST", "/measure", headers, body + "&csrf=" + csrf)
        page = page.decode()
        assert r.status == 422, (body, r.status)
        assert f'<p class="error" id="f-{field}-error">{html.escape(message)}</p>' in page, (body, page[-3000:])
        tag = re.search(rf'<input id="f-{field}"[^>]*>', page).group(0)
        assert 'aria-invalid="true"' in tag and f'aria-describedby="f-{field}-error"' in tag, tag
        assert f'value="{html.escape(typed)}"' in tag, tag
    assert web.hs.status()["store"]["samples"] == 0  # nothing was guessed and saved

    browser.get(web.link())
    browser.get(web.base + "/measure")
    browser.find_element(By.ID, "f-value-spo2").send_keys("97%")
    browser.find_element(By.XPATH, "//button[text()='Save blood oxygen']").click()
    assert "not saved" in flash(browser, "error", "not saved")
    field = browser.find_element(By.ID, "f-value-spo2")
    assert field.get_attribute("value") == "97%"
    assert field.get_attribute("aria-invalid") == "true"
    assert browser.find_element(By.ID, "f-value-spo2-error").text == "Type only the number, for example 97."
    no_axe_violations(browser, "/measure with an error")
    shot(browser, "measure-error-1280x900")
    weight = browser.find_element(By.ID, "f-value-weight")
    weight.send_keys("72,5")  # a decimal comma is a plain number
    browser.find_element(By.XPATH, "//button[text()='Save weight']").click()
    assert "Saved" in flash(browser, "ok", "Saved")
    assert "72.5 kg" in browser.find_element(By.ID, "latest-weight").text
    field = browser.find_element(By.ID, "f-value-spo2")
    field.send_keys("97")
    browser.find_element(By.XPATH, "//button[text()='Save blood oxygen']").click()
    assert wait_until(lambda: "97 %" in text_of(browser, "latest-oxygen"), 10)


def test_glucose_in_mg_per_dl_chosen_in_settings_is_remembered_and_shown_with_mmol_beside(web, browser):
    from selenium.webdriver.common.by import By
    browser.get(web.link())
    browser.get(web.base + "/settings")
    assert browser.find_element(By.ID, "glucose-mmol").is_selected()  # the default
    browser.find_element(By.CSS_SELECTOR, "label[for=glucose-mg]").click()
    browser.find_element(By.XPATH, "//button[text()='Save blood sugar unit']").click()
    assert "mg/dL" in flash(browser, "ok", "mg/dL")
    assert browser.find_element(By.ID, "glucose-mg").is_selected()
    assert "journal.glucose_unit = mg/dL" in (web.hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()

    browser.get(web.base + "/measure")
    assert browser.find_element(By.CSS_SELECTOR, "label[for=f-value-glucose]").text == "Blood sugar in mg/dL"
    browser.find_element(By.ID, "f-value-glucose").send_keys("98")
    browser.find_element(By.XPATH, "//button[text()='Save blood sugar']").click()
    assert "Saved" in flash(browser, "ok", "Saved")
    latest = browser.find_element(By.ID, "latest-glucose").text
    assert "98 mg/dL" in latest and "5.4 mmol/L" in latest, latest
    listed = json.loads(web.hs.run("day", "--json").stdout)["measurements"]
    assert [(m["kind"], m["value"], m["text"], m["other"]) for m in listed] == [("glucose", 98, "98 mg/dL", "5.4 mmol/L")], listed
    assert "Blood sugar 98 mg/dL (5.4 mmol/L)" in web.hs.run("day").stdout
    no_axe_violations(browser, "/measure in mg/dL")
    browser.get(web.base + "/settings")
    no_axe_violations(browser, "/settings")
    browser.execute_script("document.getElementById('glucose').scrollIntoView()")
    shot(browser, "settings-glucose-1280x1000")
