/// The Python `websockets` client used by `PythonInteropTests`, written to a temporary file at run
/// time (kept here rather than as a `.py` file so the test target has no unhandled resources).
enum RawProtocolClientScript {
    static let source = #"""
        """A SocketCluster client nobody in this project wrote: Python `websockets` speaking the raw
        protocol to a PubSubBroker. Prints one JSON object with what the broker answered.

        usage: raw_protocol_client.py ws://127.0.0.1:PORT/socketcluster/ [CA.pem for wss://]
        """
        import json
        import ssl
        import sys

        from websockets.exceptions import ConnectionClosed, InvalidStatus
        from websockets.sync.client import connect


        def receive_json(ws):
            return json.loads(ws.recv(timeout=5))


        def main(url, cafile=None):
            context = ssl.create_default_context(cafile=cafile) if cafile else None
            result = {}
            with connect(url, open_timeout=5, ssl=context) as ws:
                ws.send(json.dumps({"event": "#handshake", "data": {"authToken": None}, "cid": 1}))
                result["handshake"] = receive_json(ws)
                ws.send(json.dumps({"event": "echo", "data": {"hello": "python", "n": [1, 2.5, None]}, "cid": 2}))
                result["echo"] = receive_json(ws)
                ws.send(json.dumps({"event": "#subscribe", "data": {"channel": "py"}, "cid": 3}))
                result["subscribe"] = receive_json(ws)
                ws.send(json.dumps({"event": "#publish", "data": {"channel": "py", "data": "hi"}, "cid": 4}))
                result["publish"] = [receive_json(ws), receive_json(ws)]
                ws.send(json.dumps({"event": "nosuch", "cid": 5}))
                ws.send(json.dumps({"event": "echo", "data": "sync", "cid": 6}))
                result["afterUnknown"] = receive_json(ws)
            try:
                with connect(url.rstrip("/"), open_timeout=5, ssl=context) as ws:
                    try:
                        ws.recv(timeout=5)
                        result["wrongPath"] = "message"
                    except ConnectionClosed as closed:
                        result["wrongPath"] = closed.rcvd.code if closed.rcvd else None
            except InvalidStatus as error:
                result["wrongPath"] = error.response.status_code
            print(json.dumps(result))


        if __name__ == "__main__":
            main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
        """#
}
