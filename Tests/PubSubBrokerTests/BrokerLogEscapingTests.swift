import Foundation
import PubSubClient
import TestSupport
import XCTest
@testable import PubSubBroker

/// A client's text reaches the broker's log records escaped, and the API's data verbatim.
final class BrokerLogEscapingTests: XCTestCase {
    func testAClientsCloseReasonIsLoggedEscapedAndHandedToTheApplicationVerbatim() async throws {
        let reason = "bye\u{1B}[2J\u{1B}[H\r\ninfo broker: socket connected socket=forged"
        let capture = LogCapture()
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.logSink = capture.sink() })
        let received = AsyncStream<String>.makeStream()
        broker.onDisconnection { left in received.continuation.yield(left.reason) }
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.autoReconnect = false
            })
        try await client.connect()
        await client.close(code: 4321, reason: reason)

        let disconnected = await capture.first(.broker, "socket disconnected")
        XCTAssertEqual(disconnected?.metadata["reason"], #"bye\u{1B}[2J\u{1B}[H\r\ninfo broker: socket connected socket=forged"#)
        XCTAssertEqual(HostilePeerText.rawScalars(in: disconnected?.description ?? ""), [])
        var iterator = received.stream.makeAsyncIterator()
        let verbatim = await iterator.next()
        XCTAssertEqual(verbatim, reason)
        await broker.stop()
    }

    func testAChannelNameAtTheChannelLimitIsLoggedEscaped() {
        let capture = LogCapture()
        let log = BrokerLog(options: configured(BrokerOptions()) { $0.logSink = capture.sink() })
        log.channelLimitReached(BrokerConnectionID(rawValue: 1), socket: "s", channel: "x\u{1B}[2J\n", limit: 1)
        XCTAssertEqual(capture.records.first?.metadata["channel"], #"x\u{1B}[2J\n"#)
    }
}
