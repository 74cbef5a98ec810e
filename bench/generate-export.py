#!/usr/bin/env python3
"""Deterministic generator of realistic Apple Health exports, for benchmarks.

Writes OUT/export.xml and OUT/export.zip (apple_health_export/export.xml beside a small
export_cda.xml and a few workout-routes/*.gpx, as the phone does). Dense Apple Watch data:
heart rate dominant, energy, steps, distance, HRV with beat lists, sleep stages, blood
pressure correlations (whose records also appear at top level, as in real exports), workouts
with events/statistics/routes, activity summaries; about 0.9 MB of XML per day.

The content of day N never depends on how many days are generated, so an export of
--days 303 holds every record of --days 300 plus ~1% new ones (next month's cumulative export).

    bench/generate-export.py --size-mb 250 --out /tmp/hs-bench/250
    bench/generate-export.py --days 303 --out /tmp/hs-bench/250plus
    bench/generate-export.py --many-sources --size-mb 250 --out /tmp/hs-bench/many250
    bench/generate-export.py --days 30 --routes 30 --ecgs 10 --out /tmp/hs-bench/parts
    bench/generate-export.py --days 5 --clinical 150 --audiogram --out /tmp/hs-bench/records

--routes N writes a real GPX track (one point a second, elevation, speed/course/accuracy
extensions, as the phone writes it) for the workouts of the first N days, under the name its
FileReference gives; without it the zip holds three placeholder tracks. --ecgs N writes N ECG
recordings (electrocardiograms/ecg_*.csv: 30 s at 512 Hz, every fifth one atrial
fibrillation), one a day at 09:00. Neither changes export.xml.

--clinical N writes N provider records (clinical-records/*.json, one FHIR resource a file:
conditions, allergies, medication requests, immunizations, lab observations, procedures and
diagnostic reports; R4 from one provider, every fourth one DSTU2 from another), each named in
export.xml by a ClinicalRecord element; --audiogram adds one Audiogram (six frequencies, both
ears). Only these two add to export.xml, at its end.

--many-sources writes what a phone that several apps and devices fed exports: a device string
on nearly every record whose object address changes from record to record (among a few a
month) and whose software version changes every month, and more sources (a Garmin watch, an Oura ring, Pedometer++,
AutoSleep, MyFitnessPal) writing steps, distance, energy, heart rate and sleep over the watch's
and the phone's (about 1.34 MB and 3,200 records a day).
"""
import argparse
import json
import os
import random
import zipfile
from datetime import datetime, timedelta, timezone

BYTES_PER_DAY = 0.9e6
BYTES_PER_DAY_MANY = 1.34e6
TZ = timezone(timedelta(hours=1))
START = datetime(2024, 1, 1, tzinfo=TZ)
WATCH = "Alex’s Apple Watch"
PHONE = "Alex’s iPhone"
WATCH_DEVICE = ("&lt;&lt;HKDevice: 0x{addr:x}&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
                "hardware:Watch6,2, software:10.1&gt;")
PHONE_DEVICE = ("&lt;&lt;HKDevice: 0x{addr:x}&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
                "hardware:iPhone14,2, software:17.1&gt;")

DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutEvent ((MetadataEntry)*)>
<!ATTLIST WorkoutEvent
  type                 CDATA #REQUIRED
  date                 CDATA #REQUIRED
  duration             CDATA #IMPLIED
  durationUnit         CDATA #IMPLIED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                 CDATA #REQUIRED
  startDate            CDATA #REQUIRED
  endDate              CDATA #REQUIRED
  average              CDATA #IMPLIED
  minimum              CDATA #IMPLIED
  maximum              CDATA #IMPLIED
  sum                  CDATA #IMPLIED
  unit                 CDATA #IMPLIED
>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
<!ATTLIST WorkoutRoute
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleMoveTime            CDATA #IMPLIED
  appleMoveTimeGoal        CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
]>
<HealthData locale="en_US">
 <ExportDate value="2026-01-01 09:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-03-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
