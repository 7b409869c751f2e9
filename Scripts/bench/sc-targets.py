#!/usr/bin/env python3
"""Measures the SocketCluster client against the hot-path targets in one run: pubsubbench against
sc_echo beside wirebench against ws_echo, the async face beside the closure face, publish-own,
PubSubBroker in its own process (this build, and a baseline build when given), client CPU per
pipelined invoke and heap allocations per invoke. REPS interleaved repetitions; medians and
ratios of medians. Prints one JSON line per run, then a Markdown table.

  sc-targets.py --bin RELEASE_BIN --servers DIR [--baseline-bin DIR] [--malloc-count SO] [--reps 3]
                [--async-face]

DIR holds sc_echo and ws_echo built from the shared bench's server/ folder (sc-targets.sh
builds them). Every run records `oth_cpu`: cores busy outside the client and the server while
it ran (from /proc/stat), so a noisy run can be told from a slow one.
"""
import argparse, json, os, statistics, subprocess, sys, time

HZ = os.sysconf("SC_CLK_TCK")


def busy_jiffies():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4]  # minus idle and iowait


def proc_jiffies(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def start_server(argv, marker):
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    while marker not in line:
        if not line:
            sys.exit(f"sc-targets: {argv[0]} did not start")
        line = proc.stdout.readline()
    return proc, line.split(marker, 1)[1].strip()


def run(argv, server, env=None):
    """Runs one client; returns its JSON result with client/server/other CPU added."""
    busy0, server0, t0 = busy_jiffies(), proc_jiffies(server.pid), time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    out, err = proc.communicate()
    usage = None
    # communicate() reaped the child; its rusage is in the children's totals.
    elapsed = time.monotonic() - t0
    busy1, server1 = busy_jiffies(), proc_jiffies(server.pid)
    if proc.returncode != 0:
        sys.exit(f"sc-targets: {' '.join(argv)} failed: {err.strip()} {out.strip()}")
    result = json.loads(out.strip().splitlines()[-1])
    result["_stderr"] = err
    result["wall_s"] = elapsed
    result["server_cpu_s"] = (server1 - server0) / HZ
    result["busy_cpu_s"] = (busy1 - busy0) / HZ
    return result


def children_cpu():
    r = os.times()
    return r.children_user, r.children_system


def timed(argv, server, env=None):
    u0, s0 = children_cpu()
    result = run(argv, server, env)
    u1, s1 = children_cpu()
    result["client_user_s"], result["client_sys_s"] = u1 - u0, s1 - s0
    other = result["busy_cpu_s"] - (u1 - u0) - (s1 - s0) - result["server_cpu_s"]
    result["oth_cpu"] = max(0.0, other) / result["wall_s"]
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--servers", required=True)
    ap.add_argument("--baseline-bin")
    ap.add_argument("--malloc-count")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--async-face", action="store_true", help="also the async face's rows (default and client executor)")
    a = ap.parse_args()

    ws, ws_port = start_server([f"{a.servers}/ws_echo", "0"], "PORT ")
    sc, sc_port = start_server([f"{a.servers}/sc_echo", "0"], "PORT ")
    broker, broker_url = start_server([f"{a.bin}/pubsubbench", "--serve-broker", "0"], "broker listening on ")
    servers = [ws, sc, broker]
    if a.baseline_bin:
        base_broker, base_url = start_server([f"{a.baseline_bin}/pubsubbench", "--serve-broker", "0"], "broker listening on ")
        servers.append(base_broker)
    ws_url = f"ws://127.0.0.1:{ws_port}/"
    sc_url = f"ws://127.0.0.1:{sc_port}/socketcluster/"
    wb, pb = f"{a.bin}/wirebench", f"{a.bin}/pubsubbench"
    jobs = [
        ("wirebench rtt", [wb, "--url", ws_url, "--mode", "rtt", "--count", "20000", "--size", "32"], ws),
        ("wirebench pipeline W100", [wb, "--url", ws_url, "--mode", "pipeline", "--count", "200000", "--size", "32", "--window", "100"], ws),
        ("invoke-rtt (closures)", [pb, "--url", sc_url, "--mode", "invoke-rtt", "--count", "20000"], sc),
        ("invoke-pipeline W100 (closures)", [pb, "--url", sc_url, "--mode", "invoke-pipeline", "--count", "100000", "--window", "100"], sc),
        ("invoke-pipeline W100 (async)", [pb, "--url", sc_url, "--mode", "invoke-pipeline", "--count", "100000", "--window", "100", "--api", "async"], sc),
        ("publish-own W100 (closures)", [pb, "--url", sc_url, "--mode", "publish-own", "--count", "100000", "--window", "100"], sc),
    ]
    if a.async_face:
        # The async face beside the closure face, with its tasks on the global executor (async)
        # and on the client's executor (async-executor).
        for api in ("async", "async-executor"):
            jobs += [
                (f"invoke-rtt ({api})", [pb, "--url", sc_url, "--mode", "invoke-rtt", "--count", "20000", "--api", api], sc),
                (f"publish-own W100 ({api})", [pb, "--url", sc_url, "--mode", "publish-own", "--count", "100000", "--window", "100", "--api", api], sc),
                (f"channel-flood W100 ({api})", [pb, "--url", sc_url, "--mode", "channel-flood", "--count", "200000", "--window", "100", "--api", api], sc),
            ]
        jobs += [
            ("invoke-pipeline W100 (async-executor)", [pb, "--url", sc_url, "--mode", "invoke-pipeline", "--count", "100000", "--window", "100", "--api", "async-executor"], sc),
            ("channel-flood W100 (closures)", [pb, "--url", sc_url, "--mode", "channel-flood", "--count", "200000", "--window", "100"], sc),
        ]
    jobs += [
        ("broker invoke-rtt", [pb, "--url", broker_url, "--mode", "invoke-rtt", "--count", "20000"], broker),
        ("broker invoke-pipeline W100", [pb, "--url", broker_url, "--mode", "invoke-pipeline", "--count", "50000", "--window", "100"], broker),
    ]
    if a.baseline_bin:
        bb = f"{a.baseline_bin}/pubsubbench"
        jobs += [
            ("baseline broker invoke-rtt", [bb, "--url", base_url, "--mode", "invoke-rtt", "--count", "20000"], base_broker),
            ("baseline broker invoke-pipeline W100", [bb, "--url", base_url, "--mode", "invoke-pipeline", "--count", "20000", "--window", "100"], base_broker),
        ]
    results = {name: [] for name, _, _ in jobs}
    try:
        for rep in range(a.reps):
            for name, argv, server in jobs:
                r = timed(argv, server)
                r.pop("_stderr")
                r["job"], r["rep"] = name, rep + 1
                print(json.dumps(r), flush=True)
                results[name].append(r)
        allocs = None
        if a.malloc_count:
            env = dict(os.environ, LD_PRELOAD=a.malloc_count)
            counts = []
            for n in (20000, 40000):
                r = run([pb, "--url", sc_url, "--mode", "invoke-pipeline", "--count", str(n), "--window", "100"], sc, env)
                counts.append(int(r["_stderr"].split("MALLOC_COUNT")[-1].split()[0]))
            allocs = (counts[1] - counts[0]) / 20000
    finally:
        for s in servers:
            s.kill()

    def med(name, key="msgs_per_s"):
        return statistics.median(r[key] for r in results[name])

    def rng(name):
        v = [r["msgs_per_s"] for r in results[name]]
        return f"{min(v):,.0f}–{max(v):,.0f}"

    print()
    print(f"| run (32 B) | msgs/s median (range) | p50 / p99 µs | client CPU µs/msg (user+sys) | oth cpu (max) |")
    print("|---|---|---|---|---|")
    for name, _, _ in jobs:
        rs = results[name]
        p = ""
        if "p50_us" in rs[0]:
            p = f"{statistics.median(r['p50_us'] for r in rs):.1f} / {statistics.median(r['p99_us'] for r in rs):.1f}"
        cpu = statistics.median((r["client_user_s"] + r["client_sys_s"]) / r["count"] * 1e6 for r in rs)
        us = statistics.median(r["client_user_s"] / r["count"] * 1e6 for r in rs)
        sy = statistics.median(r["client_sys_s"] / r["count"] * 1e6 for r in rs)
        print(f"| {name} | {med(name):,.0f} ({rng(name)}) | {p} | {cpu:.1f} ({us:.1f}+{sy:.1f}) | {max(r['oth_cpu'] for r in rs):.2f} |")
    print()
    print("| target | ratio of medians | target |")
    print("|---|---|---|")
    def ratio(label, num, den, target, key="msgs_per_s"):
        print(f"| {label} | {med(num, key) / med(den, key):.3f}× | {target} |")
    ratio("invoke pipeline W100 / wirebench pipeline W100", "invoke-pipeline W100 (closures)", "wirebench pipeline W100", "≥ 0.25×")
    ratio("invoke rtt / wirebench rtt", "invoke-rtt (closures)", "wirebench rtt", "≥ 0.8×")
    p50 = med("invoke-rtt (closures)", "p50_us"); p99 = med("invoke-rtt (closures)", "p99_us")
    print(f"| invoke rtt p99 / p50 | {p99 / p50:.2f}× | ≤ 2× |")
    ratio("async face / closure face (pipeline W100)", "invoke-pipeline W100 (async)", "invoke-pipeline W100 (closures)", "≥ 0.6×")
    if a.async_face:
        for api in ("async", "async-executor"):
            ratio(f"{api} / closures, invoke rtt", f"invoke-rtt ({api})", "invoke-rtt (closures)", "≥ 0.9×")
            ratio(f"{api} / closures, invoke pipeline W100", f"invoke-pipeline W100 ({api})", "invoke-pipeline W100 (closures)", "≥ 0.8×")
            ratio(f"{api} / closures, channel flood W100", f"channel-flood W100 ({api})", "channel-flood W100 (closures)", "≥ 0.8×")
            ratio(f"{api} / closures, publish-own W100", f"publish-own W100 ({api})", "publish-own W100 (closures)", "—")
    ratio("publish-own / wirebench pipeline W100", "publish-own W100 (closures)", "wirebench pipeline W100", "≥ 0.2×")
    if a.baseline_bin:
        ratio("broker invoke rtt / baseline", "broker invoke-rtt", "baseline broker invoke-rtt", "≥ 2×")
        ratio("broker invoke pipeline / baseline", "broker invoke-pipeline W100", "baseline broker invoke-pipeline W100", "≥ 2×")
    if allocs is not None:
        print(f"\nheap allocations per pipelined invoke (client, malloc counter, 40k − 20k invokes): {allocs:.1f}")
    with open("/proc/loadavg") as f:
        print(f"load average at the end: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
