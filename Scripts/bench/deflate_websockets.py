#!/usr/bin/env python3
"""Python `websockets` beside wirekit-deflatebench: the same JSON-like text (4 KiB, 1 MiB; 64
different messages cycled), a websockets client against a websockets echo server in this process
over loopback, one message in flight, compression off and on (websockets' defaults). Prints one
JSON line per size and setting: msgs/s, payload MB/s, client-side wire bytes per message each
way, CPU (user+sys of the process, client and server) per round trip.
Usage: deflate_websockets.py   (needs `pip install websockets`)
"""
import asyncio
import json
import resource
import time

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


def json_text(size, seed):
    parts = ["["]
    length = 1
    index = seed * 7919
    while length < size:
        item = ('{"event":"#publish","data":{"channel":"chat/lobby","data":{"name":"user%d","text":"message number %d from the lobby","ts":%d}}},'
                % (index % 97, index, 1700000000 + index * 37))
        parts.append(item)
        length += len(item)
        index += 1
    return "".join(parts)[:size]


def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def run(size, count, deflate):
    compression = "deflate" if deflate else None
    async with serve(echo, "127.0.0.1", 0, compression=compression, max_size=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect("ws://127.0.0.1:%d/" % port, compression=compression, max_size=None, ping_interval=None, proxy=None) as ws:
            counts = {"up": 0, "down": 0}
            write, received = ws.transport.write, ws.data_received

            def counting_write(data):
                counts["up"] += len(data)
                write(data)

            def counting_received(data):
                counts["down"] += len(data)
                received(data)

            ws.transport.write = counting_write
            ws.data_received = counting_received
            texts = [json_text(size, seed) for seed in range(64)]
            for text in texts[:10]:
                await ws.send(text)
                await ws.recv()
            counts["up"] = counts["down"] = 0
            cpu0, t0 = cpu(), time.perf_counter()
            for index in range(count):
                text = texts[index % len(texts)]
                await ws.send(text)
                assert await ws.recv() == text
            seconds, used = time.perf_counter() - t0, cpu() - cpu0
    print(json.dumps({"bench": "deflate-websockets", "size": size, "deflate": deflate, "count": count,
                      "msgs_per_s": int(count / seconds), "payload_MB_per_s": round(count * size * 2 / seconds / 1e6, 1),
                      "wire_bytes_per_msg_up": counts["up"] // count, "wire_bytes_per_msg_down": counts["down"] // count,
                      "cpu_us_per_roundtrip": round(used / count * 1e6, 1)}), flush=True)


async def main():
    for size, count in [(4096, 5000), (1 << 20, 100)]:
        for deflate in [False, True]:
            await run(size, count, deflate)


if __name__ == "__main__":
    asyncio.run(main())
