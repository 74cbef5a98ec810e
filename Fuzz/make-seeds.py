#!/usr/bin/env python3
"""Writes the committed seed corpora (Fuzz/corpus/<target>/): small inputs from the golden
fixtures and the test suite's examples, plus zips built here with Python's zipfile. Run from the
repository root; the output is committed, so this only needs running when the seeds change."""
import io, os, shutil, zipfile

G = "Tests/HealthExportTests/Golden"
OUT = "Fuzz/corpus"

def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

def read(path):
    with open(path, "rb") as f:
        return f.read()

shutil.rmtree(OUT, ignore_errors=True)
small_xml = read(f"{G}/apple-health/no-dtd-minimal.xml")
for name in ["no-dtd-minimal", "ios8-export", "ios16-broken-dtd", "unescaped-device", "billion-laughs", "unreadable-values", "truncated", "modern-export"]:
    put("apple-xml", name + ".xml", read(f"{G}/apple-health/{name}.xml"))

def zipped(members, method=zipfile.ZIP_DEFLATED, comment=b""):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", method) as z:
        for n, data in members:
            z.writestr(n, data)
        z.comment = comment
    return b.getvalue()

put("zip", "deflated.zip", zipped([("apple_health_export/export.xml", small_xml)]))
put("zip", "stored.zip", zipped([("apple_health_export/export.xml", small_xml)], zipfile.ZIP_STORED))
put("zip", "localized-name.zip", zipped([("apple_health_export/", b""), ("apple_health_export/Exportieren.xml", small_xml),
                                        ("apple_health_export/export_cda.xml", b"<ClinicalDocument/>"),
                                        ("apple_health_export/workout-routes/r.gpx", b"<gpx/>")]))
put("zip", "commented.zip", zipped([("export.xml", small_xml)], comment=b"PK\x05\x06 a comment"))
full = zipped([("export.xml", small_xml)])
put("zip", "no-central-directory.zip", full[: full.rfind(b"PK\x01\x02")])
b = io.BytesIO()
with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("export.xml", "w", force_zip64=True) as f:
        f.write(small_xml)
put("zip", "zip64.zip", b.getvalue())

for name in ["hae-daily", "hae-sleep-aggregated", "hae-sleep-segments", "hae-us-minutes", "hae-workouts"]:
    put("hae-json", name + ".json", read(f"{G}/{name}.json"))
put("hae-csv", "hae-metrics.csv", read(f"{G}/hae-metrics.csv"))
put("hae-csv", "workouts.csv", "Workout Type,Start,End,Duration,Active Energy (kcal),Distance (km)\n"
    "Outdoor Run,2026-01-01 07:00:00 +0100,2026-01-01 07:30:00 +0100,0:30:00,300,5.1\n")

native = ['{"type": "heartRate", "value": 61, "unit": "bpm", "startDate": "2026-01-01T10:00:00+01:00", "source": "Polar H10"}',
          '{"samples": [{"type": "stepCount", "value": 10, "startDate": "2026-01-01T10:00:00Z", "endDate": "2026-01-01T10:05:00Z",'
          ' "source": {"name": "x", "version": "1", "device": "d"}, "metadata": {"k": 1, "b": true, "o": {"a": [1]}}, "revisable": true}]}',
          '[{"type": "HKQuantityTypeIdentifierBodyTemperature", "value": 98.6, "unit": "degF", "start": "2026-01-01 08:00:00 +0100"}]']
for i, n in enumerate(native):
    put("native", f"native-{i}.json", n)
put("native", "ndjson.ndjson", native[0] + "\n" + native[0].replace("61", "62") + "\nnot json\n")
put("csv", "plain.csv", "type,value,unit,start,end,source\nheartRate,61,bpm,2026-01-01T10:00:00+01:00,,Polar\n"
    "\"stepCount\",\"1,000\",count,2026-01-01 10:00:00 +0100,2026-01-01 10:05:00 +0100,\"a \"\"b\"\"\"\n")

put("export", "export.xml", small_xml)
put("export", "export.zip", zipped([("export.xml", small_xml)]))
put("export", "hae.json", read(f"{G}/hae-sleep-aggregated.json"))
put("export", "hae.csv", read(f"{G}/hae-metrics.csv"))
put("export", "native.json", native[1])
put("export", "plain.csv", "type,value,start\nheartRate,61,2026-01-01T10:00:00Z\n")

for i, t in enumerate(["2026-01-01 10:00:00 +0100", "2026-01-01T10:00:00.123+05:30", "2026-01-01T10:00:00Z", "2026-01-01",
                       "2026-03-29T02:30:00-07:00", "9999-12-31T23:59:59.999-14:00", "0001-01-01T00:00:00Z", "2026-01-01 10:00"]):
    put("timestamp", f"t{i}", t)
