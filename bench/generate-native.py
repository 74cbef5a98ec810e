#!/usr/bin/env python3
"""Writes a native-format JSON array of distinct heart-rate samples on ONE line (no newline at
all), for measuring the importer's memory on a large single-line file.

    bench/generate-native.py --size-mb 300 --out /tmp/hs-bench/native-300.json
"""
import argparse
from datetime import datetime, timedelta, timezone

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--size-mb", type=float, default=300)
parser.add_argument("--out", required=True)
args = parser.parse_args()

target = int(args.size_mb * 1e6)
start = datetime(2020, 1, 1, tzinfo=timezone.utc)
written = 0
with open(args.out, "w") as f:
    f.write("[")
    i = 0
    chunk = []
    while written < target:
        t = (start + timedelta(seconds=5 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        s = ('{"type":"heartRate","value":%d,"unit":"count/min","startDate":"%s","source":"Bench Watch",'
             '"metadata":{"motionContext":"%d"}}' % (55 + i * 7 % 60, t, i % 3))
        piece = ("," if i else "") + s
        chunk.append(piece)
        written += len(piece)
        i += 1
        if len(chunk) == 10000:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk) + "]")
print(f"{args.out}: {i} samples, {written + 2} bytes on one line")
