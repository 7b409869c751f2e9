"""What the attack scripts share: the broker's memory over time, the bystander, and the one
result line (`RESULT {json}`) that Scripts/hostile/run.sh checks against its bounds."""
import json, os, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flood"))

from floodwire import rss  # noqa: E402
from bystander import Bystander  # noqa: E402


class MemoryWatch:
    """Samples a process's resident memory every 50 ms in a thread; `peak` is the highest sample."""

    def __init__(self, pid):
        self.pid, self.peak, self.rest = pid, 0, rss(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, rss(self.pid))
            except (OSError, TypeError):
                return
            self._stop.wait(0.05)

    def stop(self):
        self._stop.set()
        self._thread.join()


def mib(n):
    return None if n is None else round(n / 1048576, 1)


def report(name, watch, bystander, settle=15.0, **extra):
    """Stops the bystander, waits `settle` seconds after the attacker left, prints the result."""
    by = bystander.summary() if bystander else {}
    if bystander:
        bystander.stop()
    time.sleep(settle)
    after = rss(watch.pid)
    watch.stop()
    result = {
        "attack": name,
        "rest_mib": mib(watch.rest),
        "peak_mib": mib(watch.peak),
        "peak_above_rest_mib": mib(watch.peak - watch.rest),
        "after_mib": mib(after),
        "after_above_rest_mib": mib(after - watch.rest),
        "calls": by.get("calls"),
        "median_ms": by.get("median_ms") and round(by["median_ms"], 1),
        "slowest_ms": by.get("slowest_ms") and round(by["slowest_ms"], 1),
        "call_errors": by.get("errors"),
    }
    result.update(extra)
    print("RESULT " + json.dumps(result), flush=True)
    return result
