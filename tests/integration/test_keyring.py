"""Issue 31, the keychain: secrets in the Secret Service of the user's session. A real
gnome-keyring-daemon on a private session bus (its login keyring unlocked with a password given
on stdin), checked with PyPI `secretstorage`: `gateway set` stores there, the daemon reads
from there (also after a restart), a locked keyring makes the daemon wait, and
`secrets migrate` moves the secrets both ways."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import samples, wait_until

secretstorage = pytest.importorskip("secretstorage", reason="pip install secretstorage (tests/requirements.txt)")
if not shutil.which("gnome-keyring-daemon") or not shutil.which("dbus-daemon"):
    pytest.skip("gnome-keyring-daemon and dbus-daemon are needed (scripts/setup-deps.sh --test)", allow_module_level=True)

PASSWORD = b"keyring-test-password"
TOKEN = "kr-token-7f3a9c1e"


class Keyring:
    """A session bus at <home>/run/bus (where healthspool looks: $XDG_RUNTIME_DIR/bus) with a
    gnome-keyring-daemon on it; stopped by the ids of the processes it started."""

    def __init__(self, hs):
        self.address = f"unix:path={hs.runtime}/bus"
        self.env = {**hs.env, "DBUS_SESSION_BUS_ADDRESS": self.address}
        self.bus = subprocess.Popen(["dbus-daemon", "--session", f"--address={self.address}", "--nofork", "--nopidfile", "--print-address"],
                                    env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        # The address as the bus prints it, with its guid: "unix:path=…,guid=…".
        self.printed = self.bus.stdout.readline().strip()
        assert wait_until(lambda: (hs.runtime / "bus").exists(), 10), "dbus-daemon did not start"
        p = subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets", "--daemonize"], input=PASSWORD,
                           env=self.env, capture_output=True, timeout=20)
        assert p.returncode == 0, p.stderr
        self.connection = None
        assert wait_until(lambda: self._connect(), 10), "gnome-keyring-daemon did not come on the bus"

    def _connect(self):
        old = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = self.address
        try:
            self.connection = secretstorage.dbus_init()
            secretstorage.get_default_collection(self.connection)
            return True
        except Exception:
            return False
        finally:
            if old is None:
                os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
            else:
                os.environ["DBUS_SESSION_BUS_ADDRESS"] = old

    @property
    def collection(self):
        return secretstorage.get_default_collection(self.connection)

    def item(self, setting: str):
        items = list(self.collection.search_items({"application": "healthspool", "setting": setting}))
        return items[0] if items else None

    def secret(self, setting: str) -> bytes | None:
        item = self.item(setting)
        return item.get_secret() if item else None

    def lock(self):
        self.collection.lock()
        assert self.collection.is_locked()

    def unlock(self):
        """Unlocks the login keyring with its password, as pam_gnome_keyring does at login
        (gnome-keyring's own interface: no prompt)."""
        from jeepney import DBusAddress, new_method_call
        service = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets",
                              interface="org.freedesktop.Secret.Service")
        session = self.connection.send_and_get_reply(new_method_call(service, "OpenSession", "sv", ("plain", ("s", "")))).body[1]
        internal = DBusAddress("/org/freedesktop/secrets", bus_name="org.freedesktop.secrets",
                               interface="org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface")
        reply = self.connection.send_and_get_reply(new_method_call(
            internal, "UnlockWithMasterPassword", "o(oayays)", (self.collection.collection_path, (session, b"", PASSWORD, "text/plain"))))
        assert reply.header.message_type.name == "method_return", reply
        assert not self.collection.is_locked()

    def stop(self):
        if self.connection:
            self.connection.close()
        # gnome-keyring-daemon ends when its bus goes away.
        self.bus.terminate()
        self.bus.wait(10)


@pytest.fixture
def keyring(hs):
    k = Keyring(hs)
    yield k
    hs.stop()
    k.stop()


def secret_file(hs, text: str) -> Path:
    path = hs.home / "gateway-token"
    path.write_text(text)
    path.chmod(0o600)
    return path


