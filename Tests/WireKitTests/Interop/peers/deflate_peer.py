#!/usr/bin/env python3
"""permessage-deflate peer on the `websockets` library, for WireKit's compression interop tests.

Usage: deflate_peer.py server [PARAM=VALUE ...]
       deflate_peer.py client URL [PARAM=VALUE ...]
PARAMs: server_no_context_takeover, client_no_context_takeover (1/0), server_max_window_bits,
client_max_window_bits (8..15, or "bare" for the client's bare offer).

server: prints "PORT <n>", echoes every message, prints "EXT <negotiated extensions>" per
        connection; runs until stdin closes.
client: prints "EXT <negotiated>", sends JSON-like text of 4 KiB and 1 MiB and binary, checks
        each echo ("OK <what>"/"FAIL <what>"), then closes. Exit 0 when every check passed.
"""
import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    ServerPerMessageDeflateFactory,
)


def params(args):
    result = {}
    for arg in args:
        key, value = arg.split("=", 1)
        if key.endswith("context_takeover"):
            result[key] = value == "1"
        elif value == "bare":
            result[key] = True
        else:
            result[key] = int(value)
    return result


def payload(size):
    item = {"channel": "chat/lobby", "data": {"name": "ann", "text": "hello there, how is it going?"}}
    text = json.dumps([item] * (size // 80 + 1))
    return text[:size]


async def echo(ws):
    print("EXT %s" % ws.response.headers.get("Sec-WebSocket-Extensions", "none"), flush=True)
    try:
        async for message in ws:
            await ws.send(message)
    except Exception:
        pass


async def server(args):
    factory = ServerPerMessageDeflateFactory(**params(args))
    async with serve(echo, "127.0.0.1", 0, max_size=None, compression=None, extensions=[factory],
                     ping_interval=None) as srv:
        print("PORT %d" % srv.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


async def client(url, args):
    failures = 0
    factory = ClientPerMessageDeflateFactory(**params(args))
    async with connect(url, max_size=None, compression=None, extensions=[factory], ping_interval=None,
                       proxy=None) as ws:
        print("EXT %s" % ws.response.headers.get("Sec-WebSocket-Extensions", "none"), flush=True)
        for size in [10, 4096, 1 << 20]:
            for message in [payload(size), payload(size).encode()]:
                for _ in range(3):
                    await ws.send(message)
                    ok = (await ws.recv()) == message
                    failures += 0 if ok else 1
                print(("OK " if ok else "FAIL ") + "%s %d" % (type(message).__name__, size), flush=True)
        await ws.close()
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "server":
        asyncio.run(server(sys.argv[2:]))
    else:
        sys.exit(asyncio.run(client(sys.argv[2], sys.argv[3:])))
