#!/usr/bin/env python3
"""Peers that each announce a large binary message, send most of it and never finish it,
measuring the server's resident memory (the broker's: what unfinished messages may hold).

    swift build -c release --product demo
    Scripts/hostile/partial_messages.py --port 8123 --connections 50 \\
        --spawn ".build/release/demo broker --port 8123"

Each connection upgrades, sends SocketCluster's #handshake, then a masked binary frame header
announcing --announce bytes and --send bytes of its payload (all-zero key), and never reads
again. Prints how many connections the server ended while sending, the server's RSS at rest,
after the sending and --hold seconds later, and its VmHWM, in MiB. Standard library only.
"""
import argparse, os, shlex, socket, struct, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flood"))
from floodwire import Reader, connect, handshake, peak_rss, rss  # noqa: E402

MIB = 1 << 20


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=8123)
    p.add_argument("--pid", type=int, help="the server's process id (or use --spawn)")
    p.add_argument("--spawn", help="command line of the server, started by this script")
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--announce", type=int, default=16 * MIB - 1, help="announced message size in bytes")
    p.add_argument("--send", type=int, default=15 * MIB, help="bytes of it each connection sends")
    p.add_argument("--hold", type=float, default=5, help="seconds to watch after sending")
    a = p.parse_args()
    if not a.pid and not a.spawn:
        p.error("give --pid or --spawn")
    child = None
    if a.spawn:
        child = subprocess.Popen(shlex.split(a.spawn), stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        a.pid = child.pid
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", a.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    try:
        time.sleep(0.5)
        rest = rss(a.pid)
        header = bytes([0x82, 0x80 | 127]) + struct.pack(">Q", a.announce) + b"\0\0\0\0"
        chunk = b"\x01" * MIB
        sockets, ended = [], 0
        start = time.time()
        for n in range(a.connections):
            s = connect(a.port)
            handshake(s, Reader(s))
            s.settimeout(10)
            sockets.append(s)
            try:
                s.sendall(header)
                left = a.send
                while left > 0:
                    left -= s.send(chunk[:min(left, MIB)])
            except OSError:
                ended += 1
        sent_rss = rss(a.pid)
        print("%d connections sent their partial messages in %.1f s; the server ended %d of them while sending"
              % (a.connections, time.time() - start, ended), flush=True)
        peak = max(rest, sent_rss)
        end = time.time() + a.hold
        while time.time() < end:
            peak = max(peak, rss(a.pid))
            time.sleep(0.5)
        final = rss(a.pid)
        print("rest %.1f MiB, after sending %.1f MiB, peak seen %.1f MiB, %.0f s later %.1f MiB, VmHWM %.1f MiB"
              % (rest / MIB, sent_rss / MIB, peak / MIB, a.hold, final / MIB, peak_rss(a.pid) / MIB), flush=True)
        for s in sockets:
            s.close()
    finally:
        if child:
            child.terminate()
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()


if __name__ == "__main__":
    main()
