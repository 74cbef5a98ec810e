#!/usr/bin/env python3
"""The zip target's cross-check: for every archive in the given corpus directories that the zip
reader accepts using the central directory, Python's zipfile must read the same member (found by
its local header offset) to the same bytes. Archives the reader accepts only by walking local
headers (no central directory: zipfile cannot open those), and those zipfile refuses (healthspool
is deliberately more tolerant, e.g. of a comment holding an end-of-directory signature), are
counted and listed, not failed.
usage: zip-crosscheck.py FUZZ_BINARY DIR..."""
import hashlib, json, os, subprocess, sys, zipfile

binary, dirs = sys.argv[1], sys.argv[2:]
files = sorted(os.path.join(d, f) for d in dirs for f in os.listdir(d))
env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
results = []
for i in range(0, len(files), 200):
    out = subprocess.run([binary, "dump-zip", *files[i:i + 200]], env=env, capture_output=True, text=True, check=True).stdout
    results += [json.loads(line) for line in out.splitlines()]
compared = walked = refused = differ = 0
for r in results:
    if not r["ok"]:
        continue
    if not r["centralDirectory"]:
        walked += 1
        continue
    why = None
    try:
        with zipfile.ZipFile(r["file"]) as z:
            infos = [i for i in z.infolist() if i.header_offset == r["offset"]]
            if not infos:
                why = f"zipfile lists no member at offset {r['offset']}"
            else:
                data = z.read(infos[0])
                compared += 1
                if len(data) != r["size"] or hashlib.sha256(data).hexdigest() != r["sha256"]:
                    why = f"zipfile reads {len(data)} bytes (sha256 {hashlib.sha256(data).hexdigest()[:16]}), healthspool {r['size']} ({r['sha256'][:16]})"
                elif infos[0].filename.encode("utf-8", "replace") != r["member"].encode("utf-8", "replace") and infos[0].flag_bits & 0x800:
                    why = f"names differ: zipfile '{infos[0].filename}', healthspool '{r['member']}'"
    except Exception as e:  # zipfile refuses an archive healthspool read
        refused += 1
        print(f"refused by zipfile, read by healthspool: {r['file']}: {type(e).__name__}: {e}")
        continue
    if why:
        differ += 1
        print(f"DIFFERS {r['file']}: {why}")
print(f"zip cross-check: {len(results)} archives, {compared} read by both and compared, {walked} read from local headers only, {refused} refused by zipfile, {differ} differ")
sys.exit(1 if differ else 0)
