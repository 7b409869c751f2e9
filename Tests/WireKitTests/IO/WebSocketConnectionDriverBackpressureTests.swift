import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// The driver against a peer that never reads, over a transport that keeps everything written
/// until told to drain: one pong at a time, and reading paused above the write limit.
final class WebSocketConnectionDriverBackpressureTests: XCTestCase {
    /// A transport whose writes stay buffered until `drain()`; records writes and pauses.
    private final class StalledTransport: Transport, @unchecked Sendable {
        // Confined to the driver's queue.
        private var handler: (@Sendable (TransportEvent) -> Void)?
        private(set) var writes: [[UInt8]] = []
        private(set) var bufferedAmount = 0
        private(set) var readingPaused = false

        func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) {
            self.handler = handler
        }
        func write(_ bytes: [UInt8]) {
            writes.append(bytes)
            bufferedAmount += bytes.count
        }
        func setReadingPaused(_ paused: Bool) { readingPaused = paused }
        func close() {}

        func deliver(_ bytes: [UInt8]) { bytes.withUnsafeBytes { handler?(.received($0)) } }
        /// The kernel took everything.
        func drain() {
            bufferedAmount = 0
            handler?(.writable)
        }
    }

    private let queue = DispatchQueue(label: "WebSocketConnectionDriverBackpressureTests")

    private func openServerDriver(writeLimit: Int = .max) -> (WebSocketConnectionDriver, StalledTransport) {
        let transport = StalledTransport()
        let driver = WebSocketConnectionDriver(
            machine: WebSocketStateMachine(server: WebSocketConfiguration()), transport: transport, queue: queue, writeLimit: writeLimit)
        queue.sync {
            driver.start()
            transport.deliver(
                Array(
                    "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                        .utf8))
            transport.drain()  // the 101 response left
        }
        return (driver, transport)
    }

    private func pongPayloads(_ writes: [[UInt8]]) throws -> [[UInt8]] {
        var decoder = WebSocketFrameDecoder(maskRequirement: .either)
        return try decoder.decode(writes.joined().map { $0 }).filter { $0.opcode == .pong }.map(\.payload)
    }

    func testOnePingPerReadGetsOnePongUntilThePreviousLeftTheTransport() throws {
        let (driver, transport) = openServerDriver()
        try queue.sync {
            let handshakeWrites = transport.writes.count
            for n in 0..<10_000 { transport.deliver(wireFrame(.ping, [UInt8(n & 0xFF), UInt8(n >> 8)], masked: true)) }
            let writes = Array(transport.writes.dropFirst(handshakeWrites))
            // The second ping's read came before the driver saw the first pong stay in the
            // transport; from then on pongs are held back and only the latest is owed.
            XCTAssertEqual(try pongPayloads(writes), [[0, 0], [1, 0]], "only the first two pongs were written; the transport holds them")
            XCTAssertEqual(driver.bufferedAmount, 4 + 4 + 4, "the pongs written plus the one owed")
            transport.drain()
            let after = Array(transport.writes.dropFirst(handshakeWrites))
            XCTAssertEqual(try pongPayloads(after), [[0, 0], [1, 0], [UInt8(9_999 & 0xFF), UInt8(9_999 >> 8)]], "then the latest ping's")
        }
    }

    func testReadingPausesAboveTheWriteLimitUntilTheOutputDrained() throws {
        let (driver, transport) = openServerDriver(writeLimit: 64 << 10)
        try queue.sync {
            XCTAssertFalse(transport.readingPaused)
            try driver.sendText(trustedUTF8: [UInt8](repeating: 0x61, count: 40 << 10))
            driver.flush()
            XCTAssertFalse(transport.readingPaused, "40 KiB waiting: below the limit")
            try driver.sendText(trustedUTF8: [UInt8](repeating: 0x61, count: 40 << 10))
            driver.flush()
            XCTAssertTrue(transport.readingPaused, "80 KiB waiting: above the limit")
            XCTAssertTrue(driver.readingPausedForOutput)
            // The owner's own pause is kept apart: resuming for output does not undo it.
            driver.setReadingPaused(true)
            transport.drain()
            XCTAssertFalse(driver.readingPausedForOutput)
            XCTAssertTrue(transport.readingPaused, "still paused by the owner")
            driver.setReadingPaused(false)
            XCTAssertFalse(transport.readingPaused)
        }
    }
}
