#!/usr/bin/env python3
"""Stalled partial messages: N connections each announce one large text message (a single
frame, 16 MiB by default), send most of it, and then send nothing more, holding the connection
open; beside the bystander. Prints the broker's peak memory, the bystander's calls and the
memory 15 s after the attackers left.

    swift build -c release --product demo
    Scripts/hostile/partial.py --port 8790 --connections 50

Standard library only. The attackers mask with the all-zero key."""
import socket, struct, threading, time

from hostilerun import arguments, connect, run

LOCK = threading.Lock()


def main():
    p = arguments(__doc__)
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--announced", type=int, default=16 << 20, help="bytes announced per message")
    p.add_argument("--fraction", type=float, default=0.95, help="share of the message sent before stalling")
    a = p.parse_args()
    outcome = {"sent": 0, "closed_by_broker": 0, "refused_or_reset": 0}

    def count(key):
        with LOCK:
            outcome[key] += 1

    def one(port, stop):
        try:
            s = connect(port)
            s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", a.announced) + b"\0\0\0\0")
            chunk, left = b"a" * (1 << 20), int(a.announced * a.fraction)
            while left > 0 and not stop.is_set():
                s.sendall(chunk[:min(left, len(chunk))])
                left -= len(chunk)
            count("sent")
            # Hold: read what the broker says (its pings, or a close) until the attack ends.
            s.settimeout(0.5)
            while not stop.is_set():
                try:
                    if not s.recv(65536):
                        count("closed_by_broker")
                        break
                except socket.timeout:
                    pass
            s.close()
        except OSError:
            count("refused_or_reset")

    def attacker(port, stop):
        threads = [threading.Thread(target=one, args=(port, stop), daemon=True) for _ in range(a.connections)]
        for t in threads:
            t.start()
        return threads

    run(a, attacker, "%d stalled partial messages" % a.connections, connections=a.connections, outcome=lambda: dict(outcome))


if __name__ == "__main__":
    main()
