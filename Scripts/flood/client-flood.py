#!/usr/bin/env python3
"""The publisher of the flooded-app case: publishes 10 KiB publications to `flood` as fast
as the broker acknowledges them (a window of invokes in flight) while an app handles one per
10 ms, and prints the app's resident memory every second and its peak. It starts once the app
says it is subscribed (a publication on `flood-ready`) and stops when the app exits.
`Scripts/flood/client-flood.sh` runs the whole case (broker, app, this publisher); by hand:

    swift build -c release --product demo --product pubsubbench
    .build/release/demo broker --port 8000 &
    .build/release/pubsubbench --url ws://127.0.0.1:8000/socketcluster/ --mode flooded-app --seconds 12 &
    nice -n 10 Scripts/flood/client-flood.py --port 8000 --pid $!

Standard library only (raw sockets, `floodwire.py`).
"""
import argparse, json, os, time

from floodwire import Reader, connect, handshake, peak_rss, rss, send


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--pid", type=int, required=True, help="the app's process id")
    p.add_argument("--size", type=int, default=10 * 1024, help="publication padding, in bytes")
    p.add_argument("--window", type=int, default=16, help="publish invokes in flight")
    p.add_argument("--ready-timeout", type=float, default=30, help="seconds to wait for the app")
    a = p.parse_args()

    pub = connect(a.port)
    reader = Reader(pub)
    handshake(pub, reader, "flood-ready")
    pub.settimeout(a.ready_timeout)
    while '"flood-ready"' not in reader.text():
        pass
    pub.settimeout(None)

    pad = "p" * a.size
    start, peak, sent, acked, next_report = time.time(), 0, 0, 0, time.time() + 1
    print("app subscribed; app RSS %.1f MiB" % (rss(a.pid) / 1048576), flush=True)
    try:
        while os.path.exists("/proc/%d" % a.pid):
            while sent - acked < a.window:
                send(pub, '{"event":"#publish","data":{"channel":"flood","data":{"n":%d,"pad":"%s"}},"cid":%d}'
                     % (sent, pad, sent + 3))
                sent += 1
            while '"rid"' not in reader.text():  # a late flood-ready publication
                pass
            acked += 1
            if time.time() >= next_report:
                now = rss(a.pid)
                peak = max(peak, now)
                print("%5.1f s  published %7d  app RSS %.1f MiB" % (time.time() - start, acked, now / 1048576), flush=True)
                next_report += 1
            if acked % 64 == 0:
                peak = max(peak, peak_rss(a.pid))
    except (OSError, TypeError):  # the app exited between two reads of /proc
        pass
    elapsed = time.time() - start
    print("published %d x %d B in %.1f s (%.0f/s); app peak RSS %.1f MiB"
          % (acked, a.size, elapsed, acked / max(elapsed, 1e-9), peak / 1048576), flush=True)


if __name__ == "__main__":
    main()