def test_gateway_set_stores_the_secret_in_the_keyring_and_config_says_where(hs, keyring, gateway):
    creds = secret_file(hs, TOKEN + "\n")
    p = hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--auth", "bearer",
               "--credentials-file", str(creds), "--no-test")
    assert "stored in the keyring" in p.stdout, p.stdout
    assert keyring.secret("gateway.secret") == TOKEN.encode()
    attributes = keyring.item("gateway.secret").get_attributes()
    assert attributes["application"] == "healthspool" and attributes["setting"] == "gateway.secret"
    config = (hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()
    assert "credentials_file" not in config and TOKEN not in config
    check = hs.run("config", "check")
    assert "secret:      gateway.secret: keyring (Secret Service)" in check.stdout, check.stdout
    show = hs.run("config", "show")
    assert "gateway.secret: keyring" in show.stdout
    for out in (p.stdout + p.stderr, check.stdout + check.stderr, show.stdout, hs.run("gateway", "show").stdout):
        assert TOKEN not in out


def test_the_daemon_reads_its_secret_from_the_keyring_also_after_a_restart(hs, keyring, certs):
    from gateway import Gateway
    g = Gateway(certs, auth=("Authorization", f"Bearer {TOKEN}"))
    try:
        creds = secret_file(hs, TOKEN + "\n")
        hs.run("gateway", "set", g.url, "--ca-file", str(g.certs["ca"]), "--auth", "bearer", "--credentials-file", str(creds), "--no-test")
        creds.unlink()   # the keyring holds it now
        assert ",guid=" in keyring.printed
        env = {"DBUS_SESSION_BUS_ADDRESS": keyring.printed}
        hs.start(env=env)
        hs.drop("a.json", json.dumps(samples(3)))
        assert len(g.wait_for_samples(3, timeout=20)) == 3, hs.read_log()
        assert hs.stop() == 0
        hs.start(env=env)
        hs.drop("b.json", json.dumps(samples(2, start=100)))
        assert len(g.wait_for_samples(5, timeout=20)) == 5, hs.read_log()
        assert all(r["status"] < 400 for r in g.requests), g.requests
        assert TOKEN not in hs.read_log()
    finally:
        g.stop()


def test_a_locked_keyring_makes_the_daemon_wait_and_say_so_once(hs, keyring, certs):
    from gateway import Gateway
    g = Gateway(certs, auth=("Authorization", f"Bearer {TOKEN}"))
    try:
        creds = secret_file(hs, TOKEN + "\n")
        hs.run("gateway", "set", g.url, "--ca-file", str(g.certs["ca"]), "--auth", "bearer", "--credentials-file", str(creds), "--no-test")
        creds.unlink()
        keyring.lock()
        check = hs.run("config", "check")
        assert "locked" in check.stderr and "waits" in check.stderr, check.stderr
        hs.start(env={"DBUS_SESSION_BUS_ADDRESS": keyring.address})
        hs.drop("a.json", json.dumps(samples(3)))
        st = wait_until(lambda: (s := hs.status())["locked"] and s, 10)
        assert st and [h["by"] for h in st["lock"]["holds"]] == ["keyring"], st and st["lock"]
        assert "the keyring is unlocked" in hs.run("status").stdout
        time.sleep(5)   # two polls of the keyring: still waiting, the file still in the spool, nothing sent
        assert g.requests == [] and (hs.spool / "a.json").exists()
        assert hs.read_log().count("the keyring is locked") == 1, hs.read_log()
        keyring.unlock()
        assert len(g.wait_for_samples(3, timeout=20)) == 3, hs.read_log()
        assert wait_until(lambda: not hs.status()["locked"], 10)
        assert TOKEN not in hs.read_log()
    finally:
        g.stop()


def test_secrets_migrate_moves_them_to_files_and_back(hs, keyring, gateway):
    creds = secret_file(hs, TOKEN + "\n")
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--auth", "bearer",
           "--credentials-file", str(creds), "--no-test")
    hs.run("ui", "--no-open", env={"HEALTHSPOOL_WEB_ENABLED": "true"})   # makes the web secret: in the keyring, there being one
    web = keyring.secret("web.secret")
    assert web and len(web.strip()) == 64 and not (hs.state / "web.secret").exists()

    p = hs.run("secrets", "migrate", "--to", "file")
    assert keyring.item("gateway.secret") is None and keyring.item("web.secret") is None, p.stdout
    gateway_file = hs.home / ".config" / "healthspool" / "gateway.secret"
    assert gateway_file.read_text().strip() == TOKEN and (gateway_file.stat().st_mode & 0o777) == 0o600
    assert (hs.state / "web.secret").read_bytes().strip() == web.strip()
    assert ((hs.state / "web.secret").stat().st_mode & 0o777) == 0o600
    config = (hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()
    assert "secrets.keyring = off" in config and f"gateway.credentials_file = {gateway_file}" in config
    check = hs.run("config", "check").stdout
    assert f"gateway.secret: file {gateway_file}" in check and f"web.secret: file {hs.state / 'web.secret'}" in check, check

    p = hs.run("secrets", "migrate", "--to", "keyring")
    assert "moved to the keyring" in p.stdout, p.stdout
    assert keyring.secret("gateway.secret") == TOKEN.encode()
    assert keyring.secret("web.secret").strip() == web.strip()
    assert not gateway_file.exists() and not (hs.state / "web.secret").exists()
    config = (hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()
    assert "secrets.keyring" not in config and "credentials_file" not in config
    assert "gateway.secret: keyring" in hs.run("secrets").stdout


def test_no_keyring_keeps_files_as_today(hs, gateway):
    creds = secret_file(hs, TOKEN + "\n")
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--auth", "bearer",
           "--credentials-file", str(creds), "--no-test")
    config = (hs.home / ".config" / "healthspool" / "healthspool.conf").read_text()
    assert f"gateway.credentials_file = {creds}" in config
    assert f"gateway.secret: file {creds}" in hs.run("config", "check").stdout
    p = hs.run("secrets", "migrate", "--to", "keyring", check=False)
    assert p.returncode != 0 and "no keyring" in p.stderr, p.stderr


def test_the_web_interface_waits_for_a_locked_keyring_holding_its_secret(hs, keyring):
    import socket
    from conftest import free_port, web_address
    port = free_port()
    env = {"HEALTHSPOOL_WEB_ENABLED": "true", "HEALTHSPOOL_WEB_PORT": str(port), "DBUS_SESSION_BUS_ADDRESS": keyring.address}
    hs.run("ui", "--no-open", env=env)
    assert keyring.secret("web.secret") is not None and not (hs.state / "web.secret").exists()
    keyring.lock()

    def listening():
        with socket.socket() as s:
            return s.connect_ex((web_address(), port)) == 0
    hs.start(env=env)
    assert wait_until(lambda: "web interface waits for the keyring" in hs.read_log(), 10), hs.read_log()
    time.sleep(3)
    assert not listening()
    keyring.unlock()
    assert wait_until(listening, 15), hs.read_log()
    link = hs.run("ui", "--no-open", env=env).stdout.strip()
    base = f"http://{web_address()}:{port}"
    assert link.startswith(base + "/login?token=")
    # The link is made with the keyring's secret, the one the interface took once unlocked: it logs in.
    import http.client
    c = http.client.HTTPConnection(web_address(), port, timeout=10)
    c.request("GET", link[len(base):], headers={"Host": f"{web_address()}:{port}"})
    assert c.getresponse().status == 303
    c.close()
    assert hs.read_log().count("web interface waits for the keyring") == 1


def test_a_systemd_credential_is_named_as_such_and_wins_over_the_keyring(hs, keyring, gateway):
    creds = secret_file(hs, TOKEN + "\n")
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]), "--auth", "bearer",
           "--credentials-file", str(creds), "--no-test")
    assert keyring.secret("gateway.secret") == TOKEN.encode()
    credentials = hs.home / "credentials"
    credentials.mkdir(mode=0o700)
    (credentials / "healthspool-gateway").write_text("from-systemd\n")
    p = hs.run("config", "check", env={"CREDENTIALS_DIRECTORY": str(credentials)})
    assert f"gateway.secret: systemd credential {credentials}/healthspool-gateway" in p.stdout, p.stdout
    assert "from-systemd" not in p.stdout + p.stderr


