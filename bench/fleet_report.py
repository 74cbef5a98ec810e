#!/usr/bin/env python3
"""Figures of a fleet run (bench/fleet.py): reads DIR/<label>/requests.ndjson and marks.json,
writes DIR/<label>/figures.json and returns the scenario table (markdown), every figure also
as a ratio to the same fleet's steady state.

    python3 bench/fleet_report.py DIR before after
"""
from __future__ import annotations

import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

BATCH = 100


def pct(values, q):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def load(d: Path):
    reqs = [json.loads(line) for line in (d / "requests.ndjson").read_text().splitlines() if line.strip()]
    meta = json.loads((d / "marks.json").read_text())
    return reqs, meta


def window(reqs, t0, t1):
    return [r for r in reqs if t0 <= r["t"] < t1]


def rate(reqs, t0, t1):
    return len(window(reqs, t0, t1)) / max(1e-9, t1 - t0)


def peak(reqs, t0, t1, width=1.0):
    bins = Counter(int((r["t"] - t0) // width) for r in window(reqs, t0, t1))
    return max(bins.values()) / width if bins else 0.0


def figures(d: Path) -> dict:
    reqs, meta = load(d)
    m, usage, dropped = meta["marks"], meta["usage"], meta["dropped"]
    args = meta["args"]
    reqs.sort(key=lambda r: r["t"])
    first_accept: dict[str, float] = {}
    for r in reqs:
        for tag in r.get("tags", []):
            first_accept.setdefault(tag, r.get("done", r["t"]))
    f: dict = {"daemons": meta["daemons"], "alive_at_end": m.get("alive_at_end")}

    # Steady state: the reference.
    s0, s1 = m["steady"], m["throttle"]
    st = window(reqs, s0, s1)
    acc = [r for r in st if r["status"] == 200 and r["n"] > 0]
    lat = [x for r in acc for x in r.get("lat", [])]
    f["steady"] = {"req_per_s": rate(reqs, s0, s1), "peak_req_per_s": peak(reqs, s0, s1),
                   "batch_fill": statistics.mean(r["ok"] / BATCH for r in acc) if acc else None,
                   "records_per_request": _per_request(st),
                   "records_per_s": sum(r["ok"] for r in acc) / (s1 - s0),
                   "service_p50": pct([r["done"] - r["t"] for r in acc], 0.5),
                   "service_p99": pct([r["done"] - r["t"] for r in acc], 0.99),
                   "latency_p50": pct(lat, 0.5), "latency_p99": pct(lat, 0.99)}
    steady = f["steady"]["req_per_s"] or 1e-9

    # All daemons started in the same second, each with a backlog.
    t0 = m["start"]
    # Heart rate only: the backlog's steps are an hourly type, sent at the hour (here: midnight).
    backlog = [t for t, at in dropped.items() if at <= t0 and "-s" not in t]
    done = [first_accept.get(t) for t in backlog]
    running = m.get("running_after_s") or []
    f["start"] = {"peak_req_per_s": peak(reqs, t0, s0), "req_per_s_first_10s": rate(reqs, t0, t0 + 10),
                  "spawn_s": m.get("spawn_s"), "release_ms": (m["release_s"] * 1000) if "release_s" in m else None,
                  "running": len(running), "running_p50_s": pct(running, 0.5), "running_max_s": max(running, default=None),
                  "requests": len(window(reqs, t0, s0)), "records_per_request": _per_request(window(reqs, t0, s0)),
                  "backlog_samples": len(backlog),
                  "backlog_delivered_after_s": (max(done) - t0) if done and None not in done else None,
                  "backlog_p50_after_s": _after(done, t0, 0.5), "backlog_p99_after_s": _after(done, t0, 0.99),
                  "backlog_missing": sum(1 for x in done if x is None),
                  "batch_fill": _fill(window(reqs, t0, s0))}

    # 429 + Retry-After to everyone.
    th0, th1 = m["throttle"], m["throttle_end"]
    if th1 - th0 < 1:   # the timeline had no such phase (--throttle 0)
        th0 = th1 = None
    ra = args["retry_after"]
    win = window(reqs, th0, th1) if th0 else []
    last429: dict[str, float] = {}
    early = 0
    for r in win:
        dev = r.get("dev", "")
        # Sooner than Retry-After, and not merely in flight when the 429 went out (2 senders).
        if dev in last429 and last429[dev] + 1.0 < r["t"] < last429[dev] + ra - 0.05:
            early += 1
        if r["status"] == 429:
            last429[dev] = r["t"]
    per_dev = Counter(r.get("dev", "") for r in win)
    f["throttle"] = {"retry_after_s": ra, "req_per_s": rate(reqs, th0, th1), "requests": len(win),
                     "requests_before_retry_after": early,
                     "max_requests_one_daemon": max(per_dev.values()) if per_dev else 0,
                     "daemons_seen": len(per_dev),
                     "peak_req_per_s_10s_after": peak(reqs, th1, th1 + 10)} if th0 else None

    # Outage and recovery.
    o0, o1 = m["outage"], m["recovery"]
    end_rec = m["midnight_window"]
    before = [t for t, at in dropped.items() if at < o1]
    drained = [first_accept.get(t) for t in before]
    rec = window(reqs, o1, end_rec)
    f["outage"] = {"outage_s": o1 - o0, "req_per_s_during": rate(reqs, o0, o1),
                   "peak_req_per_s_recovery": peak(reqs, o1, end_rec),
                   "peak_req_per_5s_recovery": peak(reqs, o1, end_rec, 5.0),
                   "queues_empty_after_s": (max(drained) - o1) if drained and None not in drained else None,
                   "queued_p99_after_s": _after([x for x, t in zip(drained, before) if dropped[t] >= o0 - 60], o1, 0.99),
                   "not_delivered_by_midnight": sum(1 for x in drained if x is None),
                   "duplicates_recovery": sum(r.get("dups", 0) for r in rec),
                   "batch_fill_recovery": _fill(rec),
                   "requests_recovery": len(rec), "records_per_request_recovery": _per_request(rec),
                   "requests_first_60s": len(window(reqs, o1, o1 + 60))}

    # Midnight.
    mn, end = m["midnight"], m["end"]
    scores = [r for r in window(reqs, mn - 10, end) if "symptomScore" in r.get("types", [])]
    score_ok = [r for r in scores if r["status"] == 200]
    f["midnight"] = {"req_per_s_60s": rate(reqs, mn, min(end, mn + 60)), "peak_req_per_s": peak(reqs, mn, end),
                     "score_requests": len(scores),
                     "daemons_scored": len({r.get("dev") for r in score_ok}),
                     "scores_p50_after_s": pct([r["t"] - mn for r in score_ok], 0.5),
                     "scores_last_after_s": max((r["t"] - mn for r in score_ok), default=None)}

    # The whole run.
    f["total"] = {"requests": len(reqs), "duplicates": sum(r.get("dups", 0) for r in reqs),
                  "answers_after_30s": sum(1 for r in reqs if r.get("done", r["t"]) - r["t"] > 30),
                  "records_accepted": sum(r.get("ok", 0) for r in reqs),
                  "largest_request": max((r.get("n", 0) for r in reqs), default=0),
                  "largest_body_kb": max((r.get("bytes", 0) for r in reqs), default=0) / 1024,
                  "samples_dropped": len(dropped),
                  "samples_missing_at_end": sum(1 for t, at in dropped.items() if t not in first_accept and at < m["midnight_window"]),
                  "statuses": dict(Counter(str(r["status"]) for r in reqs))}

    # Per daemon CPU (share of one core) and RSS.
    def cpu_between(a, b):
        ua, ub = usage.get(a, {}), usage.get(b, {})
        shares = [(ub[k][0] - ua[k][0]) / (m[b] - m[a]) for k in ub if k in ua and ua[k] and ub[k]]
        return (statistics.mean(shares) * 100, max(shares) * 100) if shares else (None, None)

    rss_steady = [v[1] / 1024 for v in usage.get("steady", {}).values() if v]
    rss_end = [v[1] / 1024 for v in usage.get("end", {}).values() if v]
    f["daemon"] = {"cpu_pct_steady_mean_max": cpu_between("steady", "throttle"),
                   "cpu_pct_recovery_mean_max": cpu_between("recovery", "midnight_window"),
                   "cpu_pct_midnight_mean_max": cpu_between("midnight", "end"),
                   "rss_mib_steady_mean_max": (statistics.mean(rss_steady), max(rss_steady)) if rss_steady else None,
                   "rss_mib_end_mean_max": (statistics.mean(rss_end), max(rss_end)) if rss_end else None}
    f["ratios"] = {"start_peak": f["start"]["peak_req_per_s"] / steady,
                   "throttle_rate": f["throttle"]["req_per_s"] / steady if f["throttle"] else None,
                   "after_throttle_peak": f["throttle"]["peak_req_per_s_10s_after"] / steady if f["throttle"] else None,
                   "outage_rate": f["outage"]["req_per_s_during"] / steady,
                   "recovery_peak": f["outage"]["peak_req_per_s_recovery"] / steady,
                   "midnight_peak": f["midnight"]["peak_req_per_s"] / steady,
                   "steady_peak": f["steady"]["peak_req_per_s"] / steady}
    (d / "figures.json").write_text(json.dumps(f, indent=2))
    return f


def _after(times, t0, q):
    """Seconds from t0 until the q-quantile of `times` (None = never) arrived; None when more
    than 1 - q of them never did."""
    if not times:
        return None
    ordered = sorted(float("inf") if x is None else x for x in times)
    v = ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return None if v == float("inf") else max(0.0, v - t0)


def _per_request(reqs):
    """Records accepted per request that carried any (mean)."""
    acc = [r for r in reqs if r["status"] == 200 and r["n"] > 0]
    return statistics.mean(r["ok"] for r in acc) if acc else None


def _fill(reqs):
    acc = [r for r in reqs if r["status"] == 200 and r["n"] > 0]
    return statistics.mean(r["ok"] / BATCH for r in acc) if acc else None


def fmt(v, digits=2):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    if isinstance(v, (tuple, list)):
        return " / ".join(fmt(x, 1) for x in v)
    return str(v)


ROWS = [
    ("steady", "requests/s", lambda f: f["steady"]["req_per_s"]),
    ("steady", "peak requests/s (1 s)", lambda f: f["steady"]["peak_req_per_s"]),
    ("steady", "records per request", lambda f: f["steady"]["records_per_request"]),
    ("steady", "delivery latency p50 / p99 (s)", lambda f: (f["steady"]["latency_p50"], f["steady"]["latency_p99"])),
    ("steady", "gateway time per request p50 / p99 (s)", lambda f: (f["steady"]["service_p50"], f["steady"]["service_p99"])),
    ("start", "daemons spawned at a barrier in (s); released in (ms)", lambda f: (f["start"]["spawn_s"], f["start"]["release_ms"])),
    ("start", "daemons running after the release, p50 / all (s)", lambda f: (f["start"]["running_p50_s"], f["start"]["running_max_s"])),
    ("start", "peak requests/s (× steady)", lambda f: (f["start"]["peak_req_per_s"], f["ratios"]["start_peak"])),
    ("start", "requests in the start window; records per request", lambda f: (f["start"]["requests"], f["start"]["records_per_request"])),
    ("start", "backlog (150 a daemon) delivered, p50 / p99 / all (s)",
     lambda f: (f["start"]["backlog_p50_after_s"], f["start"]["backlog_p99_after_s"], f["start"]["backlog_delivered_after_s"])),
    ("429 + Retry-After", "requests/s during (× steady)", lambda f: (f["throttle"]["req_per_s"], f["ratios"]["throttle_rate"])),
    ("429 + Retry-After", "requests sooner than Retry-After", lambda f: f["throttle"]["requests_before_retry_after"]),
    ("429 + Retry-After", "most requests from one daemon", lambda f: f["throttle"]["max_requests_one_daemon"]),
    ("429 + Retry-After", "peak requests/s, 10 s after (× steady)",
     lambda f: (f["throttle"]["peak_req_per_s_10s_after"], f["ratios"]["after_throttle_peak"])),
    ("outage", "requests/s while down (× steady)", lambda f: (f["outage"]["req_per_s_during"], f["ratios"]["outage_rate"])),
    ("outage", "peak requests/s in recovery (× steady)",
     lambda f: (f["outage"]["peak_req_per_s_recovery"], f["ratios"]["recovery_peak"])),
    ("outage", "queued in the outage: 99 % / all delivered after (s)",
     lambda f: (f["outage"]["queued_p99_after_s"], f["outage"]["queues_empty_after_s"])),
    ("outage", "requests in recovery (first 60 s / all); records per request",
     lambda f: (f["outage"]["requests_first_60s"], f["outage"]["requests_recovery"], f["outage"]["records_per_request_recovery"])),
    ("outage", "duplicates delivered in recovery", lambda f: f["outage"]["duplicates_recovery"]),
    ("midnight", "peak requests/s (× steady)", lambda f: (f["midnight"]["peak_req_per_s"], f["ratios"]["midnight_peak"])),
    ("midnight", "daemons whose scores arrived", lambda f: f["midnight"]["daemons_scored"]),
    ("midnight", "scores p50 / last after midnight (s)",
     lambda f: (f["midnight"]["scores_p50_after_s"], f["midnight"]["scores_last_after_s"])),
    ("whole run", "requests; records accepted; duplicates", lambda f: (f["total"]["requests"], f["total"]["records_accepted"], f["total"]["duplicates"])),
    ("whole run", "answers the gateway gave after 30 s (the daemon had given up)", lambda f: f["total"]["answers_after_30s"]),
    ("whole run", "largest request: records; body KiB", lambda f: (f["total"]["largest_request"], f["total"]["largest_body_kb"])),
    ("whole run", "samples dropped; not delivered (dropped before the midnight window)", lambda f: (f["total"]["samples_dropped"], f["total"]["samples_missing_at_end"])),
    ("per daemon", "CPU % of a core, steady (mean / max)", lambda f: f["daemon"]["cpu_pct_steady_mean_max"]),
    ("per daemon", "CPU % of a core, recovery (mean / max)", lambda f: f["daemon"]["cpu_pct_recovery_mean_max"]),
    ("per daemon", "RSS MiB at end (mean / max)", lambda f: f["daemon"]["rss_mib_end_mean_max"]),
]


def report(out: Path, labels: list[str]) -> str:
    figs = {label: figures(Path(out) / label) for label in labels}
    lines = ["| scenario | figure | " + " | ".join(labels) + " |", "|---|---|" + "---|" * len(labels)]
    for scenario, name, get in ROWS:
        cells = []
        for label in labels:
            try:
                cells.append(fmt(get(figs[label])))
            except (KeyError, TypeError, ZeroDivisionError):
                cells.append("–")
        lines.append(f"| {scenario} | {name} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    (Path(out) / "table.md").write_text(table + "\n")
    return table


if __name__ == "__main__":
    print(report(Path(sys.argv[1]), sys.argv[2:]))
