#!/usr/bin/env python3
"""Generates the documented defaults from SettingKey.all, the one place settings are documented.

    packaging/gen-conf-docs.py conf            the commented defaults file (etc/healthspool/healthspool.conf)
    packaging/gen-conf-docs.py man             the SETTINGS section of healthspool.conf(5), roff
    packaging/gen-conf-docs.py keys            one key a line
    packaging/gen-conf-docs.py --check         exit 1 unless etc/healthspool/healthspool.conf and
                                               man/healthspool.conf.5 match Settings.swift

It reads Sources/HealthSpoolCore/Settings.swift (the `SettingKey.all` table) and the
`enum … : String` declarations of HealthSpoolCore for the allowed values of choices.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = ROOT / "Sources" / "HealthSpoolCore"
CONF = ROOT / "etc" / "healthspool" / "healthspool.conf"
MAN = ROOT / "man" / "healthspool.conf.5"
BEGIN, END = ".\\\" BEGIN GENERATED SETTINGS (packaging/gen-conf-docs.py man)", ".\\\" END GENERATED SETTINGS"

STRING = r'"((?:[^"\\]|\\.)*)"'


def enums():
    """Maps enum name -> [(case, raw value)] for every String enum in HealthSpoolCore."""
    out = {}
    for path in sorted(CORE.glob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"enum (\w+): String[^{]*\{(.*?)\n\}", text, re.S):
            cases = []
            for c in re.finditer(r'^    case (\w+)(?:\s*=\s*"([^"]*)")?\s*$', m.group(2), re.M):
                cases.append((c.group(1), c.group(2) or c.group(1)))
            out[m.group(1)] = cases
    return out


def settings():
    """[(key, default, summary)] in the order of SettingKey.all."""
    text = (CORE / "Settings.swift").read_text(encoding="utf-8")
    table = text[text.index("public static let all"):]
    table = table[:table.index("\n    ]\n")]
    types = enums()
    out = []
    for line in table.splitlines():
        custom = re.match(r"\s*SettingKey\(name: (.*)\)\s*\{", line)
        if custom:
            # A setting with its own parser: name, default text and summary as written.
            key, default, summary = [s.encode().decode("unicode_escape") for s in re.findall(STRING, custom.group(1))][:3]
            out.append((key, default, summary))
            continue
        m = re.match(r"\s*\.(\w+)\((.*)\)\s*\{.*\}\s*,?\s*$", line)
        if not m:
            if re.match(r"\s*\.\w+\(\"", line):
                raise SystemExit("gen-conf-docs: cannot read this setting (write it on one line): " + line.strip()[:80])
            continue
        kind, args = m.groups()
        strings = [s.encode().decode("unicode_escape") for s in re.findall(STRING, args)]
        key = strings[0]
        if kind == "string":
            default, summary = strings[1], strings[2]
        elif kind in ("optional", "list", "address"):
            default, summary = "", strings[1]
        elif kind == "int":
            n = re.match(r'"[^"]*",\s*([\d_]+),\s*([\d_]+)\.\.\.([\d_]+),', args)
            default = n.group(1).replace("_", "")
            summary = strings[1] + " From %s to %s." % (n.group(2).replace("_", ""), n.group(3).replace("_", ""))
        elif kind == "intList":
            n = re.match(r'"[^"]*",\s*\[([\d_, ]+)\],\s*([\d_]+)\.\.\.([\d_]+),', args)
            default = ",".join(x.strip().replace("_", "") for x in n.group(1).split(","))
            summary = strings[1] + " Each from %s to %s." % (n.group(2).replace("_", ""), n.group(3).replace("_", ""))
        elif kind == "typeList":
            default, summary = "", strings[1] + ' Comma-separated, or a list: ["nutrition", "sleep"].'
        elif kind == "word":
            default, summary = strings[1], strings[-1] + " One of: " + ", ".join(strings[2:-1]) + "."
        elif kind == "bool":
            default = re.match(r'"[^"]*",\s*(true|false),', args).group(1)
            summary = strings[1]
        elif kind == "choice":
            enum, case = re.match(r'"[^"]*",\s*(\w+)\.(\w+),', args).groups()
            cases = types[enum]
            default = dict(cases)[case]
            summary = strings[1] + " One of: " + ", ".join(raw for _, raw in cases) + "."
        else:
            raise SystemExit("gen-conf-docs: unknown setting kind .%s in Settings.swift" % kind)
        out.append((key, default, summary))
    if not out:
        raise SystemExit("gen-conf-docs: no settings found in Settings.swift")
    return out


def wrap(text, width, prefix):
    lines, line = [], ""
    for word in text.split():
        if line and len(prefix) + len(line) + 1 + len(word) > width:
            lines.append(prefix + line)
            line = word
        else:
            line = (line + " " + word).strip()
    if line:
        lines.append(prefix + line)
    return lines


def conf_text():
    lines = [
        "# /etc/healthspool/healthspool.conf: system-wide defaults for healthspool.",
        "#",
        "# Every setting is listed with its built-in default, commented out. Uncomment",
        "# and change a line to set a default for every user of this machine. A user's",
        "# ~/.config/healthspool/healthspool.conf overrides this file, HEALTHSPOOL_*",
        "# environment variables override both, and command-line options override all.",
        "# Format: \"key = value\"; \"[section]\" headers prefix the keys below them.",
        "# See healthspool.conf(5).",
    ]
    for key, default, summary in settings():
        lines.append("")
        lines.extend(wrap(summary, 78, "# "))
        lines.append(("#%s = %s" % (key, default)).rstrip())
    return "\n".join(lines) + "\n"


def roff_escape(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def man_text():
    out = [BEGIN]
    for key, default, summary in settings():
        shown = default if default else ("(empty)" if key.startswith("types.") else "(unset)")
        out.append(".TP")
        out.append("\\fB%s\\fR = \\fI%s\\fR" % (roff_escape(key), roff_escape(shown)))
        out.append(roff_escape(summary))
        env = "HEALTHSPOOL_" + key.upper().replace(".", "_")
        out.append("Environment: \\fB%s\\fR." % roff_escape(env))
    out.append(END)
    return "\n".join(out) + "\n"


def man_section_of(path):
    text = path.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    return text[start:end]


def main(argv):
    what = argv[1] if len(argv) > 1 else "--check"
    if what == "conf":
        sys.stdout.write(conf_text())
    elif what == "man":
        sys.stdout.write(man_text())
    elif what == "keys":
        sys.stdout.write("".join(k + "\n" for k, _, _ in settings()))
    elif what == "--update":
        CONF.parent.mkdir(parents=True, exist_ok=True)
        CONF.write_text(conf_text(), encoding="utf-8")
        text = MAN.read_text(encoding="utf-8")
        MAN.write_text(text.replace(man_section_of(MAN), man_text()), encoding="utf-8")
    elif what == "--check":
        stale = []
        if not CONF.exists() or CONF.read_text(encoding="utf-8") != conf_text():
            stale.append(str(CONF.relative_to(ROOT)))
        if not MAN.exists() or man_section_of(MAN) != man_text():
            stale.append(str(MAN.relative_to(ROOT)))
        if stale:
            print("gen-conf-docs: out of date with Settings.swift: %s; run packaging/gen-conf-docs.py --update"
                  % ", ".join(stale), file=sys.stderr)
            return 1
        print("gen-conf-docs: %d settings documented in %s and %s" % (len(settings()), CONF.relative_to(ROOT),
                                                                      MAN.relative_to(ROOT)))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
