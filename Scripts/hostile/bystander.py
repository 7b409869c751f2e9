"""A well-behaved SocketCluster client beside an attack: it connects, handshakes, publishes one
small message every 250 ms as an invoke and waits for its answer, and reconnects every 2 s.
Every call (handshake or publish, from send to answer) is timed, so an attack that stalls other
connections shows as slow calls. Standard library only; runs in a thread of the attack script."""
import json, socket, threading, time

from floodwire import Reader, connect, send


class Bystander:
    def __init__(self, port, interval=0.25, reconnect_every=2.0, timeout=10.0):
        self.port, self.interval, self.reconnect_every, self.timeout = port, interval, reconnect_every, timeout
        self.latencies, self.errors = [], []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join(self.timeout + 5)

    def _call(self, s, r, text, cid):
        t0 = time.monotonic()
        send(s, text)
        while True:
            answer = json.loads(r.text())
            if answer.get("rid") == cid:
                break
        self.latencies.append(time.monotonic() - t0)

    def _run(self):
        cid = 0
        while not self._stop.is_set():
            try:
                t0 = time.monotonic()
                s = connect(self.port)
                s.settimeout(self.timeout)
                self.latencies.append(time.monotonic() - t0)  # TCP + upgrade
                r = Reader(s)
                cid += 1
                self._call(s, r, json.dumps({"event": "#handshake", "data": {"authToken": None}, "cid": cid}), cid)
                opened = time.monotonic()
                while not self._stop.is_set() and time.monotonic() - opened < self.reconnect_every:
                    cid += 1
                    msg = {"event": "#publish", "data": {"channel": "bystander", "data": cid}, "cid": cid}
                    self._call(s, r, json.dumps(msg), cid)
                    self._stop.wait(self.interval)
                s.close()
            except Exception as e:  # a failed or timed-out call is a finding, not a crash
                self.errors.append(repr(e))
                self._stop.wait(0.1)

    def summary(self):
        xs = sorted(self.latencies)
        if not xs:
            return {"calls": 0, "median_ms": None, "slowest_ms": None, "errors": self.errors}
        return {"calls": len(xs), "median_ms": 1000 * xs[len(xs) // 2], "slowest_ms": 1000 * xs[-1], "errors": self.errors}
