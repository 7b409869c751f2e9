#!/usr/bin/env python3
"""A publisher that sends 16 MiB JSON arrays (`[0,0,…]`) in `#publish` without waiting for acks,
beside a well-behaved client; prints the broker's memory and the other client's call times.

    swift build -c release --product demo
    Scripts/hostile/arrays.py --port 8790
"""
import json, threading

from hostilerun import arguments, attacker_loop, handshake, run, send


def main():
    p = arguments(__doc__)
    p.add_argument("--size", type=int, default=16 << 20, help="bytes of array per message")
    a = p.parse_args()
    array = "[" + ",".join(["0"] * (a.size // 2)) + "]"
    frame = '{"event":"#publish","data":{"channel":"big","data":%s},"cid":%%d}' % array

    def body(s, r, stop):
        handshake(s, r)
        threading.Thread(target=drain, args=(r,), daemon=True).start()
        cid = 2
        while not stop.is_set():
            send(s, frame % cid)
            cid += 1

    def drain(r):
        # Frames only: answering pings from this thread would interleave with the sender's frames.
        try:
            while True:
                r.frame()
        except Exception:
            pass

    def attacker(port, stop):
        t = threading.Thread(target=attacker_loop, args=(port, stop, body), daemon=True)
        t.start()
        return [t]

    run(a, attacker, "16 MiB arrays")


if __name__ == "__main__":
    main()
