#!/usr/bin/env python3
"""Checks that healthspool(1) documents every subcommand and option the binary has.

    packaging/check-man.py PATH/TO/healthspool [man/healthspool.1]

Walks `healthspool [sub...] --help` (swift-argument-parser's SUBCOMMANDS and OPTIONS
sections) and fails, naming what is missing, when the man page lacks a subcommand path
("gateway set") or an option ("--ca-file").
"""
import re
import subprocess
import sys


def help_text(binary, path):
    return subprocess.run([binary, *path, "--help"], capture_output=True, text=True, check=True).stdout


def section(text, title):
    m = re.search(r"^%s:\n(.*?)(?:\n\S|\Z)" % title, text, re.S | re.M)
    return m.group(1) if m else ""


def walk(binary, path=()):
    text = help_text(binary, list(path))
    options = set(re.findall(r"^  (?:-\w, )?(--[a-z][a-z0-9-]*)", section(text, "OPTIONS"), re.M))
    yield path, options
    for name in re.findall(r"^  ([a-z][a-z0-9-]*)\b", section(text, "SUBCOMMANDS"), re.M):
        if name != "help":
            yield from walk(binary, path + (name,))


def main():
    binary = sys.argv[1]
    page = sys.argv[2] if len(sys.argv) > 2 else "man/healthspool.1"
    text = open(page, encoding="utf-8").read()
    # The page as plain words: drop roff requests' names, quotes and escapes.
    plain = re.sub(r"^\.\w+ ?", "", text, flags=re.M).replace("\\-", "-").replace("\\e", "\\").replace('"', "")
    plain = re.sub(r"\\f[BIRP]", "", plain)
    missing = []
    for path, options in walk(binary):
        if path and " ".join(path) not in plain:
            missing.append("subcommand '%s'" % " ".join(path))
        for option in sorted(options - {"--help", "--version", "--generate-completion-script"}):
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), plain):
                missing.append("option %s of '%s'" % (option, " ".join(path) or "healthspool"))
    if missing:
        print("check-man: %s lacks: %s" % (page, ", ".join(sorted(set(missing)))), file=sys.stderr)
        return 1
    print("check-man: %s documents every subcommand and option" % page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
