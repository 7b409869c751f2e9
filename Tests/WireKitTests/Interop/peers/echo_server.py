#!/usr/bin/env python3
"""WebSocket echo server on the `websockets` library, for WireKit's client-role interop tests.

Usage: echo_server.py
Prints "PORT <n>" once listening on 127.0.0.1 (a free port). Echoes every message. A text
message "close:<code>:<reason>" makes the server start the close handshake with that code and
reason instead. When a connection ends it prints one line:
  CLOSED path=<path> rcvd=<code>:<reason> sent=<code>:<reason>
(the close frames received from and sent to the client; "none" when there was none).
Runs until stdin closes.
"""
import asyncio
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


def describe(frame):
    return "none" if frame is None else "%d:%s" % (frame.code, frame.reason)


async def handler(ws):
    try:
        async for message in ws:
            if isinstance(message, str) and message.startswith("close:"):
                _, code, reason = message.split(":", 2)
                await ws.close(int(code), reason)
                break
            await ws.send(message)
    except ConnectionClosed:
        pass
    finally:
        await ws.wait_closed()
        print("CLOSED path=%s rcvd=%s sent=%s" % (ws.request.path, describe(ws.protocol.close_rcvd), describe(ws.protocol.close_sent)), flush=True)


async def main():
    async with serve(handler, "127.0.0.1", 0, max_size=None, compression=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        print("PORT %d" % port, flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)  # stop when the test closes our stdin


if __name__ == "__main__":
    asyncio.run(main())
