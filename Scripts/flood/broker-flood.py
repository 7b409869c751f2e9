#!/usr/bin/env python3
"""The slow-subscriber flood against a running broker, measuring its resident memory.

One client subscribes to a channel and never reads again; a second one reads every publication
and checks their order; a publisher sends 100 KiB publications as fast as the broker acknowledges
them (a window of invokes in flight) while the reading subscriber keeps up. Prints the broker's RSS every second and its peak.

    swift build -c release --product demo
    .build/release/demo broker --port 8000 &
    Scripts/flood/broker-flood.py --port 8000 --pid $! --seconds 20

Standard library only (raw sockets, `floodwire.py`; frames use the all-zero masking key).
"""
import argparse, json, struct, threading, time

from floodwire import Reader, connect, handshake, rss, send


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--pid", type=int, required=True, help="the broker's process id")
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--size", type=int, default=100 * 1024)
    p.add_argument("--window", type=int, default=16, help="publish invokes in flight")
    p.add_argument("--bystander-lead", type=int, default=32,
                   help="publications the publisher may be ahead of the reading subscriber (0: no pacing; "
                        "then a bystander slower than the publisher is itself a slow consumer)")
    a = p.parse_args()

    slow = connect(a.port)
    handshake(slow, Reader(slow), "flood")  # then never read again
    by = connect(a.port)
    by_reader = Reader(by)
    handshake(by, by_reader, "flood")
    pub = connect(a.port)
    pub_reader = Reader(pub)
    handshake(pub, pub_reader)

    state = {"seen": 0, "error": None}

    def bystander():
        try:
            while True:
                text = by_reader.text()
                n = json.loads(text[:text.index(',"pad"')] + "}}}")["data"]["data"]["n"]
                if n != state["seen"]:
                    state["error"] = "bystander: got %d, expected %d" % (n, state["seen"])
                    return
                state["seen"] += 1
        except Exception as e:  # closed at the end
            state["error"] = state["error"] or ("bystander: %r" % e if not state.get("done") else None)

    threading.Thread(target=bystander, daemon=True).start()

    pad = "p" * a.size
    start, peak, sent, acked, next_report = time.time(), 0, 0, 0, time.time()
    print("start RSS %.1f MiB" % (rss(a.pid) / 1048576))
    while time.time() - start < a.seconds:
        while a.bystander_lead and sent - state["seen"] > a.bystander_lead and not state["error"]:
            time.sleep(0.0005)
        while sent - acked < a.window:
            send(pub, '{"event":"#publish","data":{"channel":"flood","data":{"n":%d,"pad":"%s"}},"cid":%d}' % (sent, pad, sent + 3))
            sent += 1
        pub_reader.text()
        acked += 1
        if time.time() >= next_report:
            now = rss(a.pid)
            peak = max(peak, now)
            print("%5.1f s  published %6d  bystander %6d  broker RSS %.1f MiB" % (time.time() - start, acked, state["seen"], now / 1048576))
            next_report += 1
    while acked < sent:
        pub_reader.text()
        acked += 1
    time.sleep(1)
    peak = max(peak, rss(a.pid))
    state["done"] = True
    print("published %d x %d B in %.1f s; bystander received %d in order; broker peak RSS %.1f MiB; after: %.1f MiB"
          % (acked, a.size, a.seconds, state["seen"], peak / 1048576, rss(a.pid) / 1048576))
    if state["error"]:
        print("ERROR", state["error"])
    # The stalled subscriber reads again: publications in order, then (if it was cut) the close.
    slow.settimeout(5)
    reader, got, end = Reader(slow), 0, "still open"
    try:
        while True:
            op, payload = reader.frame()
            if op == 8:
                end = "closed with %d %r" % (struct.unpack(">H", payload[:2])[0], payload[2:].decode())
                break
            if op == 1 and payload:
                text = payload.decode()
                n = json.loads(text[:text.index(',"pad"')] + "}}}")["data"]["data"]["n"]
                if n != got:
                    end = "GAP: got %d, expected %d" % (n, got)
                    break
                got += 1
    except (EOFError, OSError) as e:
        end = "connection ended (%r)" % e
    print("stalled subscriber, reading again: %d publications in order, then %s" % (got, end))


if __name__ == "__main__":
    main()
