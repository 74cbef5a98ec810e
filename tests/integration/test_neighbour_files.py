"""Another local user against the files healthspool writes (issue 39): a real second account
(`useradd`, root only), the real binary, a shared folder without the sticky bit (where the
kernel's protected_symlinks and protected_regular do not help).

- links planted at the names the old writer used (`PATH.tmp.<pid>`) are never written through:
  the report and the metrics file land in their own files and the person's dotfiles stay;
- files planted there do not become the report (owned by the other user, readable by them);
- a report into such a folder warns and is written all the same;
- no file is created outside SafeWrite (grep);
- a type name that is not a name (`HKQuantityTypeIdentifier$(id>…)`) is not stored, and never
  reaches the metrics file;
- files kept in archive/ and failed/ are 0600 whatever the spool's mode, and a loosened spool or
  state directory is said in `status`."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT, samples, wait_until
from test_web_isolation import as_other, other_user  # noqa: F401  (other_user is a fixture)

HOSTILE_TYPE = "HKQuantityTypeIdentifier$(id>/tmp/hs-pwned)"


@pytest.fixture
def shared(other_user):
    """A folder everyone can write, without the sticky bit."""
    d = Path(tempfile.mkdtemp(prefix="hs-shared-", dir="/tmp"))
    os.chmod(d, 0o777)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def next_pids(count: int) -> range:
    last = int(Path("/proc/sys/kernel/ns_last_pid").read_text())
    return range(last + 1, last + 1 + count)


def plant(user, folder: Path, base: str, pids: range, link_to: Path | None):
    """As the other user: at `base.tmp.<pid>` for each pid, a link to `link_to`, or (None) a
    regular file of theirs that everyone can write."""
    kind = f"os.symlink({str(link_to)!r}, p)" if link_to else "open(p, 'w').close(); os.chmod(p, 0o666)"
    p = as_other(user, f"""
        import os
        for pid in range({pids.start}, {pids.stop}):
            p = {str(folder)!r} + "/{base}.tmp." + str(pid)
            {kind}
        print("planted", flush=True)
    """)
    out, err = p.communicate(timeout=60)
    assert "planted" in out, err


def test_the_file_writer_is_the_only_way_files_are_created():
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "check-file-writes.py")], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_report_into_a_shared_folder_writes_through_no_planted_link(hs, other_user, shared):
    bashrc = hs.home / ".bashrc"
    bashrc.write_text("# the person's own\n")
    plant(other_user, shared, "summary.html", next_pids(600), link_to=bashrc)
    out = shared / "summary.html"
    p = hs.run("report", "--out", str(out))
    assert bashrc.read_text() == "# the person's own\n"
    st = out.lstat()
    assert stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o600
    assert "<html" in out.read_text().lower()
    assert "other users can write it" in p.stderr, p.stderr


def test_a_file_planted_by_another_user_does_not_become_the_report(hs, other_user, shared):
    plant(other_user, shared, "summary.html", next_pids(600), link_to=None)
    out = shared / "summary.html"
    hs.run("report", "--out", str(out))
    st = out.lstat()
    assert st.st_uid == os.geteuid(), "the report is a file of the other user's"
    assert stat.S_IMODE(st.st_mode) == 0o600


def test_the_metrics_file_is_not_written_through_a_link_and_carries_no_hostile_type(hs, other_user, shared):
    profile = hs.home / ".profile"
    profile.write_text("# the person's own profile\n")
    textfile = shared / "healthspool.prom"
    plant(other_user, shared, "healthspool.prom", next_pids(1500), link_to=profile)
    hs.start(env={"HEALTHSPOOL_METRICS_TEXTFILE": str(textfile)})
    hostile = samples(3, type_=HOSTILE_TYPE) + samples(2)
    hs.drop("hostile.json", json.dumps(hostile))
    assert wait_until(lambda: (hs.spool / "archive" / "hostile.json").exists(), 20), hs.read_log()
    assert wait_until(lambda: textfile.exists() and "healthspool_samples_queued" in textfile.read_text(), 20), hs.read_log()
    assert profile.read_text() == "# the person's own profile\n"
    assert stat.S_ISREG(textfile.lstat().st_mode) and textfile.lstat().st_uid == os.geteuid()
    assert "$(" not in textfile.read_text()
    # The warning is logged just after the file is written: wait for it, not race it.
    log = wait_until(lambda: "other users can write it" in (t := hs.read_log()) and t, 20) or hs.read_log()
    assert "not a type name" in log, log
    assert hs.status()["store"]["samples"] == 2
    assert "warning" in log.lower() and "other users can write it" in log, log


def test_kept_files_are_private_and_a_loosened_spool_is_said_in_status(hs):
    hs.start()
    os.chmod(hs.spool, 0o755)
    hs.drop("open.json", json.dumps(samples(2)))
    os.chmod(hs.spool / "open.json", 0o644)
    assert wait_until(lambda: (hs.spool / "archive" / "open.json").exists(), 20), hs.read_log()
    assert stat.S_IMODE((hs.spool / "archive" / "open.json").stat().st_mode) == 0o600
    hs.drop("bad.json", "{ not json")
    os.chmod(hs.spool / "bad.json", 0o644)
    assert wait_until(lambda: (hs.spool / "failed" / "bad.json").exists(), 20), hs.read_log()
    assert stat.S_IMODE((hs.spool / "failed" / "bad.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((hs.spool / "failed" / "bad.json.reason").stat().st_mode) == 0o600
    report = hs.status()
    opened = report["spool"]["openDirectories"]
    assert [d["path"] for d in opened] == [str(hs.spool)], opened
    text = hs.run("status").stdout
    assert f"{hs.spool} is open to other users (mode 755)" in text and f"chmod 700 {hs.spool}" in text, text
    os.chmod(hs.spool, 0o700)
    assert hs.status()["spool"]["openDirectories"] == []
