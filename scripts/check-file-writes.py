#!/usr/bin/env python3
"""healthspool creates files one way only (issue 39): through SafeWrite
(Sources/HealthSpoolLinux/SafeWrite.swift), which never writes through a name another user can
guess or a link they placed. This check fails on any other place in Sources/ (Swift or C) that
creates a file: an `open` with O_CREAT, `creat`, `fopen` for writing, `mkstemp`, a PEM or BIO
writer to a named file, Foundation's `write(to…)`/`createFile`.

One place is allowed, with its reason: the store's busy-wait mark file lives beside the SQLite
database in the state directory (0700), where SQLite creates its own -wal and -shm files the
same way; the store module does not depend on HealthSpoolLinux. It opens with O_NOFOLLOW.

Exit status 1 and one line per place when one is found.
"""
import os
import re
import sys

PATTERNS = [
    re.compile(r"\bO_CREAT\b"),
    re.compile(r"\bcreat\s*\("),
    re.compile(r"\bfopen\s*\([^)]*\"[wa]"),
    re.compile(r"\bmkstemp\w*\s*\("),
    re.compile(r"\bBIO_new_file\s*\("),
    re.compile(r"\bPEM_write_(?!bio)\w+\s*\("),
    re.compile(r"\.write\s*\(\s*to(File)?\s*:"),
    re.compile(r"\bcreateFile\s*\("),
]

ALLOWED = {
    "Sources/HealthSpoolLinux/SafeWrite.swift": "the one function",
    "Sources/HealthSpoolStore/BusyWait.swift": "the mark file beside the store, in the 0700 state directory",
}

# The build tool that embeds the web files writes into SwiftPM's build folder, not the user's.
SKIP_DIRS = {"Sources/embed-web-files"}


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = []
    for folder, _, files in os.walk(os.path.join(root, "Sources")):
        rel_folder = os.path.relpath(folder, root)
        if any(rel_folder == d or rel_folder.startswith(d + "/") for d in SKIP_DIRS):
            continue
        for name in files:
            if not name.endswith((".swift", ".c", ".h")):
                continue
            rel = os.path.join(rel_folder, name)
            if rel in ALLOWED:
                continue
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    code = line.split("//")[0] if name.endswith(".swift") else line
                    if any(p.search(code) for p in PATTERNS):
                        problems.append(f"{rel}:{number}: creates a file outside SafeWrite: {line.strip()}")
    for p in problems:
        print(p)
    if problems:
        print("check-file-writes: create files with SafeWrite (createNew, openOwn, replace) or "
              "FileSystem.writeAtomically", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
