import Foundation
import TestSupport
import XCTest
@testable import PubSubBroker

/// The broker's I/O limits over real loopback sockets: the slow consumer (`maxOutboundBufferedBytes`),
/// `maxConnections`, `maxPayload` and the handshake hook, each with the close code the client sees.
final class BrokerLimitsNetworkTests: XCTestCase {
    private let handshake = RawWebSocketClient.anonymousHandshake

    private func connect(_ broker: PubSubBroker, subscribingTo channel: String? = nil) throws -> RawWebSocketClient {
        try RawWebSocketClient.handshaken(to: broker, subscribingTo: channel)
    }

    /// The `n` of a publication frame `{"event":"#publish","data":{"channel":…,"data":{"n":…}}}`.
    private func sequenceNumber(_ text: String) throws -> Int {
        let packet = try JSONValue(parsing: text)
        XCTAssertEqual(packet["event"], "#publish")
        return Int(try XCTUnwrap(packet["data"]?["data"]?["n"]?.intValue))
    }

    private func waitUntil(_ condition: () -> Bool, timeout: TimeInterval = 10) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// The slow-subscriber flood, shortened: a subscriber stops reading while a publisher sends
    /// 100 KiB publications as fast as the broker acknowledges them and the other subscriber
    /// reads them. The slow subscriber is closed
    /// with 1008 once 1 MiB waits for it, the app hears of it, another subscriber receives every
    /// publication in order, the slow one gets an unbroken prefix then the close code, and the
    /// process's memory stays bounded by the limit, not by the flood.
    func testASlowSubscriberIsClosedWith1008WhileEveryoneElseIsServed() async throws {
        let limit = 1 << 20
        let count = 400  // 40 MiB of publications: far beyond the limit and the kernel's buffers
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.maxOutboundBufferedBytes = limit })
        let log = EventLog()
        broker.onSlowConsumer { slow in log.append("slow \(slow.socket.id) \(slow.bufferedBytes <= limit)") }
        broker.onDisconnection { left in log.append("closed \(left.socket.id) \(left.code)") }
        let slow = try connect(broker, subscribingTo: "x")
        let slowID = try XCTUnwrap(broker.sockets.first?.id)
        let bystander = try connect(broker, subscribingTo: "x")
        let publisher = try connect(broker)
        // The other subscriber reads on its own thread (the raw client blocks).
        let reading = ReaderThread(bystander, count: count)
        let padding = String(repeating: "p", count: 100 * 1024)
        let before = try XCTUnwrap(ResidentMemory.current())
        var peak = before
        for n in 0..<count {
            // The other subscriber keeps up: at most 8 publications (800 KiB) ahead of it.
            reading.waitForCount(atLeast: n - 8)
            try publisher.send(zeroMask: true, ##"{"event":"#publish","data":{"channel":"x","data":{"n":\##(n),"pad":"\##(padding)"}},"cid":\##(n + 3)}"##)
            XCTAssertEqual(try publisher.receiveText(), "{\"rid\":\(n + 3)}")
            if n % 20 == 0 { peak = max(peak, ResidentMemory.current() ?? 0) }
        }
        let served = reading.wait()
        XCTAssertEqual(served, Array(0..<count), "the other subscriber missed or reordered publications")
        waitUntil { log.entries.count >= 2 }
        XCTAssertEqual(log.entries, ["slow \(slowID) true", "closed \(slowID) 1008"])
        // Reading again: every publication in order up to the cut, then the documented close.
        var received: [Int] = []
        var close: RawWebSocketClient.Frame?
        while close == nil {
            let frame = try slow.receiveFrame()
            if frame.opcode == 0x8 {
                close = frame
            } else if frame.opcode == 0x1, !frame.payload.isEmpty {
                received.append(try sequenceNumber(frame.text))
            }
        }
        XCTAssertEqual(close?.closeCode, 1008)
        XCTAssertEqual(close?.closeReason, "Slow consumer: more than \(limit) bytes waiting to be written")
        XCTAssertEqual(received, Array(0..<received.count), "a gap before the close")
        XCTAssertLessThan(received.count, count)
        // The broker holds at most the limit plus one message for the slow subscriber (the rest
        // sits in kernel buffers); unbounded buffering would hold the ~35 MiB it never took.
        let growth = peak - before
        XCTAssertLessThan(growth, 16 << 20, "RSS grew \(ResidentMemory.mebibytes(growth)) with a \(limit)-byte limit")
        print("slow-subscriber flood: RSS grew \(ResidentMemory.mebibytes(growth)); slow subscriber got \(received.count) of \(count)")
        bystander.closeHandshake()
        publisher.closeHandshake()
        await broker.stop()
    }

    func testAMessageLargerThanTheLimitStillReachesAReaderThatKeepsUp() async throws {
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.maxOutboundBufferedBytes = 1024 })
        let subscriber = try connect(broker, subscribingTo: "x")
        let listener = try XCTUnwrap(broker.listener as? WebSocketBrokerListener)
        let big = String(repeating: "b", count: 64 * 1024)
        for n in 0..<3 {
            // Each publication meets an empty buffer (the previous one fully handed to the kernel).
            waitUntil { listener.bufferedAmounts.allSatisfy { $0 == 0 } }
            broker.publish(channel: "x", data: ["n": .int(Int64(n)), "big": .string(big)])
            XCTAssertEqual(try sequenceNumber(subscriber.receiveText()), n)
        }
        subscriber.closeHandshake()
        await broker.stop()
    }

    func testConnectionsBeyondMaxConnectionsAreClosedWith1013() async throws {
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.maxConnections = 2 })
        let first = try connect(broker)  // below
        let second = try connect(broker)  // at
        let third = try RawWebSocketClient(port: broker.port)  // above
        let refused = try third.receiveFrame()
        XCTAssertEqual(refused.closeCode, 1013)
        XCTAssertEqual(refused.closeReason, "Too many connections")
        try? third.sendClose(code: 1013)
        XCTAssertEqual(broker.sockets.count, 2)
        first.closeHandshake()
        waitUntil { broker.sockets.count == 1 }
        let again = try connect(broker)  // room again
        XCTAssertEqual(broker.sockets.count, 2)
        again.closeHandshake()
        second.closeHandshake()
        await broker.stop()
    }

    func testMaxPayloadAtBelowAndAbove() async throws {
        let broker = try await PubSubBroker.start(port: 0, options: configured(BrokerOptions()) { $0.maxPayload = 1_000 })
        let sizes = EventLog()
        broker.receiver("pad") { message in sizes.append("\(message.data?.stringValue?.count ?? -1)") }
        let client = try connect(broker)
        let envelope = ##"{"event":"pad","data":""}"##.utf8.count
        try client.send(##"{"event":"pad","data":"\##(String(repeating: "a", count: 999 - envelope))"}"##)  // below
        try client.send(##"{"event":"pad","data":"\##(String(repeating: "a", count: 1_000 - envelope))"}"##)  // at
        waitUntil { sizes.entries.count == 2 }
        XCTAssertEqual(sizes.entries, ["\(999 - envelope)", "\(1_000 - envelope)"])
        try client.send(##"{"event":"pad","data":"\##(String(repeating: "a", count: 1_001 - envelope))"}"##)  // above
        let close = try client.receiveFrame()
        XCTAssertEqual(close.closeCode, 1009)
        XCTAssertEqual(sizes.entries.count, 2)
        await broker.stop()
    }

    func testTheHandshakeHookRejectsWithItsCodeAndReason() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.authorizeHandshake { request in
            if request.data?["authToken"]?.stringValue == "letmein" { return }
            if request.data?["authToken"]?.stringValue == "other" { throw RemoteError(name: "Nope", message: "plain error") }
            throw BrokerHandshakeRejection(code: 4403, reason: "no entry")
        }
        let connected = EventLog()
        broker.onConnection { _ in connected.append("connected") }

        let allowed = try RawWebSocketClient(port: broker.port)
        try allowed.send(##"{"event":"#handshake","data":{"authToken":"letmein"},"cid":1}"##)
        XCTAssertEqual(try JSONValue(parsing: allowed.receiveText())["data"]?["isAuthenticated"], false)

        let refused = try RawWebSocketClient(port: broker.port)
        try refused.send(handshake)
        let answer = try JSONValue(parsing: refused.receiveText())
        XCTAssertEqual(answer["rid"], 1)
        XCTAssertEqual(answer["error"]?["message"], "no entry")
        let close = try refused.receiveFrame()
        XCTAssertEqual(close.closeCode, 4403)
        XCTAssertEqual(close.closeReason, "no entry")

        let other = try RawWebSocketClient(port: broker.port)
        try other.send(##"{"event":"#handshake","data":{"authToken":"other"},"cid":1}"##)
        _ = try other.receiveText()
        XCTAssertEqual(try other.receiveFrame().closeCode, 4008)
        try? refused.sendClose(code: 4403)
        try? other.sendClose(code: 4008)

        XCTAssertEqual(connected.entries, ["connected"])
        allowed.closeHandshake()
        await broker.stop()
    }
}

/// Reads `count` publications from a raw client on a thread of its own and keeps their numbers.
private final class ReaderThread: @unchecked Sendable {
    // `numbers` is guarded by `condition`.
    private let client: RawWebSocketClient
    private var numbers: [Int] = []
    private var finished = false
    private let condition = NSCondition()

    init(_ client: RawWebSocketClient, count: Int) {
        self.client = client
        Thread.detachNewThread { [self] in
            while let text = try? self.client.receiveText(), let n = Self.sequenceNumber(text) {
                condition.withLock {
                    numbers.append(n)
                    condition.broadcast()
                }
                if n == count - 1 { break }
            }
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }
    }

    /// `n` from the start of `{"event":"#publish","data":{"channel":"x","data":{"n":N,…`, without
    /// parsing the 100 KiB behind it.
    private static func sequenceNumber(_ text: String) -> Int? {
        guard let range = text.utf8.prefix(80).firstRange(of: Array(#""n":"#.utf8)) else { return nil }
        return Int(String(decoding: text.utf8[range.upperBound...].prefix { $0 >= 48 && $0 <= 57 }, as: UTF8.self))
    }

    /// Waits until at least `count` were read (or reading ended).
    func waitForCount(atLeast count: Int) {
        condition.withLock {
            while numbers.count < count && !finished { condition.wait() }
        }
    }

    /// The numbers read, once reading ended (all read, or the client failed: 10 s timeout).
    func wait() -> [Int] {
        condition.withLock {
            while !finished { condition.wait() }
            return numbers
        }
    }
}
