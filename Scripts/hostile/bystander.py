#!/usr/bin/env python3
"""A well-behaved SocketCluster client beside an attack: it connects, handshakes, publishes one
small message every 250 ms as an invoke and waits for its answer, and reconnects every 2 s.
Every call (TCP connect and upgrade, handshake, publish: from send to answer) is timed, so an
attack that stalls other connections shows as slow calls.

It runs in a process of its own (`Bystander` starts it), so the attacker's threads cannot delay
its calls by holding Python's interpreter lock: the times are the broker's. Run alone, it calls
until its standard input closes, then prints its summary as JSON:

    Scripts/hostile/bystander.py --port 8790 < /dev/tty

Standard library only."""
import json, os, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flood"))
from floodwire import Reader, connect, send  # noqa: E402


class Bystander:
    """The bystander in its own process: `start()`, `stop()`, then `summary()`."""

    def __init__(self, port):
        self.port, self.proc, self._summary = port, None, None

    def start(self):
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--port", str(self.port)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        return self

    def stop(self):
        out, _ = self.proc.communicate("", timeout=30)
        self._summary = json.loads(out.strip().splitlines()[-1])

    def summary(self):
        """calls, median_ms, slowest_ms, errors (after `stop()`)."""
        return self._summary


def calls(port, stop, latencies, errors, interval=0.25, reconnect_every=2.0, timeout=10.0):
    def call(s, r, text, cid):
        t0 = time.monotonic()
        send(s, text)
        while json.loads(r.text()).get("rid") != cid:
            pass
        latencies.append(time.monotonic() - t0)

    cid = 0
    while not stop.is_set():
        try:
            t0 = time.monotonic()
            s = connect(port)
            s.settimeout(timeout)
            latencies.append(time.monotonic() - t0)  # TCP + upgrade
            r = Reader(s)
            cid += 1
            call(s, r, json.dumps({"event": "#handshake", "data": {"authToken": None}, "cid": cid}), cid)
            opened = time.monotonic()
            while not stop.is_set() and time.monotonic() - opened < reconnect_every:
                cid += 1
                call(s, r, json.dumps({"event": "#publish", "data": {"channel": "bystander", "data": cid}, "cid": cid}), cid)
                stop.wait(interval)
            s.close()
        except Exception as e:  # a failed or timed-out call is a finding, not a crash
            errors.append(repr(e))
            stop.wait(0.1)


def main():
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    a = p.parse_args()
    stop, latencies, errors = threading.Event(), [], []
    worker = threading.Thread(target=calls, args=(a.port, stop, latencies, errors), daemon=True)
    worker.start()
    sys.stdin.read()  # until the caller closes it
    stop.set()
    worker.join(15)
    xs = sorted(latencies)
    print(json.dumps({"calls": len(xs), "median_ms": xs and 1000 * xs[len(xs) // 2],
                      "slowest_ms": xs and 1000 * xs[-1], "errors": errors[:5]}), flush=True)


if __name__ == "__main__":
    main()
