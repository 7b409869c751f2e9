#!/usr/bin/env python3
"""The fast path of two builds side by side, in one interleaved run: the same client jobs with
a before and an after release bin folder, rep by rep (before, after, before, after, ...), against
the same C servers (ws_echo, sc_echo) and each build's own PubSubBroker. Prints one JSON line
per run, then a table of medians and after/before ratios (msgs/s) with client CPU per message.

  Scripts/bench/before-after.py --before BIN --after BIN --servers DIR [--reps 3]

DIR holds ws_echo and sc_echo built from the shared bench's server/ folder (sc-targets.sh
shows how). A job whose ratio stays inside the spread of its own reps did not change."""
import argparse, json, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location("sc_targets", os.path.join(os.path.dirname(os.path.abspath(__file__)), "sc-targets.py"))
sc_targets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sc_targets)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--servers", required=True)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    ws, ws_port = sc_targets.start_server([f"{a.servers}/ws_echo", "0"], "PORT ")
    sc, sc_port = sc_targets.start_server([f"{a.servers}/sc_echo", "0"], "PORT ")
    servers = [ws, sc]
    brokers = {}
    for side in ("before", "after"):
        brokers[side] = sc_targets.start_server([f"{getattr(a, side)}/pubsubbench", "--serve-broker", "0"], "broker listening on ")
        servers.append(brokers[side][0])
    ws_url = f"ws://127.0.0.1:{ws_port}/"
    sc_url = f"ws://127.0.0.1:{sc_port}/socketcluster/"

    def jobs(side):
        b = getattr(a, side)
        wb, pb = f"{b}/wirebench", f"{b}/pubsubbench"
        broker, broker_url = brokers[side]
        return [
            ("wirebench rtt 32 B", [wb, "--url", ws_url, "--mode", "rtt", "--count", "20000", "--size", "32"], ws),
            ("wirebench pipeline W100 32 B", [wb, "--url", ws_url, "--mode", "pipeline", "--count", "200000", "--size", "32", "--window", "100"], ws),
            ("wirebench bulk 1 MiB", [wb, "--url", ws_url, "--mode", "bulk", "--count", "2000", "--size", "1048576"], ws),
            ("invoke-rtt", [pb, "--url", sc_url, "--mode", "invoke-rtt", "--count", "20000"], sc),
            ("invoke-pipeline W100", [pb, "--url", sc_url, "--mode", "invoke-pipeline", "--count", "100000", "--window", "100"], sc),
            ("publish-own W100", [pb, "--url", sc_url, "--mode", "publish-own", "--count", "100000", "--window", "100"], sc),
            ("broker invoke-rtt", [pb, "--url", broker_url, "--mode", "invoke-rtt", "--count", "20000"], broker),
            ("broker invoke-pipeline W100", [pb, "--url", broker_url, "--mode", "invoke-pipeline", "--count", "50000", "--window", "100"], broker),
        ]

    results = {}
    try:
        for rep in range(a.reps):
            for side in ("before", "after"):
                for name, argv, server in jobs(side):
                    r = sc_targets.timed(argv, server)
                    r.pop("_stderr", None)
                    r["job"], r["side"], r["rep"] = name, side, rep + 1
                    print(json.dumps(r), flush=True)
                    results.setdefault((name, side), []).append(r)
    finally:
        for s in servers:
            s.kill()
    print()
    print("| job | before msgs/s median (range) | after msgs/s median (range) | after / before | client CPU µs/msg before → after |")
    print("|---|---|---|---|---|")
    for name, _, _ in jobs("before"):
        cells = []
        for side in ("before", "after"):
            v = [r["msgs_per_s"] for r in results[(name, side)]]
            cells.append((statistics.median(v), min(v), max(v)))
        cpu = [statistics.median((r["client_user_s"] + r["client_sys_s"]) / r["count"] * 1e6 for r in results[(name, side)])
               for side in ("before", "after")]
        print(f"| {name} | {cells[0][0]:,.0f} ({cells[0][1]:,.0f}–{cells[0][2]:,.0f}) | {cells[1][0]:,.0f} ({cells[1][1]:,.0f}–{cells[1][2]:,.0f}) "
              f"| {cells[1][0] / cells[0][0]:.3f}× | {cpu[0]:.1f} → {cpu[1]:.1f} |")
    with open("/proc/loadavg") as f:
        print(f"load average at the end: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
