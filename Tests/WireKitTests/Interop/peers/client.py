#!/usr/bin/env python3
"""WebSocket client on the `websockets` library, for WireKit's server-role interop tests.

Usage: client.py URL MODE
  MODE echo          sends text and binary messages of 0, 125, 126, 65535, 65536 and 1 MiB
                     bytes, checks each echo byte for byte, pings and waits for the pong,
                     then closes with 4001 "client bye"
  MODE server-close  sends "please close" and waits for the server to close
Prints "OK <what>" per check, "FAIL <what>" on a mismatch, and finally
  CLOSED rcvd=<code>:<reason> sent=<code>:<reason>
Exit status 0 when every check passed.
"""
import asyncio
import os
import sys

from websockets.asyncio.client import connect

SIZES = [0, 125, 126, 65535, 65536, 1 << 20]


def describe(frame):
    return "none" if frame is None else "%d:%s" % (frame.code, frame.reason)


def text_of(size):
    # Multi-byte characters, so the server's UTF-8 handling is exercised; exactly `size` bytes.
    return ("\u00e9" * (size // 2)) + ("a" if size % 2 else "")


async def main(url, mode):
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("OK " if ok else "FAIL ") + what, flush=True)
        failures += 0 if ok else 1

    async with connect(url, max_size=None, compression=None, ping_interval=None, proxy=None) as ws:
        if mode == "echo":
            for size in SIZES:
                text = text_of(size)
                await ws.send(text)
                echoed = await ws.recv()
                check(echoed == text, "text %d" % size)
                data = os.urandom(size)
                await ws.send(data)
                echoed = await ws.recv()
                check(echoed == data, "binary %d" % size)
            pong = await ws.ping(b"interop")
            latency = await asyncio.wait_for(pong, 10)
            check(latency >= 0, "ping")
            await ws.close(4001, "client bye")
        elif mode == "server-close":
            await ws.send("please close")
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except Exception:
                pass
            await ws.wait_closed()
        else:
            sys.exit("unknown mode %r" % mode)
    print("CLOSED rcvd=%s sent=%s" % (describe(ws.protocol.close_rcvd), describe(ws.protocol.close_sent)), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