"""


def fmt(t):
    return t.strftime("%Y-%m-%d %H:%M:%S +0100")


def rng(kind, day):
    return random.Random(f"{kind}/{day}")


def record(out, typ, src, ver, dev, unit, created, start, end, value, meta=(), inner=""):
    unit_attr = f' unit="{unit}"' if unit else ""
    dev_attr = f' device="{dev}"' if dev else ""
    head = (f' <Record type="{typ}" sourceName="{src}" sourceVersion="{ver}"{dev_attr}{unit_attr} '
            f'creationDate="{fmt(created)}" startDate="{fmt(start)}" endDate="{fmt(end)}" value="{value}"')
    if not meta and not inner:
        out.append(head + "/>\n")
        return
    out.append(head + ">\n")
    for k, v in meta:
        out.append(f'  <MetadataEntry key="{k}" value="{v}"/>\n')
    out.append(inner)
    out.append(" </Record>\n")


class Vary:
    """--many-sources: device strings change per record (address) and per month (software)."""
    on = False
    rng = random.Random(0)

    @classmethod
    def device(cls, template, day, base, software):
        if not cls.on:
            return template.format(addr=base)
        month = day // 30
        # The phone reuses a few device objects for a while: 16 addresses a month, drawn per record.
        text = template.format(addr=base + month * 0x10000 + cls.rng.randrange(16) * 0x1A0)
        return text.replace("software:" + software, f"software:{software.split('.')[0]}.{month % 6}.{day % 3}")


def watch_dev(day):
    # The object address changes between exports and devices: never part of identity.
    return Vary.device(WATCH_DEVICE, day, 0x283F7C000 + (day % 7) * 0x1A0, "10.1")


def phone_dev(day):
    return Vary.device(PHONE_DEVICE, day, 0x2810A0000 + day % 5, "17.1")


GARMIN_DEVICE = ("&lt;&lt;HKDevice: 0x{addr:x}&gt;, name:Forerunner 255, manufacturer:Garmin, model:Forerunner 255, "
                 "hardware:006-B3992-00, software:19.18&gt;")
OURA_DEVICE = ("&lt;&lt;HKDevice: 0x{addr:x}&gt;, name:Oura Ring, manufacturer:Oura Health Oy, model:Gen3, "
               "hardware:Gen3, software:2.9&gt;")


def garmin_dev(day):
    return Vary.device(GARMIN_DEVICE, day, 0x2830B0000, "19.18")


def oura_dev(day):
    return Vary.device(OURA_DEVICE, day, 0x2830C0000, "2.9")


def app_series(kind, typ, unit, src, ver, dev, per_day, lo, hi, decimals, hours=(0, 24)):
    """An app's samples of one type: `per_day` intervals spread over `hours` of each day."""
    def gen(out, day):
        r = rng(kind, day)
        base = START + timedelta(days=day, hours=hours[0])
        step = (hours[1] - hours[0]) * 3600 // per_day
        for i in range(per_day):
            s = base + timedelta(seconds=i * step + r.randint(0, 20))
            e = s + timedelta(seconds=r.randint(min(30, step - 26), step - 25))
            v = round(r.uniform(lo, hi), decimals) if decimals else r.randint(lo, hi)
            record(out, typ, src, ver, dev(day) if dev else None, unit, e + timedelta(minutes=7), s, e, v)
    return gen


def app_sleep(kind, src, ver, dev, late):
    """An app's night: in bed, then stages, starting `late` minutes after the watch's."""
    def gen(out, day):
        r = rng(kind, day)
        t = START + timedelta(days=day, hours=-1, minutes=late + r.randint(0, 40))
        end = t + timedelta(hours=7, minutes=r.randint(0, 50))
        d = dev(day) if dev else None
        record(out, "HKCategoryTypeIdentifierSleepAnalysis", src, ver, d, None, end, t, end,
               "HKCategoryValueSleepAnalysisInBed")
        while t < end:
            e = min(end, t + timedelta(minutes=r.randint(5, 30)))
            record(out, "HKCategoryTypeIdentifierSleepAnalysis", src, ver, dev(day) if dev else None, None, end, t, e,
                   r.choice(["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
                             "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake"]))
            t = e
    return gen


def heart_rate(out, day):
    r = rng("hr", day)
    base = START + timedelta(days=day)
    t = base + timedelta(seconds=r.randint(0, 120))
    while t < base + timedelta(days=1):
        workout = 17 * 60 <= (t - base).seconds // 60 < 17 * 60 + 45
        bpm = r.randint(115, 165) if workout else r.randint(52, 95)
        record(out, "HKQuantityTypeIdentifierHeartRate", WATCH, "10.1", watch_dev(day), "count/min",
               t + timedelta(minutes=r.randint(1, 9)), t, t, bpm,
               [("HKMetadataKeyHeartRateMotionContext", r.choice("0012"))])
        t += timedelta(seconds=r.randint(4, 9) if workout else r.randint(180, 360))


