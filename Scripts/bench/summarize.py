#!/usr/bin/env python3
"""Summarises a results JSON of the shared WebSocket benchmark runner for Docs/Performance.md:
a Markdown table of medians (min..max, spread) per client, and the ratios of one client (default
`wirekit`) against the best peer of each workload, paired rep by rep, checked against ISSUE-8's
targets.

    Scripts/bench/summarize.py RESULTS.json [--client wirekit]
"""
import argparse
import json
import statistics

WORKLOADS = [
    ("rtt_32B_text", "rtt 32 B text, N=20000", "msgs_per_s", "msgs/s"),
    ("pipeline_32B_text_w100", "pipeline 32 B text, N=200000, W=100", "msgs_per_s", "msgs/s"),
    ("pipeline_4KiB_bin_w50", "pipeline 4 KiB binary, N=50000, W=50", "msgs_per_s", "msgs/s"),
    ("bulk_1MiB_bin_w4", "bulk 1 MiB binary, N=256, W=4", "MB_per_s", "MB/s"),
    ("connections_1000", "connections C=1000", "connect_total_ms", "ms, lower is better"),
]
# workload -> (required ratio, what the ratio means)
TARGETS = {
    "rtt_32B_text": 1.2,
    "pipeline_32B_text_w100": 1.5,
    "pipeline_4KiB_bin_w50": 1.5,
    "bulk_1MiB_bin_w4": 1.5,
    "connections_1000": 1.0,
}


def fmt(value, digits=0):
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def runs(result, workload, metric):
    records = result["workloads"].get(workload, {}).get("run_records", [])
    return [r["client"].get(metric) if r.get("rc") == 0 else None for r in records]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--client", default="wirekit")
    args = parser.parse_args()
    data = json.load(open(args.results))
    clients = list(data["results"].keys())
    ours = args.client
    peers = [c for c in clients if c != ours]

    print(f"Run: {data['date']}, {data['reps']} reps, server {data['server']['kind']}, pin {data['pin']}, "
          f"machine {data['machine']}")
    refs = data.get("references")
    if refs:
        print(f"References: {json.dumps(refs)}")
    print()
    header = "| workload (metric) | " + " | ".join(clients) + " |"
    print(header)
    print("|" + "---|" * (len(clients) + 1))
    for workload, title, metric, unit in WORKLOADS:
        cells = []
        extra = []
        for client in clients:
            w = data["results"][client]["workloads"].get(workload)
            if not w or not w.get("ok"):
                cells.append("failed")
                continue
            m = w[metric]
            digits = 1 if metric == "connect_total_ms" else 0
            cells.append(f"{fmt(m['median'], digits)} ({fmt(m['min'], digits)}–{fmt(m['max'], digits)}, {m['spread_pct']:.0f} %)")
        print(f"| {title} ({unit}) | " + " | ".join(cells) + " |")
        if workload == "rtt_32B_text":
            row = []
            for client in clients:
                w = data["results"][client]["workloads"].get(workload) or {}
                p50 = (w.get("p50_us") or {}).get("median")
                p99 = (w.get("p99_us") or {}).get("median")
                row.append(f"{fmt(p50, 1)} / {fmt(p99, 1)}")
            print("| ↳ p50 / p99 µs | " + " | ".join(row) + " |")
        if workload == "connections_1000":
            row = []
            for client in clients:
                w = data["results"][client]["workloads"].get(workload) or {}
                rss = statistics.median([r["client"]["rss_kib"] for r in w.get("run_records", []) if r.get("rc") == 0] or [0])
                row.append(f"{fmt(rss, 0)} KiB")
            print("| ↳ peak RSS with 1000 open (rss_kib, median) | " + " | ".join(row) + " |")
    print()
    print("| client CPU µs per message (whole process) | " + " | ".join(clients) + " |")
    print("|" + "---|" * (len(clients) + 1))
    for workload, title, metric, unit in WORKLOADS:
        row = []
        for client in clients:
            w = data["results"][client]["workloads"].get(workload) or {}
            row.append(fmt(w.get("client_cpu_us_per_msg"), 1))
        print(f"| {workload} | " + " | ".join(row) + " |")
    print()

    print(f"Ratios of {ours} against the best peer (paired rep by rep: median [min..max]); > 1 is better for {ours}:")
    print()
    print("| workload | best peer (median) | ratio | target | result |")
    print("|---|---|---|---|---|")
    for workload, title, metric, unit in WORKLOADS:
        lower_is_better = metric == "connect_total_ms"
        medians = {}
        for peer in peers:
            w = data["results"][peer]["workloads"].get(workload)
            if w and w.get("ok"):
                medians[peer] = w[metric]["median"]
        if not medians:
            continue
        best = min(medians, key=medians.get) if lower_is_better else max(medians, key=medians.get)
        mine = runs(data["results"][ours], workload, metric)
        theirs = runs(data["results"][best], workload, metric)
        ratios = []
        for a, b in zip(mine, theirs):
            if a and b:
                ratios.append(b / a if lower_is_better else a / b)
        if not ratios:
            continue
        med = statistics.median(ratios)
        target = TARGETS[workload]
        verdict = "met" if med >= target else "missed"
        print(f"| {workload} | {best} | {med:.2f} [{min(ratios):.2f}..{max(ratios):.2f}] | ≥ {target} | {verdict} |")
        if workload == "rtt_32B_text":
            p99_ours = data["results"][ours]["workloads"][workload]["p99_us"]["median"]
            p99_best = data["results"][best]["workloads"][workload]["p99_us"]["median"]
            print(f"| ↳ rtt p99 (median µs) | {best} {p99_best:.1f} | ours {p99_ours:.1f} | no worse | "
                  f"{'met' if p99_ours <= p99_best else 'missed'} |")
        if workload == "connections_1000":
            rss = {}
            for client in [ours, best]:
                w = data["results"][client]["workloads"][workload]
                rss[client] = [r["client"]["rss_kib"] if r.get("rc") == 0 else None for r in w["run_records"]]
            rss_ratios = [a / b for a, b in zip(rss[ours], rss[best]) if a and b]
            if rss_ratios:
                med_rss = statistics.median(rss_ratios)
                print(f"| ↳ peak RSS, ours / {best} (lower is better) | | {med_rss:.2f} [{min(rss_ratios):.2f}..{max(rss_ratios):.2f}] | ≤ 0.5 | "
                      f"{'met' if med_rss <= 0.5 else 'missed'} |")


if __name__ == "__main__":
    main()
