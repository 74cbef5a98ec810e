"""Issue 28, item 3, for the records that are not samples: a medication's change and removal,
a reminder's change and removal, a goal's removal and its "Mark done" each offer Undo, and what
was removed comes back whole (same id; a medication with its logged doses and the links of its
reminders, a goal with the days it was done). These records stay on the machine: the gateway
receives none of them, neither when removed nor when put back."""
from __future__ import annotations

import datetime
import json
import urllib.parse

from conftest import wait_until
from test_web import web  # noqa: F401 (fixture)
from test_web_measure import form_fields, get
from test_web_undo import UNDO, follow, post, undo


def cli(hs, *args: str):
    return json.loads(hs.run(*args, "--json").stdout)


def said(location: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(location).query).get("ok", [""])[0]


def offered(web, cookie: str, location: str) -> str:
    """The page a change landed on, checked to show its Undo button."""
    assert "undo=" in location, location
    page = follow(web, cookie, location)
    assert UNDO.search(page) and 'id="undo"' in page, "the confirmation offers no Undo"
    return page


def test_a_medication_changed_then_removed_comes_back_whole_with_its_doses_and_reminder(web, gateway):
    hs = web.hs
    hs.run("med", "add", "Ibuprofen", "--dose", "400 mg")
    hs.run("remind", "add", "Ibuprofen", "--times", "08:00", "--med", "Ibuprofen")
    hs.run("med", "take", "Ibuprofen")
    hs.run("med", "take", "Ibuprofen", "--at", "07:00")
    [med] = cli(hs, "med", "list")
    doses = cli(hs, "med", "doses", "--all")
    reminders = cli(hs, "remind", "list")
    assert len(doses) == 2 and reminders[0]["medicationId"] == med["id"]
    cookie, _ = web.session()

    # Changed, then Undo: as it was.
    status, location = post(web, cookie, "/meds/edit", {**form_fields(get(web, cookie, f"/meds/edit?id={med['id']}"), "/meds/edit"),
                                                         "name": "Ibuprofen", "dose": "200 mg", "other_names": "Advil",
                                                         "directions": "with food", "times": "08:00", "prescriber": "Dr Kim"})
    assert status == 303 and said(location) == "Changed: Ibuprofen.", location
    assert cli(hs, "med", "list")[0]["dose"] == "200 mg"
    status, location = undo(web, cookie, offered(web, cookie, location))
    assert status == 303 and said(location) == "Undone: Ibuprofen is back as it was.", location
    assert cli(hs, "med", "list") == [med]

    # Removed (its doses too, its reminder unlinked), then Undo: all of it back, same ids.
    status, location = post(web, cookie, "/meds/remove", form_fields(get(web, cookie, "/meds"), "/meds/remove", f'value="{med["id"]}"'))
    assert status == 303 and said(location) == "Removed: Ibuprofen and its logged doses.", location
    assert cli(hs, "med", "list") == [] and cli(hs, "med", "doses", "--all") == []
    assert cli(hs, "remind", "list")[0]["medicationId"] is None
    landed = offered(web, cookie, location)
    status, location = undo(web, cookie, landed)
    assert status == 303 and said(location) == "Undone: Ibuprofen is back, with its 2 logged doses.", location
    assert cli(hs, "med", "list") == [med]
    assert cli(hs, "med", "doses", "--all") == doses
    assert cli(hs, "remind", "list") == reminders
    assert "Taken: Ibuprofen" in get(web, cookie, "/meds")

    # The offer is used once: its token again, in a form not yet sent, finds nothing to undo.
    fresh = form_fields(get(web, cookie, "/meds"), "/meds/take")["once"]
    status, location = post(web, cookie, "/undo", {**form_fields(landed, "/undo"), "once": fresh})
    assert status == 303 and "nothing to undo" in urllib.parse.unquote_plus(location), location
    assert len(cli(hs, "med", "doses", "--all")) == 2

    # Medications and doses stay on this machine: once a symptom logged after all this has
    # reached the gateway, it has received that symptom and nothing else.
    hs.run("symptom", "log", "headache", "--severity", "mild")
    assert wait_until(lambda: gateway.samples, 30), hs.read_log()
    assert [s["metadata"]["symptom"].lower() for s in gateway.samples] == ["headache"], gateway.samples


