#!/usr/bin/env python3
"""A peer that floods WebSocket pings and never reads, measuring the target's resident memory.

Against a server (the broker), as a client: connects, upgrades and sends SocketCluster's
#handshake (unless --no-handshake), then sends --count masked pings with the all-zero key as
fast as the target takes them, and never reads again. --payload 125 makes each unanswered pong
127 bytes; --batch sets how many pings go per send call.

    swift build -c release --product demo
    .build/release/demo broker --port 8123 &
    Scripts/hostile/ping_flood.py --port 8123 --pid $! --count 8000000 --payload 125 --batch 512

Against a client, as a hostile SocketCluster server (--serve): accepts one upgrade, answers the
client's #handshake, then floods unmasked pings without reading. --spawn starts the client
(stdin kept open) once the port listens:

    Scripts/hostile/ping_flood.py --serve --port 8124 --count 8000000 --payload 125 --batch 512 \\
        --spawn ".build/release/demo chat --url ws://127.0.0.1:8124/socketcluster/ --name a"

Prints the target's RSS (VmRSS) every --interval seconds, then its rest (before the flood),
peak, final and VmHWM, in MiB. Stops after --count pings or --seconds, whichever comes first,
then watches for --hold seconds more. Standard library only.
"""
import argparse, base64, hashlib, json, os, select, shlex, socket, struct, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flood"))
from floodwire import Reader, connect, handshake, peak_rss, rss  # noqa: E402
from bystander import Bystander  # noqa: E402

MIB = 1 << 20
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def accept_upgrade(listener):
    """Accepts one connection and answers its upgrade request with 101 (no extensions)."""
    s, _ = listener.accept()
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            raise EOFError("closed during the upgrade")
        head += chunk
    head, rest = head.split(b"\r\n\r\n", 1)
    key = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
               if line.lower().startswith(b"sec-websocket-key:"))
    accept = base64.b64encode(hashlib.sha1(key + GUID.encode()).digest()).decode()
    s.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
    return s, bytearray(rest)


def read_client_text(s, buf):
    """Reads masked frames from the client until a text frame; returns its text."""
    while True:
        while True:
            if len(buf) >= 2:
                n = buf[1] & 0x7F
                at = 2
                if n == 126 and len(buf) >= 4:
                    n, at = struct.unpack(">H", buf[2:4])[0], 4
                elif n == 127 and len(buf) >= 10:
                    n, at = struct.unpack(">Q", buf[2:10])[0], 10
                elif n >= 126:
                    n = None
                if n is not None and len(buf) >= at + 4 + n:
                    key = buf[at:at + 4]
                    payload = bytes(b ^ key[i % 4] for i, b in enumerate(buf[at + 4:at + 4 + n]))
                    opcode = buf[0] & 0x0F
                    del buf[:at + 4 + n]
                    if opcode == 1:
                        return payload.decode()
                    continue
            chunk = s.recv(65536)
            if not chunk:
                raise EOFError("the client closed before its handshake")
            buf += chunk


def server_text(text):
    payload = text.encode()
    n = len(payload)
    return bytes([0x81]) + (bytes([n]) if n < 126 else bytes([126]) + struct.pack(">H", n)) + payload


