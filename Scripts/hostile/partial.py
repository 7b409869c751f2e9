#!/usr/bin/env python3
"""Stalled partial messages against a running broker: N connections each announce one large
text message (a single frame, 16 MiB by default), send most of it, and then send nothing more,
holding the connection open. A bystander keeps calling meanwhile. Prints the broker's peak
resident memory, the bystander's slowest call and the memory 15 s after the attackers left.

    swift build -c release --product demo
    .build/release/demo broker --port 8123 &
    Scripts/hostile/partial.py --port 8123 --pid $! --connections 50

Standard library only. The attackers mask with the all-zero key."""
import argparse, socket, struct, threading, time

LOCK = threading.Lock()

from common import MemoryWatch, Bystander, report
from floodwire import connect


def attacker(port, announced, sent, hold, outcome):
    try:
        s = connect(port)
        s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", announced) + b"\0\0\0\0")
        chunk = b"a" * (1 << 20)
        left = sent
        while left > 0:
            n = min(left, len(chunk))
            s.sendall(chunk[:n])
            left -= n
        with LOCK:
            outcome["sent"] += 1
        # Hold: read what the broker says (a close frame, or its pings) until `hold` runs out.
        s.settimeout(0.5)
        end = time.monotonic() + hold
        while time.monotonic() < end:
            try:
                if not s.recv(65536):
                    with LOCK:
                        outcome["closed_by_broker"] += 1
                    break
            except socket.timeout:
                pass
        s.close()
    except OSError:
        with LOCK:
            outcome["refused_or_reset"] += 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True, help="the broker's process id")
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--announced", type=int, default=16 << 20, help="bytes announced per message")
    p.add_argument("--fraction", type=float, default=0.95, help="share of the message sent before stalling")
    p.add_argument("--hold", type=float, default=25.0, help="seconds each attacker keeps its connection")
    p.add_argument("--settle", type=float, default=15.0)
    a = p.parse_args()

    watch = MemoryWatch(a.pid)
    by = Bystander(a.port).start()
    time.sleep(1)
    outcome = {"sent": 0, "closed_by_broker": 0, "refused_or_reset": 0}
    threads = [threading.Thread(target=attacker, args=(a.port, a.announced, int(a.announced * a.fraction), a.hold, outcome))
               for _ in range(a.connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report("partial", watch, by, settle=a.settle, connections=a.connections, **outcome)


if __name__ == "__main__":
    main()