def interval_series(kind, typ, unit, src, dev, per_day, lo, hi, decimals):
    def gen(out, day):
        r = rng(kind, day)
        base = START + timedelta(days=day)
        step = 86400 // per_day
        for i in range(per_day):
            s = base + timedelta(seconds=i * step + r.randint(0, 20))
            e = s + timedelta(seconds=r.randint(30, step - 25))
            v = round(r.uniform(lo, hi), decimals) if decimals else r.randint(lo, hi)
            record(out, typ, src, "10.1", dev(day) if dev else None, unit, e + timedelta(minutes=3), s, e, v)
    return gen


def hrv(out, day):
    r = rng("hrv", day)
    base = START + timedelta(days=day)
    for i in range(5):
        s = base + timedelta(hours=2 + i * 4, minutes=r.randint(0, 50))
        e = s + timedelta(seconds=60)
        beats = ["  <HeartRateVariabilityMetadataList>\n"]
        bt = s
        for _ in range(r.randint(60, 90)):
            bt += timedelta(milliseconds=r.randint(650, 1100))
            h12 = bt.hour % 12 or 12
            stamp = f"{h12}:{bt.minute:02d}:{bt.second:02d}.{bt.microsecond // 10000:02d} {'AM' if bt.hour < 12 else 'PM'}"
            beats.append(f'   <InstantaneousBeatsPerMinute bpm="{r.randint(55, 80)}" time="{stamp}"/>\n')
        beats.append("  </HeartRateVariabilityMetadataList>\n")
        record(out, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", WATCH, "10.1", watch_dev(day), "ms",
               e + timedelta(minutes=2), s, e, round(r.uniform(20, 90), 4), inner="".join(beats))


def sleep(out, day):
    r = rng("sleep", day)
    t = START + timedelta(days=day, hours=-1, minutes=r.randint(0, 40))
    stages = ["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
              "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake"]
    night_end = t + timedelta(hours=7, minutes=r.randint(0, 60))
    record(out, "HKCategoryTypeIdentifierSleepAnalysis", WATCH, "10.1", watch_dev(day), None,
           night_end + timedelta(minutes=5), t, night_end, "HKCategoryValueSleepAnalysisInBed",
           [("HKTimeZone", "Europe/Zurich")])
    while t < night_end:
        e = min(night_end, t + timedelta(minutes=r.randint(3, 40)))
        record(out, "HKCategoryTypeIdentifierSleepAnalysis", WATCH, "10.1", watch_dev(day), None,
               night_end + timedelta(minutes=5), t, e, r.choice(stages), [("HKTimeZone", "Europe/Zurich")])
        t = e


def stand_hours(out, day):
    r = rng("stand", day)
    base = START + timedelta(days=day)
    for h in range(7, 22):
        s = base + timedelta(hours=h)
        record(out, "HKCategoryTypeIdentifierAppleStandHour", WATCH, "10.1", watch_dev(day), None,
               s + timedelta(hours=1, minutes=1), s, s + timedelta(hours=1),
               "HKCategoryValueAppleStandHourStood" if r.random() < 0.8 else "HKCategoryValueAppleStandHourIdle")


def oxygen(out, day):
    r = rng("spo2", day)
    base = START + timedelta(days=day)
    for i in range(8):
        s = base + timedelta(hours=i * 3, minutes=r.randint(0, 59))
        record(out, "HKQuantityTypeIdentifierOxygenSaturation", WATCH, "10.1", watch_dev(day), "%",
               s + timedelta(minutes=1), s, s, r.choice(["0.95", "0.96", "0.97", "0.98", "0.99", "1"]))


def body(out, day):
    if day % 7:
        return
    r = rng("body", day)
    s = START + timedelta(days=day, hours=7, minutes=r.randint(0, 30))
    record(out, "HKQuantityTypeIdentifierBodyMass", "Withings", "6.2.1", None, "kg", s, s, s, round(r.uniform(60, 64), 2),
           [("HKWasUserEntered", "0"), ("Withings User Identifier", "12345")])
    record(out, "HKQuantityTypeIdentifierBodyFatPercentage", "Withings", "6.2.1", None, "%", s, s, s,
           round(r.uniform(0.22, 0.26), 3), [("HKWasUserEntered", "0")])


