#!/usr/bin/env bash
# swift-release.sh SUBCOMMAND [ARG…]: `swift SUBCOMMAND` with the flags every release build in
# .build-release shares (issue 41): the .deb's binary (packaging/build-deb.sh: the standard
# library linked in statically; full RELRO, -z now with -z relro, the GOT read-only once the
# binary has started) and the fuzz binary (scripts/fuzz.sh, HEALTHSPOOL_FUZZ=1: Package.swift adds
# the sanitizers to our targets only). SwiftPM reuses a module's objects only when its compile
# command is the same, so with one set of flags NIO, Hummingbird, … are compiled once for both;
# the -Xlinker flags reach only the links.
#   scripts/swift-release.sh build --product healthspool
#   HEALTHSPOOL_FUZZ=1 scripts/swift-release.sh build --product healthspool-fuzz
set -euo pipefail
cd "$(dirname "$(realpath "$0")")/.."
export PATH=/opt/swift/usr/bin:$PATH
[ $# -ge 1 ] || { echo "usage: scripts/swift-release.sh build [ARG…]" >&2; exit 2; }
sub=$1
shift
exec swift "$sub" -c release --static-swift-stdlib --scratch-path .build-release \
    -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now "$@"
