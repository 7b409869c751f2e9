"""A wss:// client on Python `websockets` + `ssl`, against the WireKit TLS server role.

Usage: wss_client.py URL CAFILE
Verifies the server against CAFILE (host name included), sends text and binary messages of
0, 125, 126, 65535, 65536 and 1 MiB bytes, checks each echo, then closes with 1000.
Prints one JSON line: {"ok": true, "echoed": n, "close_code": ..} or {"ok": false, "error": ..}.
"""
import asyncio
import json
import ssl
import sys

from websockets.asyncio.client import connect


async def main(url, cafile):
    context = ssl.create_default_context(cafile=cafile)
    echoed = 0
    async with connect(url, ssl=context, max_size=None) as ws:
        for size in (0, 125, 126, 65535, 65536, 1 << 20):
            text = "".join(chr(0x61 + i % 26) for i in range(size))
            await ws.send(text)
            if await ws.recv() != text:
                raise AssertionError(f"text echo of {size} bytes differs")
            data = bytes((i * 7) & 0xFF for i in range(size))
            await ws.send(data)
            if await ws.recv() != data:
                raise AssertionError(f"binary echo of {size} bytes differs")
            echoed += 2
        await ws.close(1000, "client done")
    return {"ok": True, "echoed": echoed, "close_code": ws.close_code,
            "close_reason": ws.close_reason}


try:
    result = asyncio.run(main(sys.argv[1], sys.argv[2]))
except Exception as error:  # reported to the Swift test, which fails with it
    result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
print(json.dumps(result), flush=True)
sys.exit(0 if result["ok"] else 1)