def bp_records(day):
    r = rng("bp", day)
    s = START + timedelta(days=day, hours=8, minutes=r.randint(0, 30))
    sys_ = r.randint(110, 140)
    dia = r.randint(65, 90)
    out = []
    record(out, "HKQuantityTypeIdentifierBloodPressureSystolic", "Omron", "2.9", None, "mmHg", s, s, s, sys_)
    record(out, "HKQuantityTypeIdentifierBloodPressureDiastolic", "Omron", "2.9", None, "mmHg", s, s, s, dia)
    return s, out


def blood_pressure_top(out, day):
    if day % 3 == 0:
        out.extend(bp_records(day)[1])


def correlations(out, day):
    if day % 3:
        return
    s, inner = bp_records(day)
    out.append(f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" sourceVersion="2.9" '
               f'creationDate="{fmt(s)}" startDate="{fmt(s)}" endDate="{fmt(s)}">\n')
    out.append('  <MetadataEntry key="HKWasUserEntered" value="0"/>\n')
    out.extend("  " + line for line in inner)
    out.append(" </Correlation>\n")


def workouts(out, day):
    r = rng("workout", day)
    s = START + timedelta(days=day, hours=17, minutes=r.randint(0, 5))
    minutes = r.uniform(30, 45)
    e = s + timedelta(minutes=minutes)
    kind = r.choice(["Running", "Walking", "Cycling"])
    out.append(f' <Workout workoutActivityType="HKWorkoutActivityType{kind}" duration="{minutes}" durationUnit="min" '
               f'sourceName="{WATCH}" sourceVersion="10.1" device="{watch_dev(day)}" creationDate="{fmt(e)}" '
               f'startDate="{fmt(s)}" endDate="{fmt(e)}">\n')
    out.append('  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n')
    out.append('  <MetadataEntry key="HKAverageMETs" value="8.9 kcal/hr·kg"/>\n')
    out.append(f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{fmt(s)}" duration="{minutes / 2}" durationUnit="min"/>\n')
    out.append(f'  <WorkoutEvent type="HKWorkoutEventTypePause" date="{fmt(s + timedelta(minutes=10))}"/>\n')
    out.append(f'  <WorkoutEvent type="HKWorkoutEventTypeResume" date="{fmt(s + timedelta(minutes=11))}"/>\n')
    out.append(f'  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="{fmt(s)}" endDate="{fmt(e)}" '
               f'average="{r.randint(120, 150)}" minimum="{r.randint(80, 110)}" maximum="{r.randint(160, 180)}" unit="count/min"/>\n')
    out.append(f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{fmt(s)}" endDate="{fmt(e)}" '
               f'sum="{round(minutes * 10.5, 3)}" unit="kcal"/>\n')
    out.append(f'  <WorkoutRoute sourceName="{WATCH}" sourceVersion="10.1" creationDate="{fmt(e)}" startDate="{fmt(s)}" endDate="{fmt(e)}">\n')
    out.append(f'   <FileReference path="/workout-routes/{route_name(s)}"/>\n')
    out.append("  </WorkoutRoute>\n")
    out.append(" </Workout>\n")


def route_name(s):
    """The route's file name as the phone writes it: route_2024-01-01_5.01pm.gpx."""
    return f"route_{s:%Y-%m-%d_%-I.%M}" + s.strftime("%p").lower() + ".gpx"


def route_start(day):
    r = rng("workout", day)
    s = START + timedelta(days=day, hours=17, minutes=r.randint(0, 5))
    minutes = r.uniform(30, 45)
    return s, minutes


def gpx(day):
    """A track as Apple writes it: a loop, one point a second, times in UTC."""
    import math
    s, minutes = route_start(day)
    r = rng("route", day)
    lat0, lon0 = 52.5200 + r.uniform(-0.02, 0.02), 13.4050 + r.uniform(-0.02, 0.02)
    n = int(minutes * 60)
    radius = 0.012 + r.uniform(0, 0.004)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           '<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
           'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n',
           f' <metadata>\n  <time>{(s + timedelta(minutes=minutes)).astimezone(timezone.utc):%Y-%m-%dT%H:%M:%SZ}</time>\n </metadata>\n',
           f' <trk>\n  <name>Route {s:%Y-%m-%d %-I:%M%p}</name>\n  <trkseg>\n']
    for i in range(n):
        a = 2 * math.pi * i / n
        lat = lat0 + radius * math.sin(a) + r.uniform(-0.000002, 0.000002)
        lon = lon0 + 1.6 * radius * (1 - math.cos(a)) + r.uniform(-0.000002, 0.000002)
        ele = 34 + 12 * math.sin(3 * a) + r.uniform(-0.3, 0.3)
        t = (s + timedelta(seconds=i)).astimezone(timezone.utc)
        out.append(f'   <trkpt lon="{lon:.6f}" lat="{lat:.6f}"><ele>{ele:.3f}</ele><time>{t:%Y-%m-%dT%H:%M:%SZ}</time>'
                   f'<extensions><speed>{2.6 + r.uniform(-0.4, 0.4):.2f}</speed><course>{(math.degrees(a) + 90) % 360:.1f}</course>'
                   f'<hAcc>{r.uniform(1, 5):.1f}</hAcc><vAcc>{r.uniform(1, 4):.1f}</vAcc></extensions></trkpt>\n')
    out.append('  </trkseg>\n </trk>\n</gpx>\n')
    return "".join(out)


