#!/usr/bin/env python3
"""Two sockets subscribing to 1,000 channels each with 1 MiB names (within socketChannelLimit),
beside a well-behaved client; prints the broker's memory and the other client's call times.

    swift build -c release --product demo
    Scripts/hostile/names.py --port 8790
"""
import socket, threading

from hostilerun import Reader, arguments, connect, handshake, run, send


def main():
    p = arguments(__doc__)
    p.add_argument("--name-size", type=int, default=1 << 20)
    p.add_argument("--per-socket", type=int, default=1000)
    p.add_argument("--sockets", type=int, default=2)
    a = p.parse_args()

    def one(port, stop, index):
        s = connect(port)
        r = Reader(s)
        handshake(s, r)
        base = ("%d" % index) * a.name_size
        for n in range(a.per_socket):
            if stop.is_set():
                break
            name = "%06d" % n + base[6:]
            send(s, '{"event":"#subscribe","data":{"channel":"%s"},"cid":%d}' % (name, n + 2))
            r.text()  # the answer (pings are answered on this thread)
        while not stop.is_set():
            s.settimeout(0.5)
            try:
                r.text()
            except socket.timeout:
                pass
        s.close()

    def attacker(port, stop):
        threads = [threading.Thread(target=one, args=(port, stop, i), daemon=True) for i in range(a.sockets)]
        for t in threads:
            t.start()
        return threads

    run(a, attacker, "%d x %d x %d B channel names" % (a.sockets, a.per_socket, a.name_size))


if __name__ == "__main__":
    main()
