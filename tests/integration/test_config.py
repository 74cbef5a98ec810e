"""`healthspool config check` and `config show` against the real binary: every config layer
(the /etc file, the user's file, the environment, --set), file:line errors with exit status 78,
origins, masked secrets. The checks themselves (every bad line, the files that settings name, the
ingest and metrics files, the web secret, the notes folder, auth without a secret) are
ConfigCheckTests' (Swift, on real files): here, what only the binary shows."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = ROOT / "etc" / "healthspool" / "healthspool.conf"


def system_file(hs, text: str) -> Path:
    path = Path(hs.env["HEALTHSPOOL_SYSTEM_CONFIG"])
    path.write_text(text)
    return path


def user_file(hs, text: str) -> Path:
    path = hs.home / ".config" / "healthspool" / "healthspool.conf"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_check_accepts_the_shipped_etc_file(hs):
    p = hs.run("config", "check", env={"HEALTHSPOOL_SYSTEM_CONFIG": str(SHIPPED)})
    first, *rest = p.stdout.splitlines()
    assert first.startswith("OK: ") and str(SHIPPED) in first, p.stdout
    # Then facts, not problems (issue 31): where the secrets live, whether the data is encrypted.
    assert all(l.startswith(("secret:", "protection:", "             warning:")) for l in rest), p.stdout
    assert p.stderr == ""


def test_check_reports_a_bad_value_in_the_etc_file_with_file_and_line(hs):
    path = system_file(hs, "# system\n\nsync.frequency = sometimes\n")
    p = hs.run("config", "check", check=False)
    assert p.returncode == 78, p
    assert f"{path}:3: sync.frequency: 'sometimes' is not one of" in p.stderr, p.stderr


def test_check_reports_a_bad_environment_variable_and_a_bad_set(hs):
    p = hs.run("config", "check", "--set", "log.level=loud", check=False,
               env={"HEALTHSPOOL_SYNC_SENDERS": "99", "HEALTHSPOOL_SYNC_SENDRES": "2"})
    assert p.returncode == 78, p
    assert "HEALTHSPOOL_SYNC_SENDERS: sync.senders: '99' is not a whole number from 1 to 16" in p.stderr, p.stderr
    assert "command line: log.level: 'loud' is not one of" in p.stderr, p.stderr
    # An unknown variable is ignored by the daemon: a warning, with the likely intended name.
    assert "environment HEALTHSPOOL_SYNC_SENDRES: warning: no such setting (did you mean 'HEALTHSPOOL_SYNC_SENDERS'?)" in p.stderr


def test_check_json_lists_errors_with_their_origin(hs):
    path = user_file(hs, "sync.throttle_seconds = -5\n")
    p = hs.run("config", "check", "--json", check=False)
    assert p.returncode == 78
    report = json.loads(p.stdout)
    assert report["ok"] is False and report["warnings"] == []
    [error] = report["errors"]
    assert error["origin"] == f"{path}:1" and error["key"] == "sync.throttle_seconds"
    assert json.loads(hs.run("config", "check", "--json", env={"HEALTHSPOOL_SYSTEM_CONFIG": str(SHIPPED)},
                             check=False).stdout)["ok"] is False  # the user file is still there
    path.unlink()
    report = json.loads(hs.run("config", "check", "--json").stdout)
    assert {k: report[k] for k in ("ok", "errors", "warnings")} == {"ok": True, "errors": [], "warnings": []}
    assert [s["name"] for s in report["secrets"]] == ["web.secret"] and report["secrets"][0]["kind"] == "none"
    assert [p["role"] for p in report["protection"]["places"]] == ["store", "WAL", "notes audio", "archive/", "failed/"]


def test_check_refuses_a_credentials_file_others_can_read(hs):
    secret = hs.home / "gateway.secret"
    secret.write_text("s3cr3t-token\n")
    secret.chmod(0o644)
    path = user_file(hs, f"gateway.url = https://gw.example/topics/x\ngateway.auth = bearer\ngateway.credentials_file = {secret}\n")
    p = hs.run("config", "check", check=False)
    assert p.returncode == 78, p
    assert f"{path}:3: gateway.credentials_file: credentials file {secret} is readable by group or others" in p.stderr
    assert f"chmod 600 {secret}" in p.stderr and "s3cr3t" not in p.stderr + p.stdout
    secret.chmod(0o600)
    assert hs.run("config", "check").stdout.startswith("OK: ")


def test_show_names_the_origin_of_every_layer(hs):
    etc = system_file(hs, "# site defaults\ngateway.topic = site-topic\nsync.frequency = daily\n")
    mine = user_file(hs, "[sync]\nfrequency = Hourly\n")
    env = {"HEALTHSPOOL_GATEWAY_BATCH_SIZE": "50"}
    rows = {r["key"]: r for r in json.loads(hs.run("config", "show", "--json", "--set", "log.level=debug", env=env).stdout)}
    assert rows["gateway.topic"] == {"key": "gateway.topic", "value": "site-topic", "masked": False, "origin": "system",
                                     "where": f"{etc}:2", "file": str(etc), "line": 2}
    assert rows["sync.frequency"]["origin"] == "user" and rows["sync.frequency"]["where"] == f"{mine}:2"
    assert rows["sync.frequency"]["value"] == "hourly"  # as read: values from a set are case-insensitive
    assert rows["gateway.batch_size"]["origin"] == "environment" and rows["gateway.batch_size"]["variable"] == "HEALTHSPOOL_GATEWAY_BATCH_SIZE"
    assert rows["log.level"]["origin"] == "command-line" and rows["log.level"]["where"] == "--set"
    assert rows["gateway.cluster"] == {"key": "gateway.cluster", "value": "cluster", "masked": False, "origin": "default", "where": "default"}
    text = hs.run("config", "show", "--set", "log.level=debug", env=env).stdout.splitlines()
    line = next(l for l in text if l.startswith("gateway.topic "))
    assert line.split() == ["gateway.topic", "site-topic", f"{etc}:2"]
    assert next(l for l in text if l.startswith("log.level ")).split() == ["log.level", "debug", "--set"]


def test_show_lines_up_its_columns(hs):
    user_file(hs, "gateway.url = https://a-rather-long-gateway-host-name.example.org/topics/health-samples\n")
    lines = hs.run("config", "show").stdout.split("\n\n")[0].splitlines()   # the table; the secrets' places follow it
    header = lines[0]
    value_at, origin_at = header.index("VALUE"), header.index("ORIGIN")
    for line in lines[1:]:
        assert line[value_at - 2:value_at] == "  " and line[value_at] != " ", line
        assert line[origin_at - 2:origin_at] == "  " and line[origin_at] != " ", line


def test_show_masks_secrets_in_text_and_json(hs):
    user_file(hs, "gateway.url = https://alice:hunter2@gw.example/topics/x?token=abc123\n")
    text = hs.run("config", "show").stdout
    raw = hs.run("config", "show", "--json").stdout
    for out in (text, raw):
        assert "hunter2" not in out and "abc123" not in out and "alice" not in out
    row = next(r for r in json.loads(raw) if r["key"] == "gateway.url")
    assert row["masked"] is True and row["value"] == "https://********@gw.example/topics/x?********"
    assert "https://********@gw.example/topics/x?********" in text
    # The daemon refuses credentials in the URL; check says so without printing them either.
    p = hs.run("config", "check", check=False)
    assert p.returncode == 78 and "gateway.url" in p.stderr and "hunter2" not in p.stderr


def test_show_exits_78_on_a_bad_file(hs):
    path = user_file(hs, "sync.frequency = often\n")
    p = hs.run("config", "show", check=False)
    assert p.returncode == 78 and f"{path}:1: sync.frequency" in p.stderr
