#!/usr/bin/env python3
"""Each target imports only the package's targets it declares as direct dependencies.

SwiftPM's own check (`swift build --explicit-target-dependency-import-check error`, which
`make build` passes) accepts a module reached through another dependency: HealthSpoolWeb could
import HealthSpoolStore through HealthSpoolDaemon. This check does not: the layers in
docs/architecture.md hold only if a target's `import` lines name its declared dependencies.
Reads the manifest with `swift package dump-package`; checks every Swift file of every target
(Sources/ and Tests/). Exit status 1 and one line per import when one is not declared.

Two rules of issue 41 besides: the modules below the daemon never depend on it (FORBIDDEN: the
configuration module, the journal and the ingest endpoint), and the daemon holds no journal
code: it declares no type named `Journal…` but its wiring (JOURNAL_WIRING), and no type that
HealthJournal declares. The journal's queries are HealthJournal's too: HealthSpoolStore (the
connection, the samples, the schema and its migrations) declares no `…JournalStore` and no type
of HealthJournal's.
"""
import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


# Dependencies a target must not declare: the arrows point from the daemon to these, never back.
FORBIDDEN = {
    "HealthSpoolConfig": {"HealthSpoolDaemon", "HealthJournal", "HealthSpoolWeb", "HealthSpoolIngest"},
    "HealthJournal": {"HealthSpoolDaemon", "HealthSpoolWeb", "HealthSpoolIngest"},
    "HealthSpoolIngest": {"HealthSpoolDaemon", "HealthJournal", "HealthSpoolWeb"},
}
# The daemon's journal wiring: the reminders' service, which calls the journal module.
JOURNAL_WIRING = {"JournalScheduler", "JournalService", "JournalWritesService"}
DECLARATION = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
                         r"(?:struct|enum|class|actor|protocol|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)")


def declared_types(folder: str) -> dict:
    """Each top-level type a folder's Swift files declare, with the file and line."""
    found = {}
    for directory, _, files in os.walk(folder):
        for file in sorted(files):
            if file.endswith(".swift"):
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = DECLARATION.match(line)
                        if m and not line.startswith((" ", "\t")):
                            found.setdefault(m.group(1), f"{path}:{number}")
    return found


def layer_problems(root: str, targets: dict) -> list:
    problems = []
    for name, forbidden in FORBIDDEN.items():
        target = targets.get(name)
        if target is None:
            problems.append(f"Package.swift: the target {name} is missing")
            continue
        for dep in target["dependencies"]:
            for kind in ("byName", "target"):
                if kind in dep and dep[kind][0] in forbidden:
                    problems.append(f"Package.swift: {name} depends on {dep[kind][0]}; the arrow must point the other way")
    daemon = declared_types(os.path.join(root, "Sources", "HealthSpoolDaemon"))
    journal = declared_types(os.path.join(root, "Sources", "HealthJournal"))
    for type_name, place in sorted(daemon.items()):
        if type_name.startswith("Journal") and type_name not in JOURNAL_WIRING or type_name in journal:
            problems.append(f"{os.path.relpath(place, root)}: HealthSpoolDaemon declares {type_name}, journal code: it belongs in HealthJournal")
    store = declared_types(os.path.join(root, "Sources", "HealthSpoolStore"))
    for type_name, place in sorted(store.items()):
        if type_name.endswith("JournalStore") or type_name in journal:
            problems.append(f"{os.path.relpath(place, root)}: HealthSpoolStore declares {type_name}, the journal's queries: they belong in HealthJournal")
    return problems


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                         capture_output=True, text=True).stdout)
    targets = {t["name"]: t for t in manifest["targets"] if t["type"] in ("regular", "executable", "test")}
    ours = {t["name"] for t in manifest["targets"]}
    problems = []
    for name, target in sorted(targets.items()):
        declared = set()
        for dep in target["dependencies"]:
            for kind in ("byName", "target"):
                if kind in dep:
                    declared.add(dep[kind][0])
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = IMPORT.match(line)
                        if m and m.group(1) in ours and m.group(1) != name and m.group(1) not in declared:
                            problems.append(f"{os.path.relpath(path, root)}:{number}: {name} imports {m.group(1)}, "
                                            f"which is not among its dependencies in Package.swift")
    problems += layer_problems(root, targets)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
