import Foundation
import XCTest
import PubSubBroker
import PubSubClient
import TestSupport

/// permessage-deflate on the broker: declined by default (like socketcluster-server), accepted
/// when `BrokerOptions.perMessageDeflate` is set; PubSubClient offers it by default.
final class BrokerPerMessageDeflateTests: XCTestCase {
    private func negotiated(_ broker: PubSubBroker) async throws -> PerMessageDeflateParameters? {
        let socket = try WebSocket(url: broker.url.absoluteString)
        try await socket.connect()
        defer { socket.disconnect() }
        return socket.handshakeInfo?.perMessageDeflate
    }

    func testDeclinedByDefaultAcceptedWhenEnabled() async throws {
        let plain = try await PubSubBroker.start(port: 0)
        let declined = try await negotiated(plain)
        XCTAssertNil(declined)
        await plain.stop()

        let compressing = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.perMessageDeflate = PerMessageDeflateOptions() })
        let accepted = try await negotiated(compressing)
        XCTAssertEqual(accepted, PerMessageDeflateParameters())
        compressing.procedure("echo") { request in request.data }
        let client = try PubSubClient(url: compressing.url.absoluteString)
        _ = try await client.connect()
        let big = JSONValue.string(String(repeating: #"{"name":"ann","text":"hello"}"#, count: 2_000))
        let echoed = try await client.invoke("echo", big)
        XCTAssertEqual(echoed, big)
        client.disconnect()
        await compressing.stop()
    }
}
