"""Another local user against the web interface (issue 26): the real daemon, real sockets, a real
second account (`useradd`, root only; skipped with a message otherwise) and real Chromium.

- 2,000 half-sent request heads from another user leave the daemon importing, answering
  `status`, feeding the watchdog and serving its own user, on 1,024 file descriptors;
- the session cookie never reaches another user's server on loopback;
- a port taken by another user is a warning and a line in `status`, not an exit; `healthspool ui`
  refuses to send a link there; the web interface starts once the port is free;
- the login link reaches the browser through a 0600 page, never a command line;
- a used link stays used across a restart; an unknown route carries the security headers."""
from __future__ import annotations

import http.client
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import pytest

from conftest import free_port, samples, wait_until, web_address
from test_daemon_under_load import NotifyListener
from test_web import Web, browser, listening, web  # noqa: F401  (browser and web are fixtures)

OTHER = "hs-other"


def make_other_user():
    """The second local account (made once; root only). Also used by bench/ingest-flood.py.
    Parallel test workers (pytest-xdist) make it one at a time: a lock file, then a second look."""
    import fcntl
    with open("/run/lock/healthspool-test-other-user.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            pwd.getpwnam(OTHER)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER], check=True)
    return pwd.getpwnam(OTHER)


@pytest.fixture(scope="module")
def other_user():
    """A second local account, made for the test (root only)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to create and run as a second user (useradd)")
    return make_other_user()


def as_other(user, script: str, **kw) -> subprocess.Popen:
    """Runs a Python script as the second user, with room for many sockets."""
    prelude = "import resource\nresource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))\n"
    return subprocess.Popen(["/usr/bin/python3", "-c", prelude + textwrap.dedent(script)], user=user.pw_uid, group=user.pw_gid,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/", **kw)


def daemon_fds(hs) -> int:
    return len(os.listdir(f"/proc/{hs.daemon.pid}/fd"))


def test_two_thousand_half_sent_heads_from_another_user_leave_the_daemon_working(hs, gateway, other_user, tmp_path):
    """Run on 1,024 descriptors, as systemd's default soft limit: before the connection bounds,
    the daemon accepted every connection and ran out of descriptors."""
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    web = Web(hs, free_port())
    notify = NotifyListener(tmp_path / "notify.sock")
    hs.env["HEALTHSPOOL_WEB_ENABLED"] = "true"
    hs.start(env={**web.env, "NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": "4000000"}, nofile=1024)
    assert wait_until(lambda: listening(web.port), 15), hs.read_log()
    attack = as_other(other_user, f"""
        import socket, sys, time
        held, refused = [], 0
        for _ in range(2000):
            s = socket.socket()
            s.settimeout(0.2)
            try:
                s.connect(("{web.address}", {web.port}))
                s.send(b"GET / HTTP/1.1\\r\\nHost: {web.address}:{web.port}\\r\\nX-Slow: ")
                held.append(s)
            except OSError:
                refused += 1
                s.close()
        print("opened", len(held), "refused", refused, flush=True)
        time.sleep(20)
    """)
    line = attack.stdout.readline()
    assert line.startswith("opened"), line + attack.stderr.read()
    t0 = time.monotonic()
    # While the connections are held: an import, status, the owner's own pages, the watchdog.
    hs.drop("during.json", json.dumps(samples(25)))
    assert wait_until(lambda: hs.status()["store"]["samples"] == 25, 20), hs.read_log()
    gateway.wait_for_samples(25)
    assert daemon_fds(hs) < 400, daemon_fds(hs)
    cookie, _ = web.session()
    r, _ = web.request("GET", "/", {"Cookie": cookie})
    assert r.status == 200
    time.sleep(max(0.0, 10 - (time.monotonic() - t0)))
    pings = notify.keepalives(since=t0)
    assert len(pings) >= 4, notify.messages
    attack.kill()
    attack.wait()
    # Once they close, the web answers at once.
    r, _ = web.request("GET", "/", {"Cookie": cookie})
    assert r.status == 200
    assert "Too many open files" not in hs.read_log()


def test_half_sent_heads_are_closed_after_the_head_deadline(web):
    s = socket.create_connection((web.address, web.port), timeout=30)
    s.sendall(b"GET / HTTP/1.1\r\nHost: ")
    t0 = time.monotonic()
    assert s.recv(100) == b""   # closed by the daemon, not answered
    waited = time.monotonic() - t0
    assert 5 < waited < 20, waited
    s.close()


def serve_recording(user, address: str, port: int, log: Path, page: str) -> subprocess.Popen:
    """Another user's HTTP server on `address`:`port`: records every request's Cookie header."""
    return as_other(user, f"""
        import http.server
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with open({str(log)!r}, "a") as f:
                    f.write(self.path + " " + repr(self.headers.get("Cookie")) + "\\n")
                body = {page!r}.encode() if self.path == "/" else b"x"
                self.send_response(200)
                self.send_header("Content-Type", "text/html" if self.path == "/" else "image/gif")
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *a):
                pass
        http.server.HTTPServer(({address!r}, {port}), H).serve_forever()
    """)


def test_a_session_cookie_does_not_go_cross_site_and_is_of_no_use_to_another_user(web, other_user, browser):
    """A browser sends a cookie to every port of its host. SameSite=Strict keeps the session
    cookie off the requests another site starts (an image, a redirect that lands on the user's
    address at another user's port); but the page that lands there is then same-site, and its
    own requests (the favicon) carry the cookie to that other user's server. So the server
    honours a session only on the owner's connections: the other user, replaying the stolen
    cookie, gets 403 and nothing of the journal."""
    shared = Path(tempfile.mkdtemp(prefix="hs-other-"))
    os.chmod(shared, 0o777)
    log = shared / "stolen.log"
    log.touch()
    os.chmod(log, 0o666)
    p1, p2 = free_port(), free_port()
    # A server of the other user's on 127.0.0.1 (where the web interface used to be), and one on
    # the user's own address at another port; the page pulls from both and sends the browser on.
    page = (f'<img src="http://127.0.0.1:{p1}/pixel"><img src="http://{web.address}:{p2}/pixel">'
            f'<meta http-equiv="refresh" content="1;url=http://{web.address}:{p2}/landing">')
    servers = [serve_recording(other_user, "127.0.0.1", p1, log, page),
               serve_recording(other_user, web.address, p2, log, page)]
    try:
        assert wait_until(lambda: listening_on("127.0.0.1", p1) and listening_on(web.address, p2), 10)
        browser.get(web.link())
        assert wait_until(lambda: "Please log in" not in browser.page_source and "<h1>" in browser.page_source, 10)
        cookie = next(c["value"] for c in browser.get_cookies() if c["name"] == "hs_session")
        browser.get(f"http://127.0.0.1:{p1}/")
        assert wait_until(lambda: "/landing" in log.read_text(), 15), log.read_text()
        lines = log.read_text().splitlines()
        assert any(line.startswith("/pixel") for line in lines), lines
        cross_site = [line for line in lines if line.startswith(("/pixel", "/landing", "/ "))]
        assert not [line for line in cross_site if "hs_session" in line], lines
    finally:
        for s in servers:
            s.kill()
            s.wait()
    # The stolen cookie, from the other user's own connection: refused, nothing shown.
    replay = as_other(other_user, f"""
        import http.client
        for method, path, body in (("GET", "/", None), ("GET", "/journal", None), ("POST", "/symptoms/log", "name=x")):
            c = http.client.HTTPConnection({web.address!r}, {web.port}, timeout=10)
            c.request(method, path, body=body, headers={{"Cookie": "hs_session={cookie}", "Host": "{web.address}:{web.port}",
                                                        "Origin": "http://{web.address}:{web.port}",
                                                        "Content-Type": "application/x-www-form-urlencoded"}})
            r = c.getresponse()
            print(method, path, r.status, r.read().decode(errors="replace").replace("\\n", " ")[:4000], flush=True)
    """)
    out, err = replay.communicate(timeout=60)
    answers = out.splitlines()
    assert len(answers) == 3, (out, err)
    for line in answers:
        assert " 403 " in line and "belongs to another user" in line, line
        assert "Today" not in line and "Log a symptom" not in line, line
    # The same cookie on the owner's connection is a live session.
    r, page = web.request("GET", "/", {"Cookie": f"hs_session={cookie}"})
    assert r.status == 200, (r.status, page[:300])


def listening_on(address: str, port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex((address, port)) == 0


def test_a_port_taken_by_another_user_is_a_warning_and_ui_refuses_it(hs, gateway, other_user):
    port = free_port()
    address = web_address()
    squatter = as_other(other_user, f"""
        import socket, time
        s = socket.socket()
        s.bind(({address!r}, {port}))
        s.listen(16)
        print("listening", flush=True)
        time.sleep(60)
    """)
    assert squatter.stdout.readline().strip() == "listening", squatter.stderr.read()
    env = {"HEALTHSPOOL_WEB_ENABLED": "true", "HEALTHSPOOL_WEB_PORT": str(port), "HEALTHSPOOL_WEB_RETRY_SECONDS": "1"}
    hs.env.update(env)
    try:
        hs.start()
        assert wait_until(lambda: hs.status()["web"]["state"] == "unavailable", 15), hs.read_log()
        time.sleep(3)   # several tries to listen
        assert hs.daemon.poll() is None, hs.read_log()
        web = hs.status()["web"]
        assert web["problem"] == f"port {port} is used by another program", web
        assert f"port {port} is used by another program" in hs.run("status").stdout
        assert hs.read_log().count("is used by another program") == 1, hs.read_log()   # said once, not every try
        ui = hs.run("ui", "--no-open", check=False)
        assert ui.returncode == 1 and "another user's program" in ui.stderr and "token=" not in ui.stdout + ui.stderr, ui
    finally:
        squatter.kill()
        squatter.wait()
    # Once the port is free, the daemon takes it within its retry interval.
    assert wait_until(lambda: hs.status()["web"]["state"] == "listening", 15), hs.read_log()
    w = Web(hs, port)
    cookie, _ = w.session()
    assert w.request("GET", "/", {"Cookie": cookie})[0].status == 200


def test_the_login_link_reaches_the_browser_through_a_private_page_not_a_command_line(web, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "xdg-open.json"
    (bin_dir / "xdg-open").write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import json, os, sys
        st = os.stat(sys.argv[1])
        json.dump({{"argv": sys.argv, "env": dict(os.environ), "mode": st.st_mode & 0o777,
                   "dirMode": os.stat(os.path.dirname(sys.argv[1])).st_mode & 0o777,
                   "page": open(sys.argv[1]).read()}}, open({str(record)!r}, "w"))
        """))
    (bin_dir / "xdg-open").chmod(0o755)
    out = web.hs.run("ui", env={**web.env, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert "token=" not in out.stdout + out.stderr
    assert wait_until(record.exists, 10)
    seen = json.loads(record.read_text())
    assert not any("token=" in a for a in seen["argv"]), seen["argv"]
    assert not any("token=" in v for v in seen["env"].values())
    assert seen["mode"] == 0o600 and seen["dirMode"] == 0o700, seen
    link = seen["page"].split('url=')[1].split('"')[0]
    assert link.startswith(web.base + "/login?token=")
    r, _ = web.request("GET", link[len(web.base):])
    assert r.status == 303


def test_the_private_page_opens_the_journal_in_chromium(web, browser):
    out = web.hs.run("ui", env={**web.env, "PATH": "/nonexistent"}, check=False)   # no xdg-open: the page is named
    assert "token=" not in out.stdout + out.stderr
    page = out.stderr.rsplit(" ", 1)[-1].strip()
    assert page.endswith("login.html"), out.stderr
    browser.get("file://" + page)
    assert wait_until(lambda: browser.current_url.startswith(web.base) and "<h1>" in browser.page_source, 15), browser.current_url
    assert any(c["name"] == "hs_session" for c in browser.get_cookies())


def test_a_used_link_stays_used_after_a_restart(web):
    link = web.link()
    path = link[len(web.base):]
    assert web.request("GET", path)[0].status == 303
    web.hs.stop()
    web.hs.start(env=web.env)
    assert wait_until(lambda: listening(web.port), 15), web.hs.read_log()
    r, body = web.request("GET", path)
    assert r.status == 401 and b"expired" in body


def test_an_unknown_route_carries_the_security_headers(web):
    cookie, csrf = web.session()
    for headers in ({}, {"Cookie": cookie}):
        for method in ("GET", "POST"):
            extra = {"Origin": web.base, "X-CSRF-Token": csrf} if method == "POST" else {}
            r, body = web.request(method, "/no/such/page", {**headers, **extra}, "" if method == "POST" else None)
            assert r.status in (401, 404), (method, headers, r.status)
            assert r.getheader("Content-Security-Policy", "").startswith("default-src 'none'"), (method, r.status)
            assert r.getheader("X-Frame-Options") == "DENY"
    r, body = web.request("GET", "/no/such/page", {"Cookie": cookie})
    assert r.status == 404 and b"No such page" in body
