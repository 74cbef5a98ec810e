#!/usr/bin/env python3
"""The same phone a week later: a generated export.xml (bench/generate-export.py) with N
single-line active-energy records left out (spread evenly) and a later ExportDate, for the
deletion inference's cost (issue 43; bench/deletions-bench.sh).

    bench/remove-samples.py --count 1000 IN/export.xml OUT.xml
"""
import argparse

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--count", type=int, default=1000)
p.add_argument("source")
p.add_argument("out")
a = p.parse_args()
lines = open(a.source, encoding="utf-8").read().split("\n")
energy = [i for i, l in enumerate(lines)
          if 'ActiveEnergyBurned"' in l and l.lstrip().startswith("<Record") and l.endswith("/>")]
step = max(1, len(energy) // max(1, a.count))
drop = set(energy[step - 1::step][:a.count])
text = "\n".join(l for i, l in enumerate(lines) if i not in drop)
text = text.replace('<ExportDate value="2026-01-01 09:00:00 +0100"/>', '<ExportDate value="2026-01-08 09:00:00 +0100"/>')
open(a.out, "w", encoding="utf-8").write(text)
print(f"{len(drop)} records removed: {a.out}")