def test_a_reminder_changed_or_removed_in_the_browser_is_put_back_exactly_as_it_was(web):
    hs = web.hs
    hs.run("med", "add", "Ibuprofen")
    hs.run("remind", "add", "Pills", "--times", "08:00,20:00", "--med", "Ibuprofen", "--every", "2", "days")
    [before] = cli(hs, "remind", "list")
    cookie, _ = web.session()
    page = get(web, cookie, f"/reminders/edit?id={before['id']}")
    status, location = post(web, cookie, "/reminders/edit", {**form_fields(page, "/reminders/edit"), "name": "Stretch", "time": "09:30",
                                                             "start": "2026-01-05", "repeat": "daily", "med": ""})
    assert status == 303 and said(location).startswith("Changed: Stretch."), location
    changed = cli(hs, "remind", "list")[0]
    assert (changed["name"], changed["kind"], changed["medicationId"]) == ("Stretch", "other", None)
    status, location = undo(web, cookie, offered(web, cookie, location))
    assert status == 303 and said(location) == "Undone: the reminder Pills is back as it was.", location
    assert cli(hs, "remind", "list") == [before]   # its kind ("medication") and link too

    status, location = post(web, cookie, "/reminders/remove", form_fields(get(web, cookie, "/reminders"), "/reminders/remove"))
    assert cli(hs, "remind", "list") == []
    undo(web, cookie, offered(web, cookie, location))
    assert cli(hs, "remind", "list") == [before]


def test_a_goal_marked_done_can_be_undone_and_a_removed_goal_comes_back_with_the_days_it_was_done(web):
    hs = web.hs
    today = datetime.date.today()
    yesterday = (today - datetime.timedelta(days=1)).isoformat()
    hs.run("goal", "add", "Walk", "--every", "day", "--start", (today - datetime.timedelta(days=3)).isoformat())
    [goal] = cli(hs, "goal", "list")
    hs.run("goal", "done", str(goal["id"]), "--date", yesterday)
    cookie, _ = web.session()

    # "Mark done" on the goals page, then Undo: not done today, yesterday still done.
    status, location = post(web, cookie, "/goals/done", form_fields(get(web, cookie, "/goals"), "/goals/done", f'value="{goal["id"]}"'))
    assert status == 303 and said(location) == "Done: Walk.", location
    assert cli(hs, "goal", "list")[0]["done"] is True
    landed = offered(web, cookie, location)
    assert location.startswith("/goals?")
    status, location = undo(web, cookie, landed)
    assert status == 303 and said(location) == "Undone: Walk is not marked done.", location
    assert cli(hs, "goal", "list")[0]["done"] is False
    assert cli(hs, "goal", "list", "--date", yesterday)[0]["doneBy"] == "hand"
    # From the home page too, landing back there.
    status, location = post(web, cookie, "/goals/done", form_fields(get(web, cookie, "/"), "/goals/done", f'value="{goal["id"]}"'))
    assert status == 303 and location.startswith("/?") and "undo=" in location, location
    offered(web, cookie, location)

    # Removed on the goals page, then Undo: the same id, today and yesterday done again.
    done_today, done_yesterday = cli(hs, "goal", "list"), cli(hs, "goal", "list", "--date", yesterday)
    status, location = post(web, cookie, "/goals/remove", form_fields(get(web, cookie, "/goals"), "/goals/remove", f'value="{goal["id"]}"'))
    assert status == 303 and said(location) == "Removed: Walk.", location
    assert cli(hs, "goal", "list") == []
    status, location = undo(web, cookie, offered(web, cookie, location))
    assert status == 303 and said(location) == "Undone: the goal Walk is back.", location
    assert cli(hs, "goal", "list") == done_today and done_today[0]["done"] is True
    assert cli(hs, "goal", "list", "--date", yesterday) == done_yesterday and done_yesterday[0]["done"] is True
