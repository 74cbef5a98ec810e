#!/bin/bash
# Builds dist/healthspool_<version>_<arch>.deb with dpkg-deb.
#
#   packaging/build-deb.sh [--no-build] [--lintian]
#
#   --no-build   package the release build already in .build-release (skip swift build; the
#                static link still runs)
#   --lintian    run lintian on the result and fail on errors and warnings
#
# The version comes from the VERSION file at the repository root (and must match
# packaging/debian/changelog). Needs: swift, dpkg-dev (dpkg-shlibdeps, dpkg-parsechangelog),
# python3 (packaging/gen-conf-docs.py), groff-base, gzip; lintian for --lintian.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=1
LINT=0
for arg in "$@"; do
    case "$arg" in
        --no-build) BUILD=0 ;;
        --lintian) LINT=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "build-deb: unknown argument $arg" >&2; exit 2 ;;
    esac
done

die() { echo "build-deb: $*" >&2; exit 1; }

# The Debian tools this script uses; installed when missing and running as root.
need=(dpkg-dev groff-base xz-utils python3 binutils)
[ "$LINT" = 1 ] && need+=(lintian)
missing=()
for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "missing Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})"
    echo "build-deb: apt-get install ${missing[*]}"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >/dev/null
fi

VERSION=$(tr -d ' \n' <VERSION)
[[ "$VERSION" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || die "VERSION '$VERSION' is not a Debian version"
CHANGELOG_VERSION=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
[ "$CHANGELOG_VERSION" = "$VERSION" ] ||
    die "packaging/debian/changelog is at $CHANGELOG_VERSION but VERSION says $VERSION: add a changelog entry"
VERSION_SWIFT=Sources/HealthSpoolCore/Version.swift
if [ -f "$VERSION_SWIFT" ] && ! grep -q "\"$VERSION\"" "$VERSION_SWIFT"; then
    die "$VERSION_SWIFT does not say \"$VERSION\" (VERSION is the one place: update both)"
fi
ARCH=$(dpkg --print-architecture)
# Reproducible timestamps: the last commit's date.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

python3 packaging/gen-conf-docs.py --check
for page in man/*.[1-8]; do
    warnings=$(groff -man -ww -z "$page" 2>&1) || true
    [ -z "$warnings" ] || die "$page: groff warnings: $warnings"
done

# The one release build in .build-release (scripts/swift-release.sh: the flags the tests' and the
# fuzz build share, so that nothing is compiled twice), then its objects linked once more with the
# standard library inside (scripts/link-static.py; full RELRO: -z now with -z relro, the GOT
# read-only once the binary has started): the .deb needs no Swift toolchain.
if [ "$BUILD" = 1 ]; then
    scripts/swift-release.sh build --product healthspool
fi
# The path, not `swift build --show-bin-path`: that waits for SwiftPM's lock on .build-release,
# which a fuzz build (scripts/fuzz.sh) may hold.
[ -x .build-release/release/healthspool ] || die "no release build in .build-release (run without --no-build)"
BIN=.build-release/release/healthspool-static
# `make build` links it too: again only when the build's binary is newer (a fuzz build since then
# has left sanitized objects, which this link cannot use).
if [ ! -x "$BIN" ] || [ .build-release/release/healthspool -nt "$BIN" ]; then
    scripts/link-static.py "$BIN" || die "the static link failed"
fi
python3 packaging/check-man.py "$BIN" man/healthspool.1

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PKG="$TMP/healthspool"
mkdir -p "$PKG/DEBIAN"

# Files, with the modes Debian expects (umask-independent).
install -D -m 0755 "$BIN" "$PKG/usr/bin/healthspool"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$PKG/usr/bin/healthspool"
install -D -m 0644 etc/systemd/user/healthspool.service "$PKG/usr/lib/systemd/user/healthspool.service"
install -D -m 0644 etc/healthspool/healthspool.conf "$PKG/etc/healthspool/healthspool.conf"
for page in man/*.[1-8]; do
    section=${page##*.}
    install -d -m 0755 "$PKG/usr/share/man/man$section"
    gzip -9n <"$page" >"$PKG/usr/share/man/man$section/$(basename "$page").gz"
    chmod 0644 "$PKG/usr/share/man/man$section/$(basename "$page").gz"
done
install -d -m 0755 "$PKG/usr/share/bash-completion/completions" "$PKG/usr/share/zsh/vendor-completions" \
    "$PKG/usr/share/fish/vendor_completions.d"
# Completion files are sourced, not run: no #! line (lintian bash-completion-with-hashbang).
"$PKG/usr/bin/healthspool" --generate-completion-script bash | sed "1{/^#!/d}" >"$PKG/usr/share/bash-completion/completions/healthspool"
"$PKG/usr/bin/healthspool" --generate-completion-script zsh >"$PKG/usr/share/zsh/vendor-completions/_healthspool"
"$PKG/usr/bin/healthspool" --generate-completion-script fish >"$PKG/usr/share/fish/vendor_completions.d/healthspool.fish"
chmod 0644 "$PKG"/usr/share/bash-completion/completions/* "$PKG"/usr/share/zsh/vendor-completions/* \
    "$PKG"/usr/share/fish/vendor_completions.d/*
install -D -m 0644 packaging/desktop/healthspool.desktop "$PKG/usr/share/applications/healthspool.desktop"
install -D -m 0644 packaging/debian/copyright "$PKG/usr/share/doc/healthspool/copyright"
install -D -m 0644 packaging/no-user-namespaces.conf "$PKG/usr/share/doc/healthspool/examples/no-user-namespaces.conf"
install -D -m 0644 packaging/debian/lintian-overrides "$PKG/usr/share/lintian/overrides/healthspool"
# A native package (no Debian revision): its changelog is changelog.gz.
gzip -9n <packaging/debian/changelog >"$PKG/usr/share/doc/healthspool/changelog.gz"
chmod 0644 "$PKG/usr/share/doc/healthspool/changelog.gz"

# Depends: computed from the binary's shared libraries.
mkdir -p "$TMP/shlibs/debian"
printf 'Source: healthspool\n\nPackage: healthspool\nArchitecture: any\n' >"$TMP/shlibs/debian/control"
DEPENDS=$(cd "$TMP/shlibs" && dpkg-shlibdeps -O -e "$PKG/usr/bin/healthspool" 2>"$TMP/shlibdeps.err" |
    sed -n 's/^shlibs:Depends=//p') || { cat "$TMP/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
[ -n "$DEPENDS" ] || die "dpkg-shlibdeps found no dependencies"

# Control area.
SIZE=$(du -sk --exclude=DEBIAN "$PKG" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$SIZE/" -e "s/@DEPENDS@/$DEPENDS/" \
    packaging/debian/control.in >"$PKG/DEBIAN/control"
echo /etc/healthspool/healthspool.conf >"$PKG/DEBIAN/conffiles"
# Maintainer scripts: the user unit enabled for every user (postinst), stopped (prerm) and
# disabled (postrm) as dh_installsystemduser does it.
for script in postinst prerm postrm; do
    install -m 0755 "packaging/debian/$script" "$PKG/DEBIAN/$script"
done
(cd "$PKG" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
    xargs -0 md5sum) >"$PKG/DEBIAN/md5sums"
chmod 0644 "$PKG/DEBIAN/control" "$PKG/DEBIAN/conffiles" "$PKG/DEBIAN/md5sums"
find "$PKG" -type d -exec chmod 0755 {} +
find "$PKG" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p dist
OUT="dist/healthspool_${VERSION}_${ARCH}.deb"
# DEB_XZ_LEVEL: xz's level, 6 (dpkg-deb's own) unless told; the test command's package uses 1
# (7 CPU seconds against 40, 23 MB against 20: the same files).
dpkg-deb --root-owner-group -Zxz -z"${DEB_XZ_LEVEL:-6}" --build "$PKG" "$OUT" >/dev/null
echo "build-deb: $OUT ($(du -h "$OUT" | cut -f1)), Depends: $DEPENDS"

if [ "$LINT" = 1 ]; then
    lintian --fail-on error,warning "$OUT"
fi
