"""The SocketCluster client side of the flood scripts over raw sockets: connect, frame, read,
handshake, and a process's resident memory. Standard library only; frames sent use the
all-zero masking key."""
import json, socket, struct


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(("GET /socketcluster/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def send(s, text):
    payload = text.encode()
    n = len(payload)
    header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                              bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                              bytes([0x80 | 127]) + struct.pack(">Q", n))
    s.sendall(header + b"\0\0\0\0" + payload)


class Reader:
    def __init__(self, s):
        self.s, self.buf = s, bytearray()

    def take(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def frame(self):
        b0, b1 = self.take(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self.take(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self.take(8))[0]
        return b0 & 0x0F, self.take(n)

    def text(self):
        while True:
            op, payload = self.frame()
            if op == 8:
                raise EOFError("close %d" % struct.unpack(">H", payload[:2])[0])
            if op == 1 and not payload:  # a SocketCluster ping: pong
                send(self.s, "")
            elif op == 1:
                return payload.decode()


def handshake(s, r, channel=None):
    send(s, json.dumps({"event": "#handshake", "data": {"authToken": None}, "cid": 1}))
    r.text()
    if channel:
        send(s, json.dumps({"event": "#subscribe", "data": {"channel": channel}, "cid": 2}))
        r.text()


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024


def peak_rss(pid):
    """The process's peak resident memory (VmHWM), in bytes."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
