"""What the attack scripts share: a broker to attack (started here, or a running one given by
--pid), its memory sampled every 50 ms, the bystander (a well-behaved client timing its calls)
and the report: human lines, then one `RESULT {json}` line that Scripts/hostile/run.py checks
against its bounds. Standard library only; the raw-socket SocketCluster helpers come from
`Scripts/flood/floodwire.py`."""
import argparse, json, os, socket, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flood"))
from floodwire import Reader, connect, handshake, peak_rss, rss, send  # noqa: E402,F401
from bystander import Bystander  # noqa: E402

MiB = 1048576


def arguments(description):
    p = argparse.ArgumentParser(description=description.split("\n")[0])
    p.add_argument("--broker", default=".build/release/demo", help="the demo executable (when no --pid is given)")
    p.add_argument("--port", type=int, default=8790)
    p.add_argument("--pid", type=int, help="a broker already listening on --port (else one is started)")
    p.add_argument("--seconds", type=float, default=20, help="how long the attack runs")
    p.add_argument("--settle", type=float, default=15, help="seconds after the attack before the last RSS reading")
    return p


def start_broker(a):
    proc = subprocess.Popen([a.broker, "broker", "--port", str(a.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", a.port)).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the broker did not start")


class MemoryWatch:
    """Samples a process's resident memory every 50 ms in a thread; `peak` is the highest sample."""

    def __init__(self, pid):
        self.pid, self.rest = pid, rss(pid)
        self.peak = self.rest
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            value = rss(self.pid)
            if value is None:
                return
            self.peak = max(self.peak, value)
            self._stop.wait(0.05)

    def stop(self):
        self._stop.set()
        self._thread.join()


def mib(n):
    return None if n is None else round(n / MiB, 1)


def run(a, attacker, label, **extra):
    """Runs `attacker(port, stop_event)` (it returns its threads) for `a.seconds` beside the
    bystander, waits for its threads, then reports; `extra` is added to the result line (a
    callable is called first, after the attack)."""
    proc = None if a.pid else start_broker(a)
    pid = a.pid or proc.pid
    try:
        time.sleep(0.5)
        watch = MemoryWatch(pid)
        by = Bystander(a.port).start()
        time.sleep(1)
        stop = threading.Event()
        threads = attacker(a.port, stop)
        time.sleep(a.seconds)
        stop.set()
        for t in threads:
            t.join(30)
        by.stop()
        calls = by.summary()
        time.sleep(a.settle)
        after = rss(pid)
        watch.stop()
        print("%s: broker RSS %.1f MiB at rest, peak %.1f MiB (VmHWM %.1f MiB), %.1f MiB %.0f s after the attack"
              % (label, watch.rest / MiB, watch.peak / MiB, peak_rss(pid) / MiB, after / MiB, a.settle))
        if calls["calls"]:
            print("  bystander: %d calls during the attack, median %.1f ms, slowest %.1f ms, %d errors"
                  % (calls["calls"], calls["median_ms"], calls["slowest_ms"], len(calls["errors"])))
        result = {
            "attack": label, "rest_mib": mib(watch.rest), "peak_mib": mib(watch.peak),
            "peak_above_rest_mib": mib(watch.peak - watch.rest), "after_mib": mib(after),
            "after_above_rest_mib": mib(after - watch.rest), "calls": calls["calls"],
            "median_ms": calls["median_ms"] and round(calls["median_ms"], 1),
            "slowest_ms": calls["slowest_ms"] and round(calls["slowest_ms"], 1), "call_errors": calls["errors"],
        }
        result.update({k: (v() if callable(v) else v) for k, v in extra.items()})
        print("RESULT " + json.dumps(result), flush=True)
    finally:
        if proc:
            proc.terminate()
            proc.wait(10)


def attacker_loop(port, stop, body):
    """Runs `body(socket, reader, stop)` on fresh connections until `stop` is set."""
    while not stop.is_set():
        try:
            s = connect(port)
            r = Reader(s)
            body(s, r, stop)
        except (OSError, EOFError, ValueError, AssertionError):
            time.sleep(0.01)
