"""CLI conventions against the real binary: -q/-v on every command, "did you mean" for a
mistyped subcommand, completion scripts with values, aligned tables with the longest type
name, case-insensitive values, and times in the local zone."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import time

from conftest import BIN, samples, wait_until


def run_daemon(hs, *flags: str) -> str:
    """Runs `healthspool daemon FLAGS` until it watches the spool, stops it, returns its log."""
    log = hs.home / "daemon-flags.log"
    with open(log, "w") as out:
        p = subprocess.Popen([BIN, "daemon", *flags], env=hs.env, stdout=out, stderr=subprocess.STDOUT)
        try:
            assert wait_until(lambda: (hs.runtime / "healthspool" / "control.sock").exists(), 30)
            time.sleep(0.3)
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait(30)
    return log.read_text()


def test_verbose_logs_debug_lines(hs):
    log = run_daemon(hs, "-v")
    assert re.search(r"^healthspool\[\d+\] debug: ", log, re.M), log
    assert " info: watching " in log


def test_quiet_hides_info_lines(hs):
    log = run_daemon(hs, "--quiet")
    assert " info: " not in log and " notice: " not in log and " debug: " not in log, log
    assert " info: watching " in run_daemon(hs)


def test_quiet_and_verbose_are_accepted_by_every_command_anywhere(hs):
    assert hs.run("-q", "types", "list").returncode == 0
    assert hs.run("config", "-v", "show").returncode == 0
    assert hs.run("history", "-q").stdout.strip() == "no sync attempts yet"
    assert "-q, --quiet" in hs.run("--help").stdout and "-v, --verbose" in hs.run("--help").stdout


def test_a_mistyped_subcommand_gets_did_you_mean(hs):
    p = hs.run("stauts", check=False)
    assert p.returncode == 64 and "Unknown command 'stauts' for 'healthspool'. Did you mean 'status'?" in p.stderr, p.stderr
    p = hs.run("config", "chek", check=False)
    assert p.returncode == 64 and "Did you mean 'check'?" in p.stderr, p.stderr
    p = hs.run("types", "lsit", check=False)
    assert p.returncode == 64 and "Did you mean 'list'?" in p.stderr, p.stderr
    p = hs.run("xyzzy", check=False)
    assert p.returncode == 64 and "Unknown command 'xyzzy'" in p.stderr and "Did you mean" not in p.stderr
    # Options keep ArgumentParser's own hint.
    p = hs.run("status", "--jsno", check=False)
    assert p.returncode == 64 and "--json" in p.stderr


def test_bash_completion_offers_types_frequencies_formats_and_files(hs):
    script = hs.run("--generate-completion-script", "bash").stdout
    for word in ("heartRate", "rapidPoundingOrFlutteringHeartbeat", "cardiovascular", "realtime", "hourly", "manual",
                 "immediate", "confluent-v3", "api-key", "sync.frequency="):
        assert word in script, word
    assert "config" in script and "check" in script
    assert "compgen -A file" in script or "_filedir" in script or "-f" in script
    # Dates are worked out when completing: the script calls back into the binary, which answers.
    assert "---completion" in script
    for shell in ("zsh", "fish"):
        assert "rapidPoundingOrFlutteringHeartbeat" in hs.run("--generate-completion-script", shell).stdout


def test_date_completion_offers_today(hs):
    # As the bash script asks: the option, the word index, the cursor, then the words typed.
    p = hs.run("---completion", "goal", "list", "--", "--date", "3", "0", "healthspool", "goal", "list", "--date", "",
               check=False, env={"TZ": "UTC"})
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert "today" in p.stdout.split() and today in p.stdout.split(), (p.stdout, p.stderr)


def test_types_list_stays_aligned_with_the_longest_type_name(hs):
    lines = [l for l in hs.run("types", "list").stdout.splitlines() if l.startswith("  ")]
    longest = next(l for l in lines if "rapidPoundingOrFlutteringHeartbeat" in l)
    at = re.search(r"rapidPoundingOrFlutteringHeartbeat\s+", longest).end()
    for line in lines:
        assert line[at - 2:at] == "  " and line[at] != " ", line
    freq = [l for l in hs.run("frequency").stdout.splitlines() if l.startswith("  ")]
    columns = {re.search(r"^  \S+\s+", l).end() for l in freq}
    assert len(columns) == 1, columns


def test_values_are_case_insensitive_on_the_command_line_and_in_config(hs):
    assert hs.run("frequency", "Hourly").stdout.strip() == "sync frequency: hourly"
    assert "sync frequency: hourly" in hs.run("frequency").stdout
    assert hs.run("frequency", "IMMEDIATE", "--type", "StepCount").stdout.strip() == "stepCount: immediate"
    hs.run("types", "disable", "Sleep")
    assert any(t["name"] == "sleepAnalysis" and not t["enabled"] for t in json.loads(hs.run("types", "list", "--json").stdout))
    hs.run("config", "check", "--set", "sync.frequency=Daily", "--set", "gateway.format=JSON", "--set", "gateway.gzip=Yes",
           "--set", "log.level=Debug", "--set", "spool.after_import=Delete")
    assert "sync frequency: daily" in hs.run("frequency", env={"HEALTHSPOOL_SYNC_FREQUENCY": "DAILY"}).stdout


def test_times_are_shown_in_the_local_zone_with_their_offset(hs, tmp_path):
    f = tmp_path / "one.ndjson"
    f.write_text("\n".join(json.dumps(s) for s in samples(3)) + "\n")
    hs.run("import", str(f), "--no-progress")
    at = hs.run("status", "--json", check=False, env={"TZ": "Asia/Kolkata"})
    last = json.loads(at.stdout)["lastImport"]["at"]
    assert last.endswith("+05:30"), last
    last = json.loads(hs.run("status", "--json", check=False, env={"TZ": "UTC"}).stdout)["lastImport"]["at"]
    assert last.endswith("Z"), last
