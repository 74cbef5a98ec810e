#!/usr/bin/python3
"""A browser stand-in for xdg-open in the end-to-end test: what a browser does with the page
`healthspool ui` opens, with the standard library only (it runs as the test user, with the
system's python3).

    browser_standin.py PAGE OUT.json

Loads PAGE (a file), follows its meta refresh as a browser does: a refresh without a URL
reloads the file after its delay; one with a URL fetches that URL (the login link) with a
cookie jar, following redirects, and stops there. A page without a refresh is the end (the
page that says what went wrong). Writes OUT.json once: the titles seen in order, the final URL,
its status, whether it is the logged-in home page (<h1>Today</h1>), and the last page's text.
Gives up after 150 s (ui waits at most 60 s for the start and 60 s for the web interface).
"""
import html
import http.cookiejar
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

page, out = sys.argv[1], sys.argv[2]
record = {"page": page, "titles": [], "reloads": 0, "url": None, "status": None, "home": False, "text": ""}
deadline = time.monotonic() + 150


def title_of(text):
    m = re.search(r"<title>(.*?)</title>", text, re.S)
    return html.unescape(m.group(1)) if m else ""


try:
    while time.monotonic() < deadline:
        text = open(page, encoding="utf-8").read()
        title = title_of(text)
        if not record["titles"] or record["titles"][-1] != title:
            record["titles"].append(title)
        record["text"] = html.unescape(re.sub(r"<[^>]+>", " ", text.split("<body>", 1)[-1])).strip()
        m = re.search(r'<meta http-equiv="refresh" content="([^"]*)"', text)
        if not m:
            break
        delay, _, target = html.unescape(m.group(1)).partition(";")
        time.sleep(float(delay))
        if not target.startswith("url="):
            record["reloads"] += 1
            continue
        url = target[len("url="):]
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        try:
            with opener.open(url, timeout=15) as r:
                body = r.read().decode("utf-8", "replace")
                record["url"], record["status"] = r.geturl(), r.status
        except urllib.error.HTTPError as e:
            body = e.read().decode("utf-8", "replace")
            record["url"], record["status"] = e.geturl(), e.code
        record["home"] = "<h1>Today</h1>" in body
        record["text"] = html.unescape(re.sub(r"<[^>]+>", " ", body))[:2000]
        break
except Exception as e:  # the record says what happened; the test prints it
    record["error"] = repr(e)
with open(out + ".tmp", "w") as f:
    json.dump(record, f)
os.rename(out + ".tmp", out)