ECG_RATE = 512
AF_SYMPTOMS = '"Rapid, pounding, or fluttering heartbeat"'


def ecg_csv(n):
    """Recording n: 30 s of a synthetic lead I at 512 Hz; every fifth one atrial fibrillation."""
    import math
    r = rng("ecg", n)
    af = n % 5 == 4
    hr = r.randint(58, 80) if not af else r.randint(85, 110)
    when = START + timedelta(days=n, hours=9, minutes=r.randint(0, 50), seconds=r.randint(0, 59))
    count = 30 * ECG_RATE
    beats, t = [], 0.3
    while t < 30.5:
        beats.append(t)
        rr = 60 / hr
        t += rr * (r.uniform(0.55, 1.45) if af else r.uniform(0.97, 1.03))
    waves = [(-0.2, 0.025, 0.12), (-0.03, 0.010, -0.10), (0.0, 0.012, 1.05), (0.03, 0.010, -0.25), (0.26, 0.045, 0.30)]
    if af:
        waves = waves[1:]
    volts = []
    for i in range(count):
        x = i / ECG_RATE
        mv = 0.0
        for b in beats:
            if abs(x - b) < 0.6:
                for off, width, amp in waves:
                    mv += amp * math.exp(-((x - b - off) ** 2) / (2 * width * width))
        mv += (0.03 * math.sin(2 * math.pi * 6.3 * x + n) if af else 0) + 0.05 * math.sin(2 * math.pi * 0.25 * x)
        mv += r.uniform(-0.008, 0.008)
        volts.append(f"{mv * 1000:.3f}")
    header = (f'Name,Alex Example\nDate of Birth,"Jan 1, 1985"\nRecorded Date,{fmt(when)}\n'
              f'Classification,{"Atrial Fibrillation" if af else "Sinus Rhythm"}\n'
              f'Symptoms,{AF_SYMPTOMS if af else ""}\nSoftware Version,1.90\n'
              f'Device,"Watch6,2"\nSample Rate,{ECG_RATE} hertz\n\nLead,Lead I\nUnit,µV\n\n')
    return f"electrocardiograms/ecg_{when:%Y-%m-%d}.csv", header + "\n".join(volts) + "\n", hr