for i, d in enumerate(["0", "-0.5", "72", "98.6", "1e3", "1.7976931348623157e308", "4.9e-324", "0.30000000000000004",
                       "123456789012345678901234567890", " 12.5 ", "+.5", "1E-22"]):
    put("decimal", f"d{i}", d)

put("config", "healthspool.conf", "# user settings\ngateway.url = https://gw.example/topics/x\nbatch.size = 500\n"
    "[sync]\nfrequency = hourly\ntypes.disabled = \"heartRate, stepCount\"\n")
put("config", "sections.conf", "[gateway]\nformat = confluent-v3\nauth = api-key\n; comment\n[]\nlog.level=debug\n")

for i, r in enumerate(['{"command":"ping"}\n', '{"command":"sync","types":["heartRate","HKQuantityTypeIdentifierStepCount"]}\n',
                       '{"command":"observe","types":["stepCount"]}\nextra', '{"command":"x\\u00e9\\ud83d\\ude00","n":[1.5e300,-0,true,null]}\n']):
    put("control", f"r{i}", r)

def gw(status_byte, format_byte, retry, body):
    return bytes([status_byte, format_byte]) + retry.encode() + b"\0" + body.encode()
put("gateway", "v2-ok", gw(0, 1 + 4 * 1, "", '{"offsets":[{"partition":0,"offset":5,"error_code":null,"error":null},{"partition":0,"offset":6,"error_code":50003,"error":"x"}]}'))
put("gateway", "v3-stream", gw(0, 2 + 4 * 2, "", '{"error_code":200,"offset":5}{"error_code":429,"message":"slow"}{"error_code":400,"message":"bad"}'))
put("gateway", "throttled", gw(15, 0, "120", '{"error_code":42901,"message":"throttled"}'))
put("gateway", "date", gw(17, 0, "Wed, 21 Oct 2026 07:28:00 GMT", "<html>busy</html>"))
put("gateway", "unknown-topic", gw(8, 1, "", '{"error_code":40401,"message":"Topic not found"}'))

TOKEN = "0123456789abcdef0123456789abcdef"
put("http-head", "push", f"POST /ingest HTTP/1.1\r\nHost: 192.168.1.20:8443\r\nAuthorization: Bearer {TOKEN}\r\n"
    "Content-Type: application/json\r\nContent-Length: 120\r\n\r\n{\"data\":{\"metrics\":[]}}")
put("http-head", "api-key", f"POST /ingest?x=1 HTTP/1.0\r\nx-api-key: {TOKEN}\r\ncontent-length: 5000\r\nExpect: 100-continue\r\n\r\n")
put("http-head", "chunked", f"POST /ingest HTTP/1.1\r\nAuthorization: bearer {TOKEN}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
put("http-head", "smuggle", "POST /ingest HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n x: folded\r\n\r\n")
put("http-head", "get", "GET / HTTP/1.1\r\nHost: x\r\n\r\n")

# web: the first byte picks who asks (0 a stranger, 1 a logged-in browser, 2 a logged-in form
# with its Origin and CSRF token); then METHOD PATH, headers, a blank line, the body.
web = {
    "stranger-home": b"\x00GET /\n\n",
    "stranger-login": b"\x00GET /login?token=1.00112233445566778899aabbccddeeff.00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n\n",
    "foreign-host": b"\x01GET /\nHost: evil.example:8765\n\n",
    "day": b"\x01GET /day/2024-03-31\n\n",
    "day-query": b"\x01GET /day?date=2024-10-27&month=2024-10\n\n",
    "symptom-form": b"\x01GET /symptoms/log?category=All%20Symptoms\n\n",
    "notes": b"\x01GET /notes?category=Visits&ok=Saved\n\n",
    "log-symptom": b"\x02POST /symptoms/log\nContent-Type: application/x-www-form-urlencoded\n\nsymptom=Headache&severity=2&time_of_day=morning&note=a+b%20c",
    "add-med": b"\x02POST /meds/add\nContent-Type: application/x-www-form-urlencoded\n\nname=Ibuprofen&dose=200+mg&times=08%3A00",
    "add-reminder": b"\x02POST /reminders/add\nContent-Type: application/x-www-form-urlencoded\n\nname=Pill&times=08%3A00&repeat=weekly&days=MO&days=FR",
    "measure": b"\x02POST /measure\nContent-Type: application/x-www-form-urlencoded\n\ntype=bodyMass&value=72.5&unit=kg",
    "types": b"\x02POST /settings/types\nContent-Type: application/x-www-form-urlencoded\n\nenable=heartRate&disable=stepCount",
    "no-csrf": b"\x01POST /meds/take\nContent-Type: application/x-www-form-urlencoded\nCookie: other=1\n\nmedication=1",
}
for name, data in web.items():
    put("web", name, data)
