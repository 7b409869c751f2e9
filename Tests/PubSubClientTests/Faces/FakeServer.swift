import Dispatch
import Foundation
@testable import PubSubClient
import WireKit

/// An in-memory stand-in for a SocketCluster server, for testing the public faces without a
/// network: answers the handshake, `echo`, `#subscribe`, `#publish` (echoing it back), and on
/// the transmit `askMe` invokes `ask` on the client.
final class FakeServer: SessionTransportFactory, @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    private var _received: [String] = []
    private var _connection: FakeConnection?
    private var serverCid: Int64 = 0

    var received: [String] { lock.withLock { _received } }
    var connection: FakeConnection? { lock.withLock { _connection } }

    func open(
        url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
        onEvent: @escaping @Sendable (SessionTransportEvent) -> Void
    ) -> any SessionTransport {
        let connection = FakeConnection(server: self, queue: queue, onEvent: onEvent)
        lock.withLock { _connection = connection }
        queue.async { onEvent(.opened) }
        return connection
    }

    func handle(_ text: String, on connection: FakeConnection) {
        lock.withLock { _received.append(text) }
        guard let packet = try? JSONValue(parsing: text) else { return }
        let event = packet["event"]?.stringValue
        let cid = packet["cid"]?.intValue
        let data = packet["data"]
        switch (event, cid) {
        case ("#handshake", let cid?):
            connection.deliver(#"{"rid":\#(cid),"data":{"id":"fake-socket","pingTimeout":20000,"isAuthenticated":false}}"#)
        case ("#subscribe", let cid?):
            connection.deliver(#"{"rid":\#(cid)}"#)
        case ("#publish", let cid):
            connection.deliver(Packet.transmit(event: "#publish", data: data).serialized())
            if let cid { connection.deliver(#"{"rid":\#(cid)}"#) }
        case ("echo", let cid?):
            connection.deliver(Packet.response(rid: cid, result: .success(data)).serialized())
        case ("askMe", nil):
            let cid = lock.withLock {
                serverCid += 1; return serverCid
            }
            connection.deliver(
                Packet.invoke(event: data?["procedure"]?.stringValue ?? "ask", data: data?["payload"], cid: cid)
                    .serialized(keyOrder: .server))
        default:
            break
        }
    }
}

final class FakeConnection: SessionTransport, @unchecked Sendable {
    // @unchecked: `closed` is guarded by `lock`; the rest is immutable.
    private let server: FakeServer
    private let queue: DispatchQueue
    private let onEvent: @Sendable (SessionTransportEvent) -> Void
    private let lock = NSLock()
    private var _closedWith: (UInt16, String)?

    init(server: FakeServer, queue: DispatchQueue, onEvent: @escaping @Sendable (SessionTransportEvent) -> Void) {
        self.server = server
        self.queue = queue
        self.onEvent = onEvent
    }

    var closedWith: (UInt16, String)? { lock.withLock { _closedWith } }

    func send(utf8: [UInt8]) { server.handle(String(decoding: utf8, as: UTF8.self), on: self) }
    /// The fake server speaks JSON only: binary messages are not delivered.
    func send(binary: [UInt8]) {}

    func close(code: UInt16, reason: String) { lock.withLock { _closedWith = (code, reason) } }

    func closed() async -> WebSocketCloseInfo? { nil }

    func deliver(_ text: String) {
        let onEvent = self.onEvent
        queue.async { onEvent(.text(text)) }
    }

    func serverClose(code: UInt16, reason: String) {
        let onEvent = self.onEvent
        queue.async { onEvent(.closed(code: code, reason: reason)) }
    }
}
