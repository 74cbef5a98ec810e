"""Metrics (issue 19): the real daemon writes its Prometheus metrics to a node_exporter textfile
and serves them at /metrics on the web interface (bearer token). Both are parsed with PyPI's
prometheus-client parser, the reference reading of the text format."""
from __future__ import annotations

import http.client
import json
import os
import socket
import stat
import threading
import time

from prometheus_client.parser import text_string_to_metric_families

from conftest import free_port, samples, wait_until, web_address
from test_daemon_under_load import notify  # noqa: F401 - the fixture: systemd's end of sd_notify


def parse(text: str) -> dict:
    """{(sample name, ((label, value), …)): value} from exposition text; raises when it is not valid."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def total(values: dict, name: str) -> float:
    return sum(v for (n, _), v in values.items() if n == name)


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex((web_address(), port)) == 0


class Setup:
    def __init__(self, hs, gateway, env: dict | None = None):
        self.hs = hs
        self.port = free_port()
        self.textfile = hs.home / "node-exporter" / "healthspool.prom"
        self.textfile.parent.mkdir()
        hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
        hs.start(env={"HEALTHSPOOL_WEB_ENABLED": "true", "HEALTHSPOOL_WEB_PORT": str(self.port),
                      "HEALTHSPOOL_METRICS_TEXTFILE": str(self.textfile), **(env or {})})
        assert wait_until(lambda: listening(self.port), 15), hs.read_log()
        self.token_file = hs.state / "metrics.token"
        assert wait_until(self.token_file.exists, 10), hs.read_log()

    def scrape(self, token: str | None = None, host: str | None = None):
        c = http.client.HTTPConnection(web_address(), self.port, timeout=10)
        headers = {"Host": host or f"{web_address()}:{self.port}"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        c.request("GET", "/metrics", headers=headers)
        r = c.getresponse()
        body = r.read().decode()
        c.close()
        return r, body

    def token(self) -> str:
        return self.token_file.read_text().strip()

    def textfile_values(self) -> dict | None:
        try:
            return parse(self.textfile.read_text())
        except FileNotFoundError:
            return None


def test_textfile_and_scrape_show_an_import_and_a_sync(hs, gateway):
    m = Setup(hs, gateway)
    n = 25
    hs.drop("a.json", json.dumps(samples(n)))
    gateway.wait_for_samples(n)

    def settled():
        v = m.textfile_values()
        return v if v and v.get(("healthspool_samples_synced", ())) == n \
            and v.get(("healthspool_sync_attempts_total", (("outcome", "success"),)), 0) >= 1 else None
    values = wait_until(settled, 30)
    assert values, (m.textfile.read_text() if m.textfile.exists() else "no textfile", hs.read_log())
    r, body = m.scrape(m.token())
    assert r.status == 200, body
    assert r.getheader("Content-Type").startswith("text/plain; version=0.0.4")
    scraped = parse(body)
    now = time.time()
    for v in (values, scraped):
        assert v[("healthspool_samples_stored", ())] == n
        assert v[("healthspool_samples_synced", ())] == n
        assert v[("healthspool_samples_queued", (("type", "heartRate"),))] == 0
        assert total(v, "healthspool_samples_queued") == 0
        assert total(v, "healthspool_dead_letters") == 0
        assert v[("healthspool_samples_sent_total", ())] == n
        assert v[("healthspool_imports_total", (("outcome", "imported"),))] == 1
        assert v[("healthspool_imports_total", (("outcome", "failed"),))] == 0
        assert v[("healthspool_sync_attempts_total", (("outcome", "success"),))] >= 1
        assert v[("healthspool_sync_attempts_total", (("outcome", "failed"),))] == 0
        assert abs(v[("healthspool_sync_last_success_timestamp_seconds", ())] - now) < 60
        assert v[("healthspool_gateway_up", ())] == 1
        assert v[("healthspool_gateway_request_duration_seconds_count", ())] >= 1
        assert v[("healthspool_gateway_request_duration_seconds_bucket", (("le", "+Inf"),))] \
            == v[("healthspool_gateway_request_duration_seconds_count", ())]
        assert [k for k in v if k[0] == "healthspool_build_info"][0][1][0][0] == "version"
        assert v[("healthspool_watchdog_keepalives_total", ())] == 0   # no WATCHDOG_USEC here
    # node_exporter runs as another user: the file is readable by all, written by the daemon's user.
    assert stat.S_IMODE(m.textfile.stat().st_mode) == 0o644
    assert stat.S_IMODE(m.token_file.stat().st_mode) == 0o600
    assert hs.stop() == 0


def test_gateway_down_shows_as_gateway_up_zero_and_a_failed_attempt(hs, gateway):
    m = Setup(hs, gateway)
    gateway.fail_next(1000, 503)
    hs.drop("a.json", json.dumps(samples(5)))

    def down():
        r, body = m.scrape(m.token())
        v = parse(body)
        return v if v.get(("healthspool_gateway_up", ())) == 0 else None
    v = wait_until(down, 30, interval=0.5)
    assert v, hs.read_log()
    assert v[("healthspool_sync_attempts_total", (("outcome", "failed"),))] >= 1
    assert v[("healthspool_samples_queued", (("type", "heartRate"),))] == 5
    assert v[("healthspool_sync_last_success_timestamp_seconds", ())] == 0
    assert hs.stop() == 0


def test_scrapes_without_or_with_a_wrong_token_get_401_and_a_foreign_host_403(hs, gateway):
    m = Setup(hs, gateway)
    r, body = m.scrape()
    assert r.status == 401 and r.getheader("WWW-Authenticate").startswith("Bearer"), (r.status, body)
    assert "healthspool_" not in body
    r, body = m.scrape("0" * 64)
    assert r.status == 401 and 'error="invalid_token"' in r.getheader("WWW-Authenticate")
    assert "healthspool_" not in body
    r, _ = m.scrape(m.token()[:-1])
    assert r.status == 401
    # The DNS-rebinding check comes first: the right token from a foreign Host is refused.
    r, body = m.scrape(m.token(), host=f"attacker.example:{m.port}")
    assert r.status == 403 and "healthspool_" not in body
    # A session cookie is not needed, and the token is all it takes.
    r, body = m.scrape(m.token())
    assert r.status == 200 and "healthspool_build_info" in body
    # The token stays the same across restarts.
    token = m.token()
    assert hs.stop() == 0
    hs.start(env={"HEALTHSPOOL_WEB_ENABLED": "true", "HEALTHSPOOL_WEB_PORT": str(m.port)})
    assert wait_until(lambda: listening(m.port), 15)
    assert m.scrape(token)[0].status == 200
    assert hs.stop() == 0


def synced(m: Setup) -> float | None:
    """healthspool_samples_synced as the textfile says it now."""
    return parse(m.textfile.read_text()).get(("healthspool_samples_synced", ()))


def test_the_textfile_is_replaced_atomically_never_seen_half_written(hs, gateway):
    m = Setup(hs, gateway)
    assert wait_until(m.textfile.exists, 15), hs.read_log()
    reads, inodes, errors = [0], set(), []
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            try:
                with open(m.textfile, "rb") as f:
                    inodes.add(os.fstat(f.fileno()).st_ino)
                    data = f.read().decode()
                assert data.endswith("\n") and "# TYPE healthspool_watchdog_keepalives_total counter" in data, data[-200:]
                parse(data)
                reads[0] += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported below
                errors.append(repr(e))
    t = threading.Thread(target=reader)
    t.start()
    try:
        for i in range(4):
            hs.drop(f"f{i}.json", json.dumps(samples(10, start=100 * i)))
            gateway.wait_for_samples(10 * (i + 1))
            # A round of the textfile loop writes the new count: one more replacement, no fixed sleep.
            assert wait_until(lambda: synced(m) == 10 * (i + 1), 15), m.textfile.read_text()
        changed = wait_until(lambda: len(inodes) >= 3, 20)
    finally:
        stop.set()
        t.join()
    assert not errors, errors[:3]
    assert changed, f"the file was replaced {len(inodes) - 1} time(s) in {reads[0]} reads"
    assert reads[0] > 100
    assert synced(m) == 40, m.textfile.read_text()
    # No temporary file is left beside it (node_exporter reads only *.prom, but still).
    assert sorted(os.listdir(m.textfile.parent)) == ["healthspool.prom"]
    assert hs.stop() == 0


def test_watchdog_keepalives_are_counted_as_systemd_receives_them(hs, gateway, notify):
    m = Setup(hs, gateway, env={"NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": "2000000"})
    assert wait_until(lambda: len(notify.keepalives()) >= 3, 15), notify.messages
    before = len(notify.keepalives())
    r, body = m.scrape(m.token())
    after = len(notify.keepalives())
    counted = parse(body)[("healthspool_watchdog_keepalives_total", ())]
    # A keep-alive is counted once sent: systemd may have it a moment before the counter moves.
    assert before - 1 <= counted <= after, (before, counted, after)
    assert hs.stop() == 0


def test_an_unwritable_textfile_is_logged_once_and_written_once_its_directory_exists(hs, gateway):
    textfile = hs.home / "missing-dir" / "healthspool.prom"
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))
    hs.start(env={"HEALTHSPOOL_METRICS_TEXTFILE": str(textfile)})
    message = f"cannot write the metrics file {textfile}"
    assert wait_until(lambda: message in hs.read_log(), 15), hs.read_log()
    # That later rounds say it no more is MetricsTextfileServiceTests' (on the service clock);
    # here the real daemon says it, says why, and writes the file once the directory exists.
    assert hs.read_log().count(message) == 1, hs.read_log()
    assert "metrics.textfile" in hs.read_log() and "writable" in hs.read_log()
    textfile.parent.mkdir()
    assert wait_until(textfile.exists, 15), hs.read_log()
    assert parse(textfile.read_text())[("healthspool_samples_stored", ())] == 0
    assert hs.read_log().count(message) == 1, hs.read_log()
    assert hs.stop() == 0
