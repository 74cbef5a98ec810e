"""Issue 31, Data Protection the Linux way: `status` and `config check` say whether the places
that hold health data are encrypted at rest, and nothing sensitive is written outside them (no
health value in the daemon's log or standard error, /tmp or the runtime directory)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import samples, wait_until

PLACES = ["store", "WAL", "notes audio", "archive/", "failed/"]


def test_status_and_config_check_report_each_place_and_warn_when_not_encrypted(hs):
    # The test machine's /tmp is neither fscrypt nor dm-crypt (checked the same way here).
    st = hs.status()
    assert [p["role"] for p in st["protection"]["places"]] == PLACES
    assert {p["protection"] for p in st["protection"]["places"]} == {"none"}, st["protection"]
    assert st["protection"]["places"][0]["path"] == str(hs.state / "healthspool.db")
    assert st["protection"]["places"][3]["path"] == str(hs.spool / "archive")
    text = hs.run("status", check=False).stdout
    assert "protection:  store, WAL, notes audio, archive/, failed/: not encrypted" in text, text
    assert "warning: health data is not encrypted at rest" in text and "healthspool-security(7)" in text
    check = hs.run("config", "check").stdout
    assert "protection:  store, WAL, notes audio, archive/, failed/: not encrypted" in check, check
    assert "healthspool-security(7)" in check


# Values no other store on the machine holds by chance (the bench-smoke stage writes stores of
# generated values into /tmp beside this test; one held "87.613").
DISTINCT = {"weight": "87.61379", "note": "zq-rash-on-left-elbow-4471", "hr": "173"}


def files_containing(root: Path, needles: list[str], since: float) -> list[str]:
    """Files under `root` changed since `since` that hold any of `needles`."""
    found = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = Path(dirpath) / name
            try:
                if path.is_symlink() or not path.is_file() or path.stat().st_mtime < since or path.stat().st_size > 50 << 20:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            found += [f"{path}: {n}" for n in needles if n.encode() in data]
    return found


def test_no_health_value_leaves_the_store_for_the_log_tmp_or_the_runtime_directory(hs, gateway):
    began = time.time() - 1
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--no-test")
    hs.start(env={"HEALTHSPOOL_LOG_LEVEL": "debug"})
    outputs = []
    for args in (["measure", "weight", DISTINCT["weight"]], ["measure", "hr", DISTINCT["hr"]],
                 ["symptom", "log", "rash", "--severity", "moderate", "--note", DISTINCT["note"]]):
        p = hs.run(*args)
        outputs.append(p.stderr)
    hs.drop("a.json", json.dumps([dict(s, value=float(DISTINCT["hr"])) for s in samples(3, start=500)]))
    assert wait_until(lambda: len(gateway.samples) >= 5, 20), hs.read_log()   # the weight, the hr, the three dropped
    hs.run("sync")
    time.sleep(1)
    assert hs.stop() == 0
    # The values did reach the store and the gateway: the test looks for something that exists.
    assert DISTINCT["note"].encode() in b"".join(p.read_bytes() for p in hs.state.glob("healthspool.db*"))
    assert any(abs(s["value"] - float(DISTINCT["weight"])) < 1e-6 for s in gateway.samples if s["type"] == "bodyMass")
    needles = [DISTINCT["weight"], DISTINCT["note"]]
    log = hs.read_log()
    assert log and not [n for n in needles if n in log], "the daemon's log (its journal output and stderr) shows a value"
    assert not [n for n in needles for err in outputs if n in err]
    assert not files_containing(hs.runtime, needles, began), "the runtime directory holds a value"
    # /tmp, except this test's HOME (pytest makes it under /tmp: the store and spool are in it).
    leaked = [f for f in files_containing(Path("/tmp"), needles, began) if not f.startswith(str(hs.home) + "/")]
    assert not leaked, leaked


# MARK: real encryption, where the machine allows it (root, loop devices, mount)

def ioc(direction: int, nr: int, size: int) -> int:
    return (direction << 30) | (size << 16) | (ord("f") << 8) | nr


def make_fscrypt_dir(mountpoint: Path, target: Path):
    """Adds a random v2 key to the file system's keyring and sets its policy on the new, empty
    `target` (what `fscrypt encrypt` does, without the fscrypt tool)."""
    import fcntl
    import struct
    raw = os.urandom(64)
    arg = bytearray(struct.pack("II32sII32s", 2, 0, b"", len(raw), 0, b"") + raw)   # fscrypt_add_key_arg, IDENTIFIER
    fd = os.open(mountpoint, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, ioc(3, 23, 80), arg)                                    # FS_IOC_ADD_ENCRYPTION_KEY
    finally:
        os.close(fd)
    target.mkdir()
    policy = struct.pack("BBBB4s16s", 2, 1, 4, 2, b"", bytes(arg[8:24]))      # v2, AES-256-XTS/CTS, pad 32
    fd = os.open(target, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, ioc(2, 19, 12), policy)                                 # FS_IOC_SET_ENCRYPTION_POLICY
    finally:
        os.close(fd)


@pytest.fixture
def loop_ext4(tmp_path):
    """An ext4 file system with the encrypt feature, on a loop device, mounted (root only)."""
    if os.geteuid() != 0 or not shutil.which("mkfs.ext4") or not shutil.which("mount"):
        pytest.skip("needs root, mkfs.ext4 and mount to make an ext4 file system on a loop device")
    image, mountpoint = tmp_path / "fs.img", tmp_path / "mnt"
    with open(image, "wb") as f:
        f.truncate(64 << 20)
    mountpoint.mkdir()
    if subprocess.run(["mkfs.ext4", "-q", "-F", "-O", "encrypt", str(image)], capture_output=True).returncode != 0:
        pytest.skip("mkfs.ext4 -O encrypt failed")
    p = subprocess.run(["mount", "-o", "loop", str(image), str(mountpoint)], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip(f"cannot mount a loop device here: {p.stderr.strip()}")
    yield mountpoint
    subprocess.run(["umount", str(mountpoint)], capture_output=True)


def test_a_real_fscrypt_directory_is_reported_protected(hs, loop_ext4):
    try:
        make_fscrypt_dir(loop_ext4, loop_ext4 / "private")
    except OSError as e:
        pytest.skip(f"the kernel refuses an fscrypt policy here: {e}")
    (loop_ext4 / "plain").mkdir()
    env = {"HEALTHSPOOL_STATE_DIR": str(loop_ext4 / "private" / "state"), "HEALTHSPOOL_SPOOL_DIR": str(loop_ext4 / "plain" / "spool")}
    st = json.loads(hs.run("status", "--json", env=env, check=False).stdout)
    verdicts = {p["role"]: p["protection"] for p in st["protection"]["places"]}
    # The state directory is not made yet: it inherits the policy of the directory it goes in.
    assert verdicts == {"store": "fscrypt", "WAL": "fscrypt", "notes audio": "fscrypt", "archive/": "none", "failed/": "none"}, st
    text = hs.run("config", "check", env=env).stdout
    assert "protection:  store, WAL, notes audio: protected (fscrypt, unlocked at login)" in text, text
    assert "protection:  archive/, failed/: not encrypted" in text and "warning:" in text


def test_a_real_dm_crypt_device_is_reported_protected(hs, tmp_path):
    if os.geteuid() != 0 or not shutil.which("cryptsetup"):
        pytest.skip("needs root and cryptsetup to open a LUKS device")
    image = tmp_path / "luks.img"
    with open(image, "wb") as f:
        f.truncate(40 << 20)
    name = f"hs-test-{os.getpid()}"
    p = subprocess.run(["cryptsetup", "-q", "luksFormat", "--type", "luks2", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
                        str(image), "-"], input=b"pw", capture_output=True)
    if p.returncode != 0:
        pytest.skip(f"cryptsetup luksFormat failed: {p.stderr.decode().strip()}")
    p = subprocess.run(["cryptsetup", "open", str(image), name, "--key-file", "-"], input=b"pw", capture_output=True)
    if p.returncode != 0:
        # This container: "Cannot initialize device-mapper. Is dm_mod kernel module loaded?"
        pytest.skip(f"no device-mapper here, cannot open a LUKS device: {p.stderr.decode().strip()}")
    mountpoint = tmp_path / "mnt"
    mountpoint.mkdir()
    try:
        subprocess.run(["mkfs.ext4", "-q", f"/dev/mapper/{name}"], check=True, capture_output=True)
        subprocess.run(["mount", f"/dev/mapper/{name}", str(mountpoint)], check=True, capture_output=True)
        env = {"HEALTHSPOOL_STATE_DIR": str(mountpoint / "state"), "HEALTHSPOOL_SPOOL_DIR": str(mountpoint / "spool")}
        st = json.loads(hs.run("status", "--json", env=env, check=False).stdout)
        assert {p["protection"] for p in st["protection"]["places"]} == {"dm-crypt"}, st["protection"]
        assert "protected (dm-crypt)" in hs.run("config", "check", env=env).stdout
    finally:
        subprocess.run(["umount", str(mountpoint)], capture_output=True)
        subprocess.run(["cryptsetup", "close", name], capture_output=True)