CLINICAL_KINDS = [
    ("Condition", "HKClinicalTypeIdentifierConditionRecord",
     [("38341003", "Essential hypertension"), ("44054006", "Type 2 diabetes mellitus"), ("195967001", "Asthma"),
      ("55822004", "Hyperlipidemia")]),
    ("AllergyIntolerance", "HKClinicalTypeIdentifierAllergyRecord",
     [("7980", "Penicillin"), ("1191", "Aspirin"), ("2670", "Codeine")]),
    ("MedicationRequest", "HKClinicalTypeIdentifierMedicationRecord",
     [("314076", "Lisinopril 10 mg tablet"), ("860975", "Metformin 500 mg tablet"), ("617312", "Atorvastatin 20 mg tablet")]),
    ("Immunization", "HKClinicalTypeIdentifierImmunizationRecord",
     [("208", "COVID-19 mRNA vaccine"), ("141", "Influenza vaccine"), ("115", "Tdap vaccine")]),
    ("Observation", "HKClinicalTypeIdentifierLabResultRecord",
     [("4548-4", "Hemoglobin A1c"), ("2093-3", "Cholesterol"), ("2345-7", "Glucose")]),
    ("Procedure", "HKClinicalTypeIdentifierProcedureRecord", [("73761001", "Colonoscopy"), ("80146002", "Appendectomy")]),
    ("DiagnosticReport", "HKClinicalTypeIdentifierLabResultRecord", [("24323-8", "Comprehensive metabolic panel")]),
]
LAB_UNITS = {"4548-4": ("%", 4.8, 7.5), "2093-3": ("mg/dL", 150, 240), "2345-7": ("mg/dL", 70, 130)}


