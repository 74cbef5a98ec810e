#!/usr/bin/env bash
# swift-release.sh SUBCOMMAND [ARG…]: `swift SUBCOMMAND` with the flags of the one release build
# in .build-release (issue 41): the build the unit tests, the integration tests, the benchmarks'
# smoke run and the .deb share, and the fuzz build reuses. Package.swift puts `-enable-testing`
# on our targets, so that the tests' `@testable import` works on the release build itself; the
# .deb's binary is the same objects linked a second time with the standard library inside it
# (scripts/link-static.py). SwiftPM reuses a module's objects only when its compile command is
# the same, so with one set of flags NIO, Hummingbird, … are compiled once for all of them, and
# the fuzz build (scripts/fuzz.sh, HEALTHSPOOL_FUZZ=1: Package.swift adds the sanitizers to our
# targets only) compiles only our targets again.
#   scripts/swift-release.sh build --build-tests      # make build
#   scripts/swift-release.sh build --product healthspool
#   HEALTHSPOOL_FUZZ=1 scripts/swift-release.sh build --product healthspool-fuzz
set -euo pipefail
cd "$(dirname "$(realpath "$0")")/.."
export PATH=/opt/swift/usr/bin:$PATH
[ $# -ge 1 ] || { echo "usage: scripts/swift-release.sh build [ARG…]" >&2; exit 2; }
sub=$1
shift
# -gnone: no DWARF (SwiftPM's release builds ask for -g). The .deb's binary is stripped of it
# anyway; without it the build takes about a fifth less CPU (HealthSpoolDaemon: 36 against 44 CPU
# seconds). A crash's backtrace still names each function (the symbol table); for file and line
# numbers, build with -g: `swift build -c release` in .build.
exec swift "$sub" -c release --scratch-path .build-release -Xswiftc -gnone \
    --explicit-target-dependency-import-check error "$@"
