"""Another local user against the web interface, round two (issue 39): a browser keeps cookies by
host, not by port, so a page the other user serves on the person's own loopback address (at
another port) can set cookies for the journal's address, and send the browser to any address of
the journal's. Real daemon, real second account (root only), real Chromium:

- a cookie bomb (40 cookies of 4 KB) leaves every page served, the login link included;
- a tossed `hs_session` is told plainly (not a bare login page), logged once, and a fresh login works;
- an `hs_session` of the other user's for a deeper path does not hide the person's own;
- `?ok=`/`?error=` text in an address is never shown inside the logged-in page."""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from conftest import free_port, wait_until
from test_web import Web, browser, listening, web  # noqa: F401  (browser and web are fixtures)
from test_web_isolation import as_other, listening_on, other_user  # noqa: F401  (other_user is a fixture)


def serve_setting_cookies(user, address: str, port: int, cookies: str, then: str = "") -> object:
    """Another user's HTTP server on `address`:`port`: its page sets `cookies` (a Python
    expression of a list of Set-Cookie values, made in the server: a bomb is too long for a
    command line) and, with `then`, sends the browser on to that address."""
    refresh = f'<meta http-equiv="refresh" content="0;url={then}">' if then else ""
    return as_other(user, f"""
        import http.server
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                for c in {cookies}:
                    self.send_header("Set-Cookie", c)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(({"<!doctype html><title>neighbour</title>" + refresh!r} + "<p>set</p>").encode())
            def log_message(self, *a):
                pass
        http.server.HTTPServer(({address!r}, {port}), H).serve_forever()
    """)


def visit_neighbour(browser, web, other_user, cookies: str, then: str = ""):
    """The browser, logged in, visits the other user's page once (it sets `cookies`)."""
    port = free_port()
    server = serve_setting_cookies(other_user, web.address, port, cookies, then)
    try:
        assert wait_until(lambda: listening_on(web.address, port), 10)
        browser.get(f"http://{web.address}:{port}/")
        assert wait_until(lambda: "set" in browser.page_source or (then and then in browser.current_url), 10), browser.page_source[:300]
        if then:
            assert wait_until(lambda: browser.current_url.startswith(web.base), 10), browser.current_url
    finally:
        server.kill()
        server.wait()


def log_in(browser, web):
    browser.get(web.link())
    assert wait_until(lambda: "<h1>" in browser.page_source and "Today" in browser.title, 10), browser.page_source[:500]


BOMB = """[f"bomb{i}={'x' * 4000}; Path=/; Max-Age=3600" for i in range(40)]"""


def test_a_cookie_bomb_from_another_users_page_leaves_every_page_and_the_login_link_served(web, browser, other_user):
    """Before: NIO's 80 KB head limit answered 400 to every page, login links included."""
    log_in(browser, web)
    visit_neighbour(browser, web, other_user, BOMB)
    jar = [c for c in browser.get_cookies() if c["name"].startswith("bomb")]
    assert len(jar) == 40, len(jar)
    for path in ["/", "/journal", "/meds", "/settings"]:
        browser.get(web.base + path)
        assert "Health journal" in browser.title and "Please log in" not in browser.page_source, (path, browser.page_source[:300])
    # A fresh login link works too, and it expires the cookies it can name (a fresh start).
    log_in(browser, web)
    assert wait_until(lambda: not [c for c in browser.get_cookies() if c["name"].startswith("bomb")], 5), \
        [c["name"] for c in browser.get_cookies()]
    # The head is still capped: a head over 1 MiB is refused, the daemon lives on.
    r, _ = web.request("GET", "/", {"Cookie": "big=" + "x" * (1 << 20)})
    assert r.status in (400, 431), r.status
    r, _ = web.request("GET", "/login")
    assert r.status == 401


def test_a_tossed_session_cookie_is_told_plainly_logged_once_and_a_fresh_login_works(web, browser, other_user):
    log_in(browser, web)
    visit_neighbour(browser, web, other_user, repr(["hs_session=forged-by-the-neighbour; Path=/; Max-Age=3600"]))
    assert [c["value"] for c in browser.get_cookies() if c["name"] == "hs_session"] == ["forged-by-the-neighbour"]
    browser.get(web.base + "/journal")
    assert "Your login was replaced" in browser.title, browser.page_source[:500]
    body = browser.find_element("tag name", "body").text
    assert "did not set" in body and "applications menu" in body, body
    # The page expired the tossed cookie: the pages after it ask to log in; logged once.
    assert not [c for c in browser.get_cookies() if c["name"] == "hs_session"], browser.get_cookies()
    for _ in range(2):
        browser.get(web.base + "/journal")
        assert "Please log in" in browser.title, browser.title
    log = web.hs.read_log()
    assert log.count("session cookie the journal did not set") == 1, log
    # A login link logs in again.
    log_in(browser, web)
    browser.get(web.base + "/journal")
    assert "Journal" in browser.title, browser.title


def test_a_session_cookie_of_another_users_for_a_deeper_path_does_not_hide_the_persons_own(web, browser, other_user):
    """The browser sends the cookie of the longest path first: both come, the live one serves."""
    log_in(browser, web)
    visit_neighbour(browser, web, other_user, repr(["hs_session=forged; Path=/journal; Max-Age=3600"]))
    browser.get(web.base + "/journal")
    assert len([c for c in browser.get_cookies() if c["name"] == "hs_session"]) == 2, browser.get_cookies()
    assert "Journal" in browser.title and "replaced" not in browser.title, browser.page_source[:500]


def test_message_text_in_an_address_from_another_users_page_is_not_shown(web, browser, other_user):
    log_in(browser, web)
    lure = web.base + "/?ok=Your%20health%20data%20was%20lost.%20Call%20555-0100&error=Call%20555-0100&emergency=1"
    visit_neighbour(browser, web, other_user, "[]", then=lure)
    assert wait_until(lambda: "Today" in browser.title, 10), browser.page_source[:300]
    body = browser.find_element("tag name", "body").text
    assert "555-0100" not in body and "was lost" not in body, body
    assert not browser.find_elements("css selector", ".notice.ok, .notice.error, #emergency")
