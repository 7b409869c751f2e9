#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into Fuzz/Corpus/TARGET/ (seed-*.bin files).

Sources: the SocketCluster recordings in Tests/Fixtures, the examples of RFC 6455 (1.2, 1.3,
5.7) and Autobahn-like frames (fragmentation, control frames, bad UTF-8, reserved bits, bad
opcodes, close codes). Inputs of the WebSocket targets start with two control bytes: byte 0 the
role (even: client, odd: server; for http-head odd: request), byte 1 the chunking seed.
Rerun after changing it: python3 Fuzz/make-seeds.py (it only replaces seed-* files).
"""
import base64, glob, hashlib, hmac, json, os, struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


def clear_seeds():
    for path in glob.glob(os.path.join(CORPUS, "*", "seed-*")):
        os.remove(path)


def frame(opcode, payload=b"", fin=True, mask=None, rsv=0):
    b0 = (0x80 if fin else 0) | (rsv << 4) | opcode
    n = len(payload)
    mbit = 0x80 if mask is not None else 0
    if n < 126:
        head = bytes([b0, mbit | n])
    elif n < 65536:
        head = bytes([b0, mbit | 126]) + struct.pack(">H", n)
    else:
        head = bytes([b0, mbit | 127]) + struct.pack(">Q", n)
    if mask is None:
        return head + payload
    return head + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(payload))


def close_payload(code, reason=b""):
    return struct.pack(">H", code) + reason


RFC_KEY = "dGhlIHNhbXBsZSBub25jZQ=="
RFC_REQUEST = (b"GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\n"
               b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               b"Origin: http://example.com\r\nSec-WebSocket-Protocol: chat, superchat\r\n"
               b"Sec-WebSocket-Version: 13\r\n\r\n")
RFC_RESPONSE = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
MASK = b"\x37\xfa\x21\x3d"

# (name, [frames as (opcode, payload, fin, rsv)])
SEQUENCES = [
    ("hello", [(1, b"Hello", True, 0)]),
    ("binary-256", [(2, bytes(range(256)), True, 0)]),
    ("binary-300-126", [(2, b"x" * 300, True, 0)]),
    ("fragmented", [(1, b"Hel", False, 0), (0, b"lo", True, 0)]),
    ("fragmented-ping-between", [(1, b"Hel", False, 0), (9, b"p", True, 0), (0, b"lo", True, 0)]),
    ("ping-pong", [(9, b"Hello", True, 0), (10, b"Hello", True, 0)]),
    ("ping-125", [(9, b"*" * 125, True, 0)]),
    ("ping-126-too-long", [(9, b"*" * 126, True, 0)]),
    ("close-1000", [(8, close_payload(1000), True, 0)]),
    ("close-reason", [(8, close_payload(1001, b"going away"), True, 0)]),
    ("close-empty", [(8, b"", True, 0)]),
    ("close-1-byte", [(8, b"\x03", True, 0)]),
    ("close-bad-code", [(8, close_payload(999), True, 0)]),
    ("close-bad-utf8-reason", [(8, close_payload(1000, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80"), True, 0)]),
    ("text-bad-utf8", [(1, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80edited", True, 0)]),
    ("text-utf8-split", [(1, b"\xce\xba\xe1", False, 0), (0, b"\xbd\xb9", True, 0)]),
    ("reserved-bits", [(1, b"Hello", True, 0), (1, b"Hello", True, 1)]),
    ("opcode-3", [(3, b"", True, 0)]),
    ("opcode-11", [(11, b"", True, 0)]),
    ("continuation-first", [(0, b"orphan", True, 0)]),
    ("fragmented-control", [(9, b"ping", False, 0)]),
    ("text-then-close", [(1, b"bye", True, 0), (8, close_payload(1000), True, 0), (1, b"after", True, 0)]),
    ("empty-text", [(1, b"", True, 0), (2, b"", True, 0)]),
]


def frames_bytes(seq, masked):
    return b"".join(frame(op, p, fin, MASK if masked else None, rsv) for op, p, fin, rsv in seq)


def fixture_texts():
    texts = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "socketcluster-server-19", "*.jsonl"))):
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if line:
                record = json.loads(line)
                if "text" in record:
                    texts.append((os.path.basename(path).split(".")[0], record["text"]))
    return texts


def fixture_minbin_frames():
    """Every distinct binary frame of the protocol-2 min-bin recordings (protocol 1's differ only
    in their pings), socket ids masked when telling frames apart: (scenario, bytes)."""
    frames, seen = [], set()
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "socketcluster-server-19-minbin", "*.proto2.jsonl"))):
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if line:
                record = json.loads(line)
                if "binary" in record:
                    data = base64.b64decode(record["binary"])
                    at = data.find(b"\xa2id\xb4")
                    shape = data if at < 0 else data[:at + 4] + data[at + 24:]
                    if shape not in seen:
                        seen.add(shape)
                        frames.append((os.path.basename(path).split(".")[0], data))
    return frames


# MessagePack edge cases: every format, the largest announced lengths, extensions, deep nesting.
MSGPACK_EDGES = [
    ("nil", "c0"), ("true-false", "92c3c2"), ("fixints", "9400 7f e0 ff"), ("uint", "94cc80 cdffff ceffffffff cfffffffffffffffff"),
    ("int", "94d080 d18000 d280000000 d38000000000000000"), ("float32", "ca3fc00000"), ("float64-nan", "cb7ff8000000000000"),
    ("float64-integral", "cb41e0000000000000"), ("str8-16-32", "93d903616263 da0003616263 db00000003616263"),
    ("bin8-16-32", "93c40100 c5000100 c600000001 00"), ("array16-32", "92dc0001c0 dd00000001c0"),
    ("map16-32", "92de0001a16101 df00000001a16102"), ("repeated-key", "82a16101a16102"), ("binary-wrapper-map", "82a6626173653634c3a464617461a44141453d"),
    ("str32-huge", "dbffffffff"), ("bin32-huge", "c6ffffffff"), ("array32-huge", "ddffffffff"), ("map32-huge", "dfffffffff"),
    ("fixext1", "d40100"), ("ext8", "c7010500"), ("never-used", "c1"), ("int-key", "810102"), ("bad-utf8", "a2c328"),
    ("trailing", "c0c0"), ("pong-in-binary", "2332"), ("truncated-uint16", "cd01"),
]


def hexbytes(text):
    return bytes.fromhex(text.replace(" ", ""))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(payload, secret=b"fuzz-secret", header=None):
    header = header or {"alg": "HS256", "typ": "JWT"}
    signing = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + b64url(json.dumps(payload, separators=(",", ":")).encode())
    return signing + "." + b64url(hmac.new(secret, signing.encode(), hashlib.sha256).digest())


def main():
    clear_seeds()
    # frames: after the fixed handshake; client (0) reads plain frames, server (1) masked ones
    for i, (name, seq) in enumerate(SEQUENCES):
        write("frames", "client-" + name, bytes([0, 0]) + frames_bytes(seq, False))
        write("frames", "server-" + name, bytes([1, 0]) + frames_bytes(seq, True))
        write("frames", "server-chunked-" + name, bytes([1, 7 + 2 * i]) + frames_bytes(seq, True))
    write("frames", "server-unmasked", bytes([1, 0]) + frames_bytes([(1, b"Hello", True, 0)], False))
    write("frames", "client-masked", bytes([0, 0]) + frames_bytes([(1, b"Hello", True, 0)], True))
    write("frames", "client-64bit-length", bytes([0, 3]) + bytes([0x82, 127]) + struct.pack(">Q", 300) + b"y" * 300)
    write("frames", "client-64bit-huge", bytes([0, 0]) + bytes([0x82, 127]) + struct.pack(">Q", 1 << 63))

    # http-head: 1 = request, 0 = response
    write("http-head", "request-rfc6455", bytes([1, 0]) + RFC_REQUEST)
    write("http-head", "request-rfc6455-chunked", bytes([1, 5]) + RFC_REQUEST)
    write("http-head", "request-lf-only", bytes([1, 0]) + RFC_REQUEST.replace(b"\r\n", b"\n"))
    write("http-head", "request-trailing-bytes", bytes([1, 9]) + RFC_REQUEST + frame(1, b"Hi", mask=MASK))
    write("http-head", "request-obs-fold", bytes([1, 0]) + b"GET / HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n two\r\n\r\n")
    write("http-head", "request-no-version", bytes([1, 0]) + b"GET /\r\n\r\n")
    write("http-head", "response-rfc6455", bytes([0, 0]) + RFC_RESPONSE)
    write("http-head", "response-rfc6455-chunked", bytes([0, 3]) + RFC_RESPONSE)
    write("http-head", "response-400", bytes([0, 0]) + b"HTTP/1.1 400 Bad Request\r\nContent-Length: 12\r\nContent-Type: text/plain\r\n\r\nbad request\n")
    write("http-head", "response-no-reason", bytes([0, 0]) + b"HTTP/1.1 101\r\n\r\n")
    write("http-head", "response-http10", bytes([0, 0]) + b"HTTP/1.0 200 OK\r\nServer: x\r\n\r\n")
    write("http-head", "response-tls-hello", bytes([0, 0]) + b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")

    # handshake: 1 = server (reads the request), 0 = client (reads the response)
    write("handshake", "server-rfc6455", bytes([1, 0]) + RFC_REQUEST)
    write("handshake", "server-rfc6455-then-frame", bytes([1, 11]) + RFC_REQUEST + frame(1, b"Hello", mask=MASK))
    write("handshake", "server-version-8", bytes([1, 0]) + RFC_REQUEST.replace(b"Version: 13", b"Version: 8"))
    write("handshake", "server-bad-key", bytes([1, 0]) + RFC_REQUEST.replace(RFC_KEY.encode(), b"short=="))
    write("handshake", "server-post", bytes([1, 0]) + RFC_REQUEST.replace(b"GET", b"POST"))
    write("handshake", "server-no-upgrade", bytes([1, 0]) + RFC_REQUEST.replace(b"Upgrade: websocket\r\n", b""))
    write("handshake", "server-http10", bytes([1, 0]) + RFC_REQUEST.replace(b"HTTP/1.1", b"HTTP/1.0"))
    write("handshake", "client-rfc6455", bytes([0, 0]) + RFC_RESPONSE)
    write("handshake", "client-rfc6455-then-frame", bytes([0, 13]) + RFC_RESPONSE + frame(1, b"Hello"))
    write("handshake", "client-wrong-accept", bytes([0, 0]) + RFC_RESPONSE.replace(b"s3pP", b"AAAA"))
    write("handshake", "client-subprotocol-not-offered", bytes([0, 0]) + RFC_RESPONSE.replace(b"\r\n\r\n", b"\r\nSec-WebSocket-Protocol: chat\r\n\r\n"))
    write("handshake", "client-extension-not-offered", bytes([0, 0]) + RFC_RESPONSE.replace(b"\r\n\r\n", b"\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n"))
    write("handshake", "client-403-body", bytes([0, 2]) + b"HTTP/1.1 403 Forbidden\r\nContent-Length: 10\r\n\r\nforbidden\n")
    write("handshake", "client-404-chunked-body", bytes([0, 0]) + b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")

    # utf8 (byte 0 unused, byte 1 chunking)
    samples = {
        "ascii": b"Hello, world", "kosme": "κόσμε".encode(), "cjk": "日本語テキスト".encode(),
        "emoji": "👍🏽 ok".encode(), "max": b"\xf4\x8f\xbf\xbf", "bom": b"\xef\xbb\xbf",
        "surrogate": b"\xed\xa0\x80", "overlong-slash": b"\xc0\xaf", "overlong-3": b"\xe0\x80\xaf",
        "above-max": b"\xf4\x90\x80\x80", "truncated": "κόσμε".encode()[:-1], "lone-continuation": b"\x80abc",
        "f5": b"\xf5\x80\x80\x80", "long-ascii": b"abcdefghij" * 10 + "é".encode(),
        "autobahn-6.3.1": b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80\x65\x64\x69\x74\x65\x64",
    }
    for i, (name, data) in enumerate(sorted(samples.items())):
        write("utf8", name, bytes([0, 0]) + data)
        write("utf8", name + "-chunked", bytes([0, 1 + i]) + data)

    # json, packet: the recorded frames, and some edge cases
    texts = fixture_texts()
    seen = set()
    for i, (scenario, text) in enumerate(texts):
        if text in seen:
            continue
        seen.add(text)
        write("packet", "%s-%03d" % (scenario, i), text.encode())
        if text.startswith(("{", "[")):
            write("json", "%s-%03d" % (scenario, i), text.encode())
    for name, text in {
        "numbers": '[0,-0,1.5,-1e10,1E+2,123456789012345678901234567890,9223372036854775807,-9223372036854775808,5e-324,1.7976931348623157e308]',
        "escapes": '["\\"\\\\\\/\\b\\f\\n\\r\\t","\\u0000","\\u00e9\\ud83d\\ude00"]',
        "lone-surrogate": '["\\ud800"]', "nested": "[" * 40 + "]" * 40, "deep-object": '{"a":' * 30 + "1" + "}" * 30,
        "literals": '[true,false,null]', "scalar": '"just a string"', "whitespace": ' \t\n {"a" : [ 1 , 2 ] } \r\n',
        "duplicate-keys": '{"a":1,"a":2}', "bad-trailing-comma": '[1,2,]', "bad-leading-zero": '[01]',
        "bad-control": '["a\x01b"]', "unicode": '{"κλειδί":"τιμή","emoji":"👍"}',
    }.items():
        write("json", name, text.encode())
    for name, text in {"ping-v1": "#1", "pong-v1": "#2", "ping-v2": "", "batch": '[{"event":"a","data":1},{"rid":1,"data":null}]',
                       "response-error": '{"rid":7,"error":{"name":"BadThing","message":"no","extra":[1]}}',
                       "response-error-string": '{"rid":7,"error":"plain"}', "invoke-float-cid": '{"event":"x","cid":1.5}',
                       "not-json": "{oops", "binary-bad-utf8": '{"event":"\xff"}'}.items():
        write("packet", name, text.encode("latin-1") if "\xff" in text else text.encode())

    # jwt
    write("jwt", "signed", jwt({"username": "alice", "iat": 1700000000}).encode())
    write("jwt", "signed-exp-future", jwt({"username": "bob", "exp": 4102444800}).encode())
    write("jwt", "signed-expired", jwt({"exp": 1600000000}).encode())
    write("jwt", "signed-nbf-future", jwt({"nbf": 1800000000}).encode())
    write("jwt", "signed-bad-exp", jwt({"exp": "soon"}).encode())
    write("jwt", "signed-hs512-header", jwt({"a": 1}, header={"alg": "HS512", "typ": "JWT"}).encode())
    write("jwt", "other-secret", jwt({"username": "alice"}, secret=b"other").encode())
    write("jwt", "payload-string", (b64url(b'{"alg":"HS256"}') + "." + b64url(b"hello") + ".sig").encode())
    write("jwt", "two-parts", b"abc.def")
    write("jwt", "not-base64", b"a.b@c.d")
    for scenario, text in texts:
        if "eyJ" in text:
            start = text.index("eyJ")
            end = start
            while end < len(text) and (text[end].isalnum() or text[end] in "-_."):
                end += 1
            write("jwt", "fixture-" + scenario, text[start:end].encode())

    # msgpack: the recorded min-bin frames, the edge cases, nesting at and past the limit
    for i, (scenario, data) in enumerate(fixture_minbin_frames()):
        write("msgpack", "%s-%03d" % (scenario, i), data)
    for name, text in MSGPACK_EDGES:
        write("msgpack", name, hexbytes(text))
    write("msgpack", "nested-512", b"\x91" * 512 + b"\xc0")
    write("msgpack", "nested-513", b"\x91" * 513 + b"\xc0")

    # url
    for i, url in enumerate([
        "ws://localhost:8000/socketcluster/", "wss://example.com/socketcluster/?a=1&b=2", "ws://[::1]:8080/",
        "wss://[2001:db8::1]/path", "WS://Example.COM", "ws://user:pass@host:9000/x", "ws://host:0/", "ws://host:65536/",
        "ws://host:/", "http://example.com/", "ws://", "ws:///path", "ws://host#frag", "ws://host?query", " ws://host/ ",
        "ws://h\u00e9st/", "ws://[::1/", "wss://host:443/", "ws://host:80", "ws://a/b c",
    ]):
        write("url", "%02d" % i, url.encode())


if __name__ == "__main__":
    main()
