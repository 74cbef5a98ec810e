"""`healthspool ui` when no daemon runs (issue 28, Must 8): it opens the browser at once on a page
that says the journal is starting and reloads itself, starts the user service, and rewrites the
page with the login link once the web interface answers; when the service cannot be started,
the page says so in plain words with what to do, and stderr says it too.

There is no systemd user manager here (the end-to-end test, tests/e2e/systemd-e2e.sh, runs the
real start under one), so these tests check the failure and, in Chromium, that the starting
page reloads itself from the file and follows the link once `ui` rewrites it.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
import time

from conftest import BIN, free_port, wait_until
from test_web import browser, web  # noqa: F401  (fixtures)


def recording_xdg_open(tmp_path):
    """An xdg-open that copies the page it is given, as it is at that moment, and its argv."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    record = tmp_path / "xdg-open.json"
    (bin_dir / "xdg-open").write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import json, sys
        json.dump({{"argv": sys.argv, "page": open(sys.argv[1]).read()}}, open({str(record)!r}, "w"))
        """))
    (bin_dir / "xdg-open").chmod(0o755)
    return bin_dir, record


def check_csp(page: str):
    """The page allows nothing but its own style, by hash, and the hash is the style's."""
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    assert csp == f"default-src 'none'; style-src 'sha256-{digest}'", csp
    assert "<script" not in page


def test_with_no_user_manager_the_browser_says_what_to_do_and_stderr_too(hs, tmp_path):
    bin_dir, record = recording_xdg_open(tmp_path)
    env = {"HEALTHSPOOL_WEB_ENABLED": "true", "HEALTHSPOOL_WEB_PORT": str(free_port()),
           "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    out = hs.run("ui", env=env, check=False, timeout=30)
    assert out.returncode == 1, out
    # stderr: what it tried, the plain words, and the detail.
    assert "starting the healthspool service" in out.stderr, out.stderr
    assert "this session has no service manager (systemd)" in out.stderr, out.stderr
    assert f"no systemd user manager answers at {hs.runtime}/systemd/private" in out.stderr, out.stderr
    # The browser was opened (at once, on the page that says the journal is starting: the last
    # test sees that page), and the page now says what went wrong and what to do, and no longer reloads.
    assert wait_until(record.exists, 10)
    page_path = hs.runtime / "healthspool" / "login.html"
    assert json.loads(record.read_text())["argv"][1:] == [str(page_path)]
    page = page_path.read_text()
    assert "Your health journal could not start" in page
    assert "Log out and log in again, then open Health journal from your applications menu." in page, page
    assert 'http-equiv="refresh"' not in page and "token=" not in page
    check_csp(page)
    assert oct(page_path.stat().st_mode & 0o777) == "0o600"


def test_no_open_starts_nothing_and_still_prints_the_link(hs):
    out = hs.run("ui", "--no-open", env={"HEALTHSPOOL_WEB_ENABLED": "true"})
    assert "/login?token=" in out.stdout
    assert "the daemon is not running" in out.stderr and "starting the healthspool service" not in out.stderr
    assert not (hs.runtime / "healthspool" / "login.html").exists()


def test_in_chromium_the_starting_page_reloads_until_the_journal_answers(web, browser):
    """ui with a daemon that runs but whose web interface does not answer yet (here: it listens on
    another port until the test restarts it on the port ui waits for), and no xdg-open, so that
    ui names the page and Chromium opens it as xdg-open would."""
    later = free_port()
    env = {**web.hs.env, **web.env, "HEALTHSPOOL_WEB_PORT": str(later), "PATH": "/nonexistent"}
    ui = subprocess.Popen([BIN, "ui"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = ui.stderr.readline()
        page = line.rsplit(" ", 1)[-1].strip()
        assert page.endswith("login.html"), line
        starting = open(page).read()
        assert "<title>Starting your health journal…</title>" in starting, starting
        assert '<meta http-equiv="refresh" content="1">' in starting and "token=" not in starting
        check_csp(starting)
        # The browser shows the starting page and keeps reloading it from the file...
        browser.get("file://" + page)
        assert browser.title == "Starting your health journal…"
        time.sleep(2.5)
        assert browser.current_url == "file://" + page and browser.title == "Starting your health journal…"
        # ...until the web interface answers: ui writes the login link into the page, and the
        # next reload opens the journal, logged in.
        web.hs.stop()
        web.hs.start(env={**web.env, "HEALTHSPOOL_WEB_PORT": str(later)})
        base = f"http://{web.address}:{later}"
        assert wait_until(lambda: browser.current_url.startswith(base) and "<h1>" in browser.page_source, 30), browser.current_url
        assert any(c["name"] == "hs_session" for c in browser.get_cookies())
        assert ui.wait(30) == 0
        assert "Your health journal is ready" in ui.stdout.read()
        check_csp(open(page).read())
        csp_errors = [e for e in browser.get_log("browser") if "Content Security Policy" in e.get("message", "")]
        assert csp_errors == [], csp_errors
    finally:
        if ui.poll() is None:
            ui.kill()
            ui.wait()
