import XCTest
@testable import PubSubBroker

extension RawWebSocketClient {
    /// The handshake packet of a client without a token (cid 1).
    static let anonymousHandshake = ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##

    /// A client of `broker` that has completed the SocketCluster handshake and, when `channel` is
    /// given, subscribed to it (cid 2).
    static func handshaken(
        to broker: PubSubBroker, subscribingTo channel: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> RawWebSocketClient {
        let client = try RawWebSocketClient(port: broker.port)
        try client.send(anonymousHandshake)
        _ = try client.receiveText()
        if let channel {
            try client.send(##"{"event":"#subscribe","data":{"channel":"\##(channel)"},"cid":2}"##)
            XCTAssertEqual(try client.receiveText(), ##"{"rid":2}"##, file: file, line: line)
        }
        return client
    }
}
