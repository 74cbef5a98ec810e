#!/usr/bin/env python3
"""Links the .deb's binary from the one release build's objects, with Swift's standard library
and Foundation inside it (issue 41).

The one release build (scripts/swift-release.sh, in .build-release) serves the unit tests, the
integration tests and the .deb. The tests need Swift's shared runtime (the static SDK has no
`Testing` module), so SwiftPM links `healthspool` against the toolchain's shared libraries; a
.deb cannot depend on a toolchain in /opt. This script reruns SwiftPM's own link command for the
`healthspool` product, read from the build's manifest (.build-release/release.yaml), with
`-static-stdlib` and the static Foundation libraries that command leaves to the shared ones'
dependencies: the same objects, a second link of a few seconds instead of a second compilation.

    scripts/link-static.py [OUT]     # default .build-release/release/healthspool-static

Exit status 1, with the reason, when the manifest has no link command for `healthspool` (no
release build yet) or the link fails.
"""
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
SCRATCH = os.path.join(ROOT, ".build-release")
MANIFEST = os.path.join(SCRATCH, "release.yaml")
# What Foundation's shared libraries bring themselves, as static archives (swift_static/linux);
# a group, because they refer to one another.
FOUNDATION = ["Foundation", "FoundationEssentials", "FoundationInternationalization", "_FoundationICU",
              "_FoundationCollections", "_FoundationCShims", "CoreFoundation", "swiftSynchronization"]


def link_args():
    """SwiftPM's arguments for linking the `healthspool` executable (the manifest's `args:` line,
    a JSON list, of the command whose outputs are the executable)."""
    try:
        lines = open(MANIFEST, encoding="utf-8").read().splitlines()
    except OSError as e:
        sys.exit(f"link-static: no release build's manifest ({e}): run scripts/swift-release.sh build first")
    executable = os.path.join(SCRATCH, platform.machine() + "-unknown-linux-gnu", "release", "healthspool")
    for i, line in enumerate(lines):
        if line.strip() == f'outputs: ["{executable}"]':
            for follow in lines[i + 1:i + 4]:
                if follow.strip().startswith("args: "):
                    return json.loads(follow.strip()[len("args: "):])
    sys.exit(f"link-static: {MANIFEST} has no link command for {executable}")


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(SCRATCH, "release", "healthspool-static"))
    args = link_args()
    o = args.index("-o")
    args[o + 1] = out + ".tmp"
    group = ["-Xlinker", "--start-group"] + [a for lib in FOUNDATION for a in ("-Xlinker", "-l" + lib)] + ["-Xlinker", "--end-group"]
    # Full RELRO as before: -z now with -z relro (the GOT read-only once the binary has started).
    hardening = ["-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now"]
    done = subprocess.run(args + ["-static-stdlib"] + group + hardening, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"link-static: the link failed (exit {done.returncode})")
    os.replace(out + ".tmp", out)
    print(f"link-static: {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