def clinical_record(n):
    """Record n: (file name, JSON text, ClinicalRecord element). R4 from Lakeside Health; every
    fourth one DSTU2 from Valley Clinic (its field names: patient, dateRecorded, date, …)."""
    r = rng("clinical", n)
    rtype, hk, codes = CLINICAL_KINDS[n % len(CLINICAL_KINDS)]
    code, text = codes[(n // len(CLINICAL_KINDS)) % len(codes)]
    dstu2 = n % 4 == 3
    if dstu2 and rtype in ("MedicationRequest", "DiagnosticReport"):
        rtype = "MedicationOrder" if rtype == "MedicationRequest" else rtype
    when = START + timedelta(days=r.randint(-900, 0), hours=r.randint(8, 17), minutes=r.randint(0, 59))
    stamp = when.strftime("%Y-%m-%dT%H:%M:00-05:00")
    rid = f"{'T' if dstu2 else 'e'}{n:05d}{r.randrange(16 ** 8):08x}"
    patient = {"reference": "Patient/eExamplePatient01", "display": "Alex Example"}
    system = {"Observation": "http://loinc.org", "DiagnosticReport": "http://loinc.org", "Immunization": "http://hl7.org/fhir/sid/cvx",
              "AllergyIntolerance": "http://www.nlm.nih.gov/research/umls/rxnorm",
              "MedicationRequest": "http://www.nlm.nih.gov/research/umls/rxnorm",
              "MedicationOrder": "http://www.nlm.nih.gov/research/umls/rxnorm"}.get(rtype, "http://snomed.info/sct")
    concept = {"coding": [{"system": system, "code": code, "display": text}], "text": text}
    res = {"resourceType": rtype, "id": rid}
    if rtype == "Condition":
        res.update({"code": concept, "onsetDateTime": stamp[:10]})
        if dstu2:
            res.update({"patient": patient, "clinicalStatus": "active", "verificationStatus": "confirmed", "dateRecorded": stamp[:10]})
        else:
            res.update({"subject": patient, "recordedDate": stamp, "clinicalStatus": {"coding": [
                {"system": "http://terminology.hl7.org/CodeSystem/condition-clinical", "code": "active"}]}})
    elif rtype == "AllergyIntolerance":
        res.update({"patient": patient, "recordedDate": stamp, "criticality": "high" if not dstu2 else "CRITH"})
        if dstu2:
            res.update({"substance": concept, "status": "active"})
        else:
            res.update({"code": concept, "clinicalStatus": {"coding": [
                {"system": "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", "code": "active"}]}})
    elif rtype in ("MedicationRequest", "MedicationOrder"):
        res.update({"status": "active", "medicationCodeableConcept": concept,
                    "dosageInstruction": [{"text": "Take 1 tablet by mouth once daily"}]})
        if dstu2:
            res.update({"patient": patient, "dateWritten": stamp})
        else:
            res.update({"intent": "order", "subject": patient, "authoredOn": stamp})
    elif rtype == "Immunization":
        res.update({"status": "completed", "vaccineCode": concept, "patient": patient})
        res.update({"date": stamp, "wasNotGiven": False, "reported": False} if dstu2 else {"occurrenceDateTime": stamp})
    elif rtype == "Observation":
        unit, lo, hi = LAB_UNITS[code]
        res.update({"status": "final", "code": concept, "subject": patient, "effectiveDateTime": stamp,
                    "valueQuantity": {"value": round(r.uniform(lo, hi), 1), "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}})
        cat = {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"}]}
        res["category"] = cat if dstu2 else [cat]
    elif rtype == "Procedure":
        res.update({"status": "completed", "code": concept, "subject": patient, "performedDateTime": stamp})
    else:
        res.update({"status": "final", "code": concept, "subject": patient, "effectiveDateTime": stamp, "issued": stamp})
    name = f"clinical-records/{rtype}-{rid}.json"
    src, url, version = (("Valley Clinic", "https://fhir.valleyclinic.example/api/FHIR/DSTU2/", "1.0.2") if dstu2 else
                         ("Lakeside Health", "https://fhir.lakeside.example/api/FHIR/R4/", "4.0.1"))
    element = (f' <ClinicalRecord type="{hk}" identifier="{rtype}/{rid}" sourceName="{src}" sourceURL="{url}" '
               f'fhirVersion="{version}" receivedDate="{fmt(START + timedelta(hours=n % 24))}" resourceFilePath="/{name}"/>\n')
    return name, json.dumps(res, indent=2 if n % 2 else None), element


def audiogram(out):
    when = START + timedelta(days=1, hours=10, minutes=15)
    out.append(f' <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi Hearing" sourceVersion="5.3.1" '
               f'creationDate="{fmt(when + timedelta(minutes=8))}" startDate="{fmt(when)}" endDate="{fmt(when + timedelta(minutes=7))}">\n')
    for hz, left, right in [(250, 10, 5), (500, 15, 10), (1000, 15, 10), (2000, 20, 15), (4000, 35, 25), (8000, 45, 40)]:
        out.append(f'  <SensitivityPoint frequencyValue="{hz}" frequencyUnit="Hz" leftEarValue="{left}" leftEarUnit="dBHL" '
                   f'leftEarMasked="false" rightEarValue="{right}" rightEarUnit="dBHL" rightEarMasked="false"/>\n')
    out.append(" </Audiogram>\n")


def summaries(out, day):
    r = rng("summary", day)
    d = (START + timedelta(days=day)).date()
    out.append(f' <ActivitySummary dateComponents="{d}" activeEnergyBurned="{round(r.uniform(300, 900), 3)}" '
               f'activeEnergyBurnedGoal="600" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" '
               f'appleExerciseTime="{r.randint(10, 80)}" appleExerciseTimeGoal="30" appleStandHours="{r.randint(8, 15)}" '
               f'appleStandHoursGoal="12"/>\n')


GENERATORS = [
    heart_rate,
    interval_series("active", "HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", WATCH, watch_dev, 700, 0.05, 3.0, 3),
    interval_series("basal", "HKQuantityTypeIdentifierBasalEnergyBurned", "Cal", WATCH, watch_dev, 250, 0.8, 1.6, 3),
    interval_series("steps", "HKQuantityTypeIdentifierStepCount", "count", PHONE, phone_dev, 180, 5, 400, 0),
    interval_series("dist", "HKQuantityTypeIdentifierDistanceWalkingRunning", "km", PHONE, phone_dev, 180, 0.003, 0.3, 5),
    interval_series("exercise", "HKQuantityTypeIdentifierAppleExerciseTime", "min", WATCH, watch_dev, 60, 1, 1, 0),
    interval_series("audio", "HKQuantityTypeIdentifierEnvironmentalAudioExposure", "dBASPL", WATCH, watch_dev, 48, 40.0, 80.0, 4),
    interval_series("resp", "HKQuantityTypeIdentifierRespiratoryRate", "count/min", WATCH, watch_dev, 24, 12.0, 18.0, 1),
    hrv, sleep, stand_hours, oxygen, body, blood_pressure_top,
    correlations, workouts, summaries,
]

# --many-sources: more apps and devices over the same days.
MANY_SOURCES = [
    app_series("g-steps", "HKQuantityTypeIdentifierStepCount", "count", "Garmin Connect", "4.71", garmin_dev, 96, 0, 900, 0, (6, 22)),
    app_series("p-steps", "HKQuantityTypeIdentifierStepCount", "count", "Pedometer++", "2024.3", phone_dev, 48, 10, 600, 0, (7, 23)),
    app_series("g-dist", "HKQuantityTypeIdentifierDistanceWalkingRunning", "km", "Garmin Connect", "4.71", garmin_dev, 96, 0.0, 0.7, 4, (6, 22)),
    app_series("o-hr", "HKQuantityTypeIdentifierHeartRate", "count/min", "Oura", "5.4.1", oura_dev, 288, 50, 90, 0),
    app_series("g-hr", "HKQuantityTypeIdentifierHeartRate", "count/min", "Garmin Connect", "4.71", garmin_dev, 240, 55, 150, 0, (6, 22)),
    app_series("o-active", "HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", "Oura", "5.4.1", oura_dev, 96, 0.1, 9.0, 3),
    app_series("g-active", "HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", "Garmin Connect", "4.71", garmin_dev, 96, 0.1, 12.0, 3, (6, 22)),
    app_series("mfp", "HKQuantityTypeIdentifierDietaryEnergyConsumed", "Cal", "MyFitnessPal", "24.1.0", None, 5, 80.0, 900.0, 1, (7, 21)),
    app_sleep("o-sleep", "Oura", "5.4.1", oura_dev, 5),
    app_sleep("a-sleep", "AutoSleep", "7.1", watch_dev, 12),
]


def write(out_dir, days, routes=0, ecgs=0, clinical=0, with_audiogram=False):
    os.makedirs(out_dir, exist_ok=True)
    xml_path = os.path.join(out_dir, "export.xml")
    with open(xml_path, "w", encoding="utf-8") as f:
        f.write(DTD)
        gens = GENERATORS + MANY_SOURCES if Vary.on else GENERATORS
        for n, gen in enumerate(gens):  # grouped by type and source, like the phone writes them
            for day in range(days):
                chunk = []
                Vary.rng = rng(f"device/{n}", day)
                gen(chunk, day)
                f.write("".join(chunk))
        records = [clinical_record(n) for n in range(clinical)]
        f.write("".join(element for _, _, element in records))
        if with_audiogram:
            chunk = []
            audiogram(chunk)
            f.write("".join(chunk))
        f.write("</HealthData>\n")
    zip_path = os.path.join(out_dir, "export.zip")
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.write(xml_path, "apple_health_export/export.xml")
        z.writestr("apple_health_export/export_cda.xml",
                   '<?xml version="1.0" encoding="UTF-8"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"></ClinicalDocument>\n')
        if routes:
            for day in range(min(days, routes)):
                s, _ = route_start(day)
                z.writestr(f"apple_health_export/workout-routes/{route_name(s)}", gpx(day))
        else:
            for day in range(min(days, 3)):
                z.writestr(f"apple_health_export/workout-routes/route_{day}.gpx", "<gpx></gpx>\n")
        for n in range(ecgs):
            name, text, _ = ecg_csv(n)
            z.writestr("apple_health_export/" + name, text)
        for name, text, _ in records:
            z.writestr("apple_health_export/" + name, text)
    return xml_path, zip_path


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--days", type=int)
    g.add_argument("--size-mb", type=float, help="approximate size of export.xml")
    p.add_argument("--out", required=True)
    p.add_argument("--many-sources", action="store_true",
                   help="more apps and devices, a device string per record (see above)")
    p.add_argument("--routes", type=int, default=0, metavar="N", help="real GPX tracks for the workouts of the first N days")
    p.add_argument("--ecgs", type=int, default=0, metavar="N", help="N ECG recordings (electrocardiograms/ecg_*.csv)")
    p.add_argument("--clinical", type=int, default=0, metavar="N", help="N provider records (clinical-records/*.json, FHIR R4 and DSTU2)")
    p.add_argument("--audiogram", action="store_true", help="one Audiogram element in export.xml")
    a = p.parse_args()
    Vary.on = a.many_sources
    days = a.days or max(1, round(a.size_mb * 1e6 / (BYTES_PER_DAY_MANY if Vary.on else BYTES_PER_DAY)))
    xml_path, zip_path = write(a.out, days, a.routes, a.ecgs, a.clinical, a.audiogram)
    print(f"{days} days: {xml_path} {os.path.getsize(xml_path) / 1e6:.1f} MB, {zip_path} {os.path.getsize(zip_path) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