def test_a_keyring_without_a_default_collection_counts_as_none_and_the_files_are_used(hs):
    """A Secret Service that runs but has no default collection (gnome-keyring in a session no
    login unlocked, as on a fresh account started without PAM): `healthspool ui` still prints
    its link and the web secret is a file, as with no keyring at all."""
    address = f"unix:path={hs.runtime}/bus"
    env = {**hs.env, "DBUS_SESSION_BUS_ADDRESS": address}
    bus = subprocess.Popen(["dbus-daemon", "--session", f"--address={address}", "--nofork", "--nopidfile"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    keyring = None
    try:
        assert wait_until(lambda: (hs.runtime / "bus").exists(), 10), "dbus-daemon did not start"
        keyring = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--components=secrets"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def on_bus():
            p = subprocess.run(["dbus-send", f"--bus={address}", "--print-reply", "--dest=org.freedesktop.secrets",
                                "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.ReadAlias", "string:default"],
                               env=env, capture_output=True, text=True)
            return p.returncode == 0 and p.stdout
        reply = wait_until(on_bus, 10)
        assert reply and 'object path "/"' in reply, reply   # no default collection
        link = hs.run("ui", "--no-open", env={"HEALTHSPOOL_WEB_ENABLED": "true"}).stdout.strip().splitlines()[0]
        assert "/login?token=" in link
        assert (hs.state / "web.secret").exists()
        assert "file" in hs.run("secrets").stdout
    finally:
        if keyring:
            keyring.terminate()
            keyring.wait(10)
        bus.terminate()
        bus.wait(10)
