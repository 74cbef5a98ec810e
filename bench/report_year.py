#!/usr/bin/env python3
"""A year of health journal made with the CLI, for timing `healthspool report` (issue 29):
three symptom entries a day (random severity, category, aggravating factor), two medications
on reminders (twice a day with about one dose in ten missed, and once a day), a lifestyle factor,
a blood pressure and a heart-rate reading a day, 2025-11-26 to 2026-11-25.

    bench/report_year.py [BINARY] [HOME] [DAYS]     # DAYS: 365 (bench/smoke.sh makes 3)
    HOME=... healthspool report --from 2025-11-26 --to 2026-11-25 --out year.html
"""
import os, subprocess, random, datetime
import sys
B = os.path.realpath(sys.argv[1]) if len(sys.argv) > 1 else ".build/debug/healthspool"
home = sys.argv[2] if len(sys.argv) > 2 else "/tmp/healthspool-report-bench"
days = int(sys.argv[3]) if len(sys.argv) > 3 else 365
os.makedirs(home + "/run", mode=0o700, exist_ok=True)
env = {"HOME": home, "XDG_RUNTIME_DIR": home + "/run", "TZ": "Europe/Berlin", "PATH": "/usr/bin:/bin",
       "HEALTHSPOOL_SYSTEM_CONFIG": home + "/none.conf", "HEALTHSPOOL_WEB_ENABLED": "false"}
def run(*a):
    subprocess.run([B, *a], env=env, check=True, capture_output=True)
random.seed(1)
start = datetime.date(2025, 11, 26)
run("med", "add", "ibuprofen", "--dose", "400 mg")
run("med", "add", "metformin", "--dose", "500 mg")
run("remind", "add", "ibu", "--times", "08:00,20:00", "--every", "day", "--start", str(start), "--med", "ibuprofen")
run("remind", "add", "met", "--times", "12:00", "--every", "day", "--start", str(start), "--med", "metformin")
for d in range(days):
    day = start + datetime.timedelta(days=d)
    for h in (8, 14, 21):
        run("symptom", "log", random.choice(["headache", "nausea", "back pain", "fatigue"]), "--severity", str(random.randint(1, 4)),
            "--at", f"{day}T{h:02d}:00", "--category", random.choice(["Head", "Body"]), "--aggravated-by", random.choice(["screens", "stress", "coffee"]))
    for t in ("08:10", "20:05"):
        if random.random() < 0.9:
            run("med", "take", "ibuprofen", "--at", f"{day} {t}")
    run("med", "take", "metformin", "--at", f"{day} 12:{random.randint(0, 59):02d}")
    run("lifestyle", "log", random.choice(["caffeine", "exercise", "alcohol"]), "--at", f"{day}T18:00")
    run("measure", "bp", f"{random.randint(115, 140)}/{random.randint(70, 90)}", "--at", f"{day} 07:30")
    run("measure", "hr", str(random.randint(55, 90)), "--at", f"{day} 07:31")
print("done")
