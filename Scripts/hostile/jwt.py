#!/usr/bin/env python3
"""Clients that open, send a `#handshake` carrying a 15 MiB JWT, and start again, beside a
well-behaved client; prints the broker's memory and the other client's call times.

    swift build -c release --product demo
    Scripts/hostile/jwt.py --port 8790
"""
import base64, threading

from hostilerun import arguments, attacker_loop, run, send


def main():
    p = arguments(__doc__)
    p.add_argument("--size", type=int, default=15 << 20, help="bytes of token")
    a = p.parse_args()
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').rstrip(b"=").decode()
    body = base64.urlsafe_b64encode(b'{"pad":"' + b"p" * (a.size * 3 // 4) + b'"}').rstrip(b"=").decode()
    token = head + "." + body + ".c2lnbmF0dXJl"
    frame = '{"event":"#handshake","data":{"authToken":"%s"},"cid":1}' % token

    def body_(s, r, stop):
        send(s, frame)
        r.text()
        s.close()

    def attacker(port, stop):
        t = threading.Thread(target=attacker_loop, args=(port, stop, body_), daemon=True)
        t.start()
        return [t]

    run(a, attacker, "15 MiB JWTs in #handshake")


if __name__ == "__main__":
    main()
