"""The spool's trust items (issue 14), with the real daemon: crash-loop safety net, entries that
are not plain files, temporary failures, reload of the spool/state directories, log lines that a
file name cannot split, and `healthspool import` over several arguments."""
import json
import os
import shutil
import signal
import socket
import subprocess
import time

import pytest

from conftest import BIN, samples, wait_until


def big_ndjson(n: int) -> bytes:
    lines = []
    for i in range(n):
        lines.append(json.dumps({"type": "heartRate", "value": 50 + i % 90, "unit": "count/min",
                                 "startDate": f"2020-01-01T00:00:00Z", "endDate": f"2020-01-01T00:00:00Z",
                                 "source": f"s{i}"}))
    return ("\n".join(lines) + "\n").encode()


def live_status(hs) -> dict:
    """The daemon's own status file (what it is doing right now)."""
    try:
        return json.loads((hs.runtime / "healthspool" / "status.json").read_text())
    except (OSError, ValueError):
        return {}


def set_mtime(path, t):
    os.utime(path, (t, t))


def test_a_file_whose_import_killed_the_daemon_twice_is_set_aside_and_the_files_behind_it_are_imported(hs):
    hs.spool.mkdir()
    big = hs.spool / "big.ndjson"
    big.write_bytes(big_ndjson(400_000))
    set_mtime(big, time.time() - 100)
    hs.drop("after-1.json", json.dumps(samples(3)))
    hs.drop("after-2.json", json.dumps(samples(2, start=100)))
    for attempt in (1, 2):
        hs.start()
        record_file = hs.state / "importing.json"
        record = wait_until(lambda: record_file.exists() and (r := json.loads(record_file.read_text() or "{}"))
                            and r.get("attempts") == attempt and r, 20)
        assert record and record["file"] == "big.ndjson" and record["attempts"] == attempt, hs.read_log()
        assert live_status(hs).get("importing") == "big.ndjson" or wait_until(lambda: live_status(hs).get("importing") == "big.ndjson", 5)
        hs.daemon.send_signal(signal.SIGKILL)
        hs.daemon.wait()
        hs.daemon = None
        assert big.exists(), "the file must stay in the spool after a crash"
    hs.start()
    reason_file = hs.spool / "failed" / "big.ndjson.reason"
    assert wait_until(lambda: reason_file.exists() and (hs.spool / "failed" / "big.ndjson").exists(), 20), hs.read_log()
    assert "the importer stopped while reading this file" in reason_file.read_text()
    assert (hs.spool / "failed" / "big.ndjson").exists() and not big.exists()
    assert wait_until(lambda: (hs.spool / "archive" / "after-2.json").exists() and (hs.spool / "archive" / "after-1.json").exists(), 20)
    # The file is archived first, the record removed just after: wait for both.
    assert wait_until(lambda: not (hs.state / "importing.json").exists(), 10)
    assert "the importer stopped while reading this file" in hs.read_log()


def test_a_symlink_a_fifo_a_directory_and_a_non_utf8_name_are_each_imported_or_refused_and_counted(hs, tmp_path):
    secret = tmp_path / "outside.json"
    secret.write_text(json.dumps(samples(5, start=900)))
    hs.start()
    os.symlink(secret, hs.spool / "link.json")
    os.mkfifo(hs.spool / "pipe.json")
    (hs.spool / "folder").mkdir()
    raw = os.fsencode(str(hs.spool)) + b"/caf\xe9.json"
    with open(raw, "wb") as f:
        f.write(json.dumps(samples(4)).encode())
    # The non-UTF-8 file is imported (renamed, its invalid byte as %E9).
    assert wait_until(lambda: (hs.spool / "archive" / "caf%E9.json").exists(), 20), hs.read_log()
    assert wait_until(lambda: all(os.path.lexists(hs.spool / "failed" / n) for n in ("link.json", "link.json.reason", "pipe.json", "pipe.json.reason")), 20), hs.read_log()
    link_reason = (hs.spool / "failed" / "link.json.reason").read_text()
    assert "refused" in link_reason and "symbolic link" in link_reason
    assert "FIFO" in (hs.spool / "failed" / "pipe.json.reason").read_text()
    assert os.path.islink(hs.spool / "failed" / "link.json"), "the link itself moves, never its target"
    assert secret.exists()
    assert (hs.spool / "folder").is_dir(), "a directory is left where it is"
    st = wait_until(lambda: (s := hs.status())["store"]["samples"] == 4 and s)
    assert st, "only the non-UTF-8 file's samples are stored, never the link target's"
    spool = hs.status()["spool"]
    assert spool["pendingFiles"] == 0 and spool["refused"] == 3, spool
    text = hs.run("status").stdout
    assert "refused: 3" in text and "folder is a directory" in text
    log = hs.read_log()
    assert "caf\\xE9.json" in log and "folder is a directory" in log and "symbolic link" in log


