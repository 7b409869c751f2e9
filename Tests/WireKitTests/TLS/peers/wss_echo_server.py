"""A wss:// echo server on Python `websockets` + `ssl`: the TLS peer nobody here wrote.

Usage: wss_echo_server.py NAME:CERT.pem:KEY.pem[:tls12] [NAME:CERT:KEY ...]
Serves one port per identity on 127.0.0.1 (":tls12": at most TLS 1.2 on that port) and prints one JSON line {"NAME": port, ...}; then
echoes every message back. A text message "close-from-server" makes the server close with
1000 "server bye". After each connection it prints {"closed": NAME, "code": .., "reason": ..}.
Exits when stdin closes.
"""
import asyncio
import json
import ssl
import sys

from websockets.asyncio.server import serve


def emit(obj):
    print(json.dumps(obj), flush=True)


def handler_for(name):
    async def handler(ws):
        try:
            async for message in ws:
                if message == "close-from-server":
                    await ws.close(1000, "server bye")
                    break
                await ws.send(message)
        finally:
            await ws.wait_closed()
            emit({"closed": name, "code": ws.close_code, "reason": ws.close_reason})
    return handler


async def main():
    ports = {}
    servers = []
    for spec in sys.argv[1:]:
        name, cert, key, *flags = spec.split(":")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        if "tls12" in flags:
            context.maximum_version = ssl.TLSVersion.TLSv1_2
        server = await serve(handler_for(name), "127.0.0.1", 0, ssl=context, max_size=None)
        servers.append(server)
        ports[name] = server.sockets[0].getsockname()[1]
    emit(ports)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    for server in servers:
        server.close()


asyncio.run(main())
