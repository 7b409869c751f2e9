"""Shared harness of the hostile-client scripts: starts `demo broker` on a port, runs an attacker
thread for a while beside a well-behaved client (one `#publish` invoke every 250 ms, reconnecting
every 2 s), then reports the broker's peak RSS, the well-behaved client's median and slowest
call, and the broker's RSS 15 s after the attacker left. Standard library only; the raw-socket
SocketCluster helpers come from `Scripts/flood/floodwire.py`."""
import argparse, json, os, socket, statistics, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flood"))
from floodwire import Reader, connect, handshake, peak_rss, rss, send  # noqa: E402

MiB = 1048576


def arguments(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--broker", default=".build/release/demo", help="the demo executable")
    p.add_argument("--port", type=int, default=8790)
    p.add_argument("--seconds", type=float, default=20, help="how long the attacker runs")
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


class WellBehavedClient(threading.Thread):
    """Invokes `#publish` every 250 ms and times each answer; reconnects every 2 s."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.stop, self.times, self.errors = port, threading.Event(), [], 0

    def run(self):
        while not self.stop.is_set():
            try:
                s = connect(self.port)
                s.settimeout(30)
                r = Reader(s)
                handshake(s, r)
                opened, cid = time.time(), 10
                while not self.stop.is_set() and time.time() - opened < 2:
                    cid += 1
                    t0 = time.time()
                    send(s, json.dumps({"event": "#publish", "data": {"channel": "calm", "data": cid}, "cid": cid}))
                    while json.loads(r.text()).get("rid") != cid:
                        pass
                    self.times.append(time.time() - t0)
                    self.stop.wait(0.25)
                s.close()
            except (OSError, EOFError, ValueError):
                self.errors += 1
                time.sleep(0.1)


def run(a, attacker, label):
    """Runs `attacker(port, stop_event)` in threads beside the well-behaved client."""
    proc = start_broker(a)
    try:
        time.sleep(0.5)
        before = rss(proc.pid)
        client = WellBehavedClient(a.port)
        client.start()
        time.sleep(1)
        stop = threading.Event()
        threads = attacker(a.port, stop)
        peak, end = before, time.time() + a.seconds
        while time.time() < end:
            peak = max(peak, rss(proc.pid))
            time.sleep(0.05)
        stop.set()
        for t in threads:
            t.join(10)
        during = list(client.times)
        time.sleep(a.settle)
        after = rss(proc.pid)
        client.stop.set()
        client.join(5)
        hwm = peak_rss(proc.pid)
        calls = sorted(during)
        print("%s: broker RSS %.1f MiB at rest, peak %.1f MiB (VmHWM %.1f MiB), %.1f MiB %.0f s after the attack"
              % (label, before / MiB, peak / MiB, hwm / MiB, after / MiB, a.settle))
        if calls:
            print("  well-behaved client: %d calls during the attack, median %.1f ms, 90th percentile %.1f ms, slowest %.1f ms, "
                  "%d reconnect errors" % (len(calls), statistics.median(calls) * 1000, calls[int(len(calls) * 0.9)] * 1000,
                                           calls[-1] * 1000, client.errors))
        else:
            print("  well-behaved client: no call completed during the attack")
    finally:
        proc.terminate()
        proc.wait(10)


def attacker_loop(port, stop, body):
    """Runs `body(socket, reader)` on fresh connections until `stop` is set."""
    while not stop.is_set():
        try:
            s = connect(port)
            r = Reader(s)
            body(s, r, stop)
        except (OSError, EOFError, ValueError, AssertionError):
            time.sleep(0.01)
