"""The desktop entry the .deb installs (issue 17): "Health journal" in the application menu runs
`healthspool ui`; checked with desktop-file-validate (desktop-file-utils)."""
from __future__ import annotations

import configparser
import shutil
import subprocess

import pytest

from conftest import ROOT

ENTRY = ROOT / "packaging" / "desktop" / "healthspool.desktop"


def test_the_desktop_entry_is_valid_and_opens_the_journal():
    validate = shutil.which("desktop-file-validate")
    if not validate:
        pytest.fail("desktop-file-validate is needed (desktop-file-utils: scripts/setup-deps.sh --test)")
    out = subprocess.run([validate, str(ENTRY)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "", out.stdout + out.stderr
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(ENTRY, encoding="utf-8")
    e = entry["Desktop Entry"]
    assert (e["Type"], e["Name"], e["Exec"], e["Terminal"]) == ("Application", "Health journal", "healthspool ui", "false")


def test_the_package_installs_the_desktop_entry():
    script = (ROOT / "packaging" / "build-deb.sh").read_text()
    assert 'packaging/desktop/healthspool.desktop "$PKG/usr/share/applications/healthspool.desktop"' in script