def test_status_counts_a_non_utf8_file_as_waiting_while_the_daemon_is_stopped(hs):
    hs.spool.mkdir()
    with open(os.fsencode(str(hs.spool)) + b"/x\xff.json", "wb") as f:
        f.write(b"[]")
    assert hs.status()["spool"]["pendingFiles"] == 1


def without_dac_override(cmd):
    """Root ignores file modes; dropping CAP_DAC_OVERRIDE/READ_SEARCH makes mode 000 bite."""
    if os.getuid() != 0:
        return cmd
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: cannot provoke EACCES")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--inh-caps=-all", *cmd]


def start_without_dac_override(hs, retry_base: str, retry_max: str):
    """Starts the daemon unable to read what its mode forbids, with the given spool retry bounds."""
    env = {**hs.env, "HEALTHSPOOL_SPOOL_RETRY_BASE_SECONDS": retry_base, "HEALTHSPOOL_SPOOL_RETRY_MAX_SECONDS": retry_max}
    hs.started_with.append(env)
    hs.daemon = subprocess.Popen(without_dac_override([BIN, "daemon"]), env=env,
                                 stdout=open(hs.log, "a"), stderr=subprocess.STDOUT)
    # As hs.start() does: `status` counts the daemon as running once its control socket is up.
    assert wait_until(lambda: (hs.runtime / "healthspool" / "control.sock").exists(), 15), hs.read_log()


def test_an_unreadable_file_waits_in_the_spool_and_is_imported_once_readable(hs):
    hs.spool.mkdir()
    locked = hs.spool / "locked-out.json"
    locked.write_text(json.dumps(samples(6)))
    os.chmod(locked, 0)
    start_without_dac_override(hs, retry_base="1", retry_max="2")
    st = wait_until(lambda: (s := hs.status())["spool"]["waiting"] and s, 20)
    assert st, hs.read_log()
    assert "permission denied" in st["spool"]["waiting"]["text"] and "retrying in" in st["spool"]["waiting"]["text"]
    assert locked.exists() and not (hs.spool / "failed" / "locked-out.json").exists()
    assert "chmod" in hs.read_log()
    os.chmod(locked, 0o600)
    assert wait_until(lambda: (hs.spool / "archive" / "locked-out.json").exists(), 20), hs.read_log()
    assert wait_until(lambda: hs.status()["store"]["samples"] == 6)
    assert wait_until(lambda: hs.status()["spool"]["waiting"] is None, 5)


def test_a_waiting_file_that_leaves_the_spool_is_no_longer_shown_as_waiting(hs):
    """Issue 26, point 6: status kept "waiting: … (FILE)" after the file was gone, until its retry."""
    hs.spool.mkdir()
    locked = hs.spool / "gone-soon.json"
    locked.write_text(json.dumps(samples(3)))
    os.chmod(locked, 0)
    start_without_dac_override(hs, retry_base="120", retry_max="300")
    assert wait_until(lambda: hs.status()["spool"]["waiting"], 20), hs.read_log()
    assert "waiting: permission denied" in hs.run("status").stdout
    locked.unlink()
    assert wait_until(lambda: hs.status()["spool"]["waiting"] is None, 5), hs.status()["spool"]
    assert "waiting:" not in hs.run("status").stdout
    assert hs.daemon.poll() is None


def test_a_file_still_being_written_when_the_daemon_starts_waits_for_its_writer_and_is_imported_whole(hs):
    # The start-up scan saw a file a copy was still writing (found by a CI run: a test that
    # dropped a file just after the start had it read at 0 bytes and quarantined as malformed).
    hs.spool.mkdir()
    text = json.dumps(samples(7))
    writer = open(hs.spool / "copying.json", "w")
    writer.write(text[:20])
    writer.flush()
    try:
        hs.start()
        assert wait_until(lambda: "copying.json is still being written" in hs.read_log(), 15), hs.read_log()
        assert (hs.spool / "copying.json").exists() and not list((hs.spool / "failed").iterdir())
        writer.write(text[20:])
    finally:
        writer.close()
    assert wait_until(lambda: (hs.spool / "archive" / "copying.json").exists(), 15), hs.read_log()
    assert wait_until(lambda: hs.status()["store"]["samples"] == 7), hs.read_log()
    assert not list((hs.spool / "failed").iterdir()), hs.read_log()