def wait_for_port(port, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("nothing listens on port %d" % port)


def alive_rss(pid):
    """The target's VmRSS, or raises SystemExit when it exited."""
    value = rss(pid)
    if value is None:
        raise TargetExited()
    return value


class TargetExited(Exception):
    pass


def mib(n):
    return "%.1f" % (n / MIB)


def mib_value(n):
    return round(n / MIB, 1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=8123)
    p.add_argument("--pid", type=int, help="the target's process id (or use --spawn)")
    p.add_argument("--spawn", help="command line of the target, started by this script (stdin kept open)")
    p.add_argument("--serve", action="store_true", help="be a hostile SocketCluster server on --port")
    p.add_argument("--no-handshake", action="store_true", help="client mode: ping without upgrading first")
    p.add_argument("--count", type=int, default=8_000_000, help="pings to send")
    p.add_argument("--seconds", type=float, default=20, help="stop sending after this long")
    p.add_argument("--hold", type=float, default=3, help="keep watching this long after the last ping")
    p.add_argument("--interval", type=float, default=1, help="seconds between RSS lines")
    p.add_argument("--batch", type=int, default=1,
                   help="pings per send call (TCP_NODELAY is on: small batches reach the target in many small reads)")
    p.add_argument("--payload", type=int, default=0, help="ping payload size in bytes (0...125)")
    p.add_argument("--bystander", action="store_true",
                   help="client mode: a well-behaved client calls the target every 250 ms meanwhile, timing its calls")
    p.add_argument("--settle", type=float, default=0,
                   help="after closing the flooding connection, wait this long and measure the target again")
    a = p.parse_args()
    if not 0 <= a.payload <= 125:
        p.error("--payload is 0...125")
    if not a.pid and not a.spawn:
        p.error("give --pid or --spawn")

    child = None
    listener = None
    if a.serve:
        listener = socket.create_server(("127.0.0.1", a.port), backlog=1)
    if a.spawn:
        child = subprocess.Popen(shlex.split(a.spawn), stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        a.pid = child.pid
        if not a.serve:
            wait_for_port(a.port)
    peak = 0
    by = None
    try:
        time.sleep(0.5)
        rest = rss(a.pid)
        if a.serve:
            s, buf = accept_upgrade(listener)
            hello = json.loads(read_client_text(s, buf))
            # This server sends WebSocket pings only, never SocketCluster's: a pingTimeout longer
            # than the whole run keeps the client from ending the connection for that (a slow
            # machine's flood plus hold and settle passed the usual 20 s).
            s.sendall(server_text(json.dumps({"rid": hello.get("cid", 1), "data": {
                "id": "x", "pingTimeout": 120000, "isAuthenticated": False}})))
            ping = bytes([0x89, a.payload]) + b"p" * a.payload  # unmasked
        elif a.no_handshake:
            s = socket.create_connection(("127.0.0.1", a.port))
            ping = bytes([0x89, 0x80 | a.payload]) + b"\0\0\0\0" + b"p" * a.payload
        else:
            s = connect(a.port)
            handshake(s, Reader(s))  # SocketCluster's #handshake, so the broker keeps the connection
            ping = bytes([0x89, 0x80 | a.payload]) + b"\0\0\0\0" + b"p" * a.payload  # all-zero masking key
        time.sleep(0.5)
        rest = max(rest, rss(a.pid))
        if a.bystander and not a.serve:
            by = Bystander(a.port).start()
        s.setblocking(False)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        batch_count = max(1, a.batch)
        batch = ping * batch_count
        print("target pid %d, rest %s MiB; sending %d pings of %d bytes (%s mode)"
              % (a.pid, mib(rest), a.count, len(ping), "server" if a.serve else "client"), flush=True)
        total = a.count * len(ping)  # bytes to send
        done = 0  # bytes sent
        queued = 0  # bytes put into `pending`
        pending = memoryview(b"")
        start = time.time()
        next_report = start
        peak = rest
        while done < total:
            now = time.time()
            if now - start > a.seconds:
                break
            if now >= next_report:
                current = alive_rss(a.pid)
                peak = max(peak, current)
                print("t=%5.1fs pings=%9d rss=%7s MiB" % (now - start, done // len(ping), mib(current)), flush=True)
                next_report += a.interval
            if not len(pending):
                pending = memoryview(batch if total - queued >= len(batch) else ping * ((total - queued) // len(ping)))
                queued += len(pending)
            try:
                k = s.send(pending)
            except BlockingIOError:
                select.select([], [s], [], 0.05)
                continue
            except OSError as error:
                print("the target ended the connection: %s" % error, flush=True)
                break
            pending = pending[k:]
            done += k
        sent = done // len(ping)
        elapsed = time.time() - start
        print("sent %d pings in %.1f s" % (sent, elapsed), flush=True)
        end = time.time() + a.hold
        while time.time() < end:
            current = alive_rss(a.pid)
            peak = max(peak, current)
            time.sleep(min(a.interval, 0.5))
        final = alive_rss(a.pid)
        peak = max(peak, final)
        print("rest %s MiB, peak %s MiB (+%s), final %s MiB, VmHWM %s MiB"
              % (mib(rest), mib(peak), mib(peak - rest), mib(final), mib(peak_rss(a.pid))), flush=True)
        if by:
            by.stop()
        calls = by.summary() if by else {}
        if a.serve:
            # A client app ends its connection attempt when its server goes: measure it while held.
            time.sleep(a.settle)
            after = alive_rss(a.pid)
            s.close()
        else:
            s.close()
            time.sleep(a.settle)
            after = alive_rss(a.pid)
        print("RESULT " + json.dumps({
            "attack": "ping-flood-client" if a.serve else "ping-flood", "pings": sent,
            "rest_mib": mib_value(rest), "peak_mib": mib_value(peak), "peak_above_rest_mib": mib_value(peak - rest),
            "after_mib": mib_value(after), "after_above_rest_mib": mib_value(after - rest),
            "calls": calls.get("calls"), "slowest_ms": calls.get("slowest_ms") and round(calls["slowest_ms"], 1),
            "median_ms": calls.get("median_ms") and round(calls["median_ms"], 1), "call_errors": calls.get("errors")}), flush=True)
    except (TargetExited, FileNotFoundError):
        print("the target exited; peak RSS seen %s MiB" % mib(peak), flush=True)
    finally:
        if child:
            child.terminate()
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()


if __name__ == "__main__":
    main()