@pytest.fixture
def tiny_state(hs, tmp_path):
    """A 16 MiB tmpfs as the state directory: a real full disk (root only)."""
    if os.getuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mnt = tmp_path / "tiny-state"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", str(mnt)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mnt
    hs.stop()
    subprocess.run(["umount", "-l", str(mnt)])


def test_a_file_that_met_a_full_disk_waits_in_the_spool_and_is_imported_once_space_is_freed(hs, tiny_state):
    hs.env.update({"HEALTHSPOOL_STATE_DIR": str(tiny_state), "HEALTHSPOOL_SPOOL_RETRY_BASE_SECONDS": "1",
                   "HEALTHSPOOL_SPOOL_RETRY_MAX_SECONDS": "2"})
    hs.start()
    hs.drop("first.json", json.dumps(samples(2)))
    assert wait_until(lambda: hs.status()["store"]["samples"] == 2, 60), hs.read_log()
    filler = tiny_state / "filler"
    # Unbuffered: a buffered writer's last flush at close met the full disk again and raised.
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
    hs.drop("big.ndjson", big_ndjson(20_000))
    st = wait_until(lambda: (s := hs.status())["spool"]["waiting"] and s, 60)
    assert st, hs.read_log()
    assert "disk full" in st["spool"]["waiting"]["text"]
    assert "waiting: disk full, retrying in" in hs.run("status").stdout
    assert (hs.spool / "big.ndjson").exists() and not (hs.spool / "failed" / "big.ndjson").exists()
    assert "free space" in hs.read_log()
    filler.unlink()
    # 20,000 samples through the debug build on a machine busy with other test workers: bounds
    # for a loaded machine (a passing run ends as soon as the file is in).
    assert wait_until(lambda: (hs.spool / "archive" / "big.ndjson").exists(), 120), hs.read_log()
    assert wait_until(lambda: hs.status()["store"]["samples"] == 20_002, 60), (hs.status()["store"], hs.read_log()[-3000:])


def test_changing_the_spool_dir_at_reload_keeps_the_old_spool_and_says_a_restart_is_needed(hs):
    hs.start()
    conf = hs.home / ".config" / "healthspool" / "healthspool.conf"
    conf.parent.mkdir(parents=True, exist_ok=True)
    new_spool = hs.home / "OtherSpool"
    new_spool.mkdir()
    conf.write_text(conf.read_text() + f"\nspool.dir = {new_spool}\n" if conf.exists() else f"spool.dir = {new_spool}\n")
    assert wait_until(lambda: "restart the daemon" in hs.read_log(), 15), hs.read_log()
    hs.drop("after-reload.json", json.dumps(samples(3)))
    assert wait_until(lambda: (hs.spool / "archive" / "after-reload.json").exists(), 15), hs.read_log()
    text = wait_until(lambda: "spool.dir changed" in (t := hs.run("status").stdout) and t, 5)
    assert text and "restart the daemon" in text, hs.run("status").stdout


def test_a_newline_in_a_file_name_does_not_split_a_log_line(hs):
    hs.start()
    hs.drop("a\nb.json", json.dumps(samples(2)))
    hs.drop("c\n.json", "not json at all")
    assert wait_until(lambda: (hs.spool / "archive" / "a\nb.json").exists() and (hs.spool / "failed" / "c\n.json").exists(), 15)
    lines = [l for l in hs.read_log().splitlines() if l]
    assert all(l.startswith("healthspool[") for l in lines), lines
    assert any("a\\nb.json" in l for l in lines)


def test_import_of_several_arguments_keeps_going_past_a_missing_one_and_exits_non_zero(hs, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(samples(2)))
    b.write_text(json.dumps(samples(3, start=50)))
    p = hs.run("import", "--no-progress", str(a), str(tmp_path / "missing.json"), str(tmp_path), str(b), check=False)
    assert p.returncode == 1, p
    assert "missing.json: no such file" in p.stderr and "is a directory" in p.stderr
    assert "a.json: imported" in p.stdout and "b.json: imported" in p.stdout
    assert hs.status()["store"]["samples"] == 5
    again = hs.run("import", "--no-progress", str(a), check=False)
    assert again.returncode == 0, again
    assert "unchanged" in again.stdout and "error" not in again.stdout.lower()
    j = json.loads(hs.run("import", "--json", str(tmp_path / "nope.json"), str(b), check=False).stdout)
    assert [x["outcome"] for x in j] == ["missing", "unchanged"]
