import Foundation
import XCTest
@testable import PubSubBroker
@testable import PubSubClient
import TestSupport

/// `procedure` and `events` streams are bounded like `channel` and `receiver`: at the high-water
/// mark (256 unread) the socket is still read, above it reading pauses, and it resumes once the
/// consumer is down to the low-water mark (64). Dropping policies count what they drop.
final class StreamBoundsTests: XCTestCase {
    private var broker: PubSubBroker!
    private var client: PubSubClient!
    private var socket: BrokerSocket!
    private let high = StreamFlowControl.highWaterMark
    private let low = StreamFlowControl.lowWaterMark

    override func setUp() async throws {
        broker = try await PubSubBroker.start(port: 0)
        client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.autoReconnect = false
            })
        try await client.connect()
        for _ in 0..<500 where broker.sockets.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        socket = try XCTUnwrap(broker.sockets.first)
    }

    override func tearDown() async throws {
        client.disconnect()
        await broker.stop()
    }

    private var isPaused: Bool { client.driver.isReadingPausedByStreams }

    /// Server requests the client has read and not yet answered.
    private var openRequests: Int { client.driver.run { session, _ in session.connection.link?.openRequests.count ?? 0 } }

    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// Sends a marker transmit and waits until `markers` delivers it: the client has then read and
    /// yielded everything the server sent before it.
    private func sync(_ markers: inout AsyncStream<JSONValue?>.AsyncIterator, _ n: Int64) async {
        socket.transmit("marker", .int(n))
        let got = await markers.next()
        XCTAssertEqual(got??.intValue, n)
    }

    func testProcedureStreamPausesReadingAboveItsBoundAndResumesAtTheLowWaterMark() async throws {
        var requests = client.procedure("ask").makeAsyncIterator()
        let socket = self.socket!, high = self.high
        let answers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0...high { group.addTask { _ = try await socket.invoke("ask", .int(Int64(n)), ackTimeout: .seconds(60)) } }
                try await group.waitForAll()
            }
        }
        // 257 invokes race to the client; below and at the bound it keeps reading.
        try await waitUntil { openRequests >= high }
        XCTAssertGreaterThanOrEqual(openRequests, high)
        try await waitUntil { openRequests > high }
        XCTAssertEqual(openRequests, high + 1)
        XCTAssertTrue(isPaused, "257 unread requests and the socket is still read")
        // Consuming down to 65 unread keeps it paused; one more resumes.
        for answered in 1...(high + 1 - low) {
            guard let request = await requests.next() else { return XCTFail("procedure stream ended") }
            if answered < high + 1 - low { XCTAssertTrue(isPaused, "resumed at \(high + 1 - answered) unread") }
            try request.respond(request.data)
        }
        try await waitUntil { !isPaused }
        XCTAssertFalse(isPaused)
        for _ in 0..<low {
            guard let request = await requests.next() else { return XCTFail("procedure stream ended") }
            try request.respond(request.data)
        }
        try await answers.value
    }

    func testProcedureStreamAtItsBoundKeepsReading() async throws {
        var markers = client.receiver("marker").makeAsyncIterator()
        let requests = client.procedure("ask")
        let socket = self.socket!
        for n in 0..<high { Task { _ = try? await socket.invoke("ask", .int(Int64(n)), ackTimeout: .seconds(60)) } }
        try await waitUntil { openRequests == high }
        XCTAssertEqual(openRequests, high)
        await sync(&markers, 1)
        XCTAssertFalse(isPaused, "paused at the bound")
        _ = requests
    }

    func testEventsStreamIsBoundedAtTheHighWaterMark() async throws {
        var markers = client.receiver("marker").makeAsyncIterator()
        var events = client.events().makeAsyncIterator()
        // Below and at the bound: 255 transmits and the marker (also an event) make 256 unread.
        for n in 0..<(high - 1) { socket.transmit("tick", .int(Int64(n))) }
        await sync(&markers, 1)
        XCTAssertFalse(isPaused, "paused at \(high) unread events")
        // Above: one more.
        socket.transmit("tick", .int(Int64(high)))
        try await waitUntil { isPaused }
        XCTAssertTrue(isPaused, "\(high + 1) unread events and the socket is still read")
        for taken in 1...(high + 1 - low) {
            guard await events.next() != nil else { return XCTFail("events ended") }
            if taken < high + 1 - low { XCTAssertTrue(isPaused) }
        }
        try await waitUntil { !isPaused }
        XCTAssertFalse(isPaused)
    }

    // MARK: Dropping policies

    func testBufferingNewestCountsAndReportsWhatItDrops() async throws {
        var markers = client.receiver("marker").makeAsyncIterator()
        let reported = DropLog()
        var latest = client.receiver("tick", bufferingPolicy: .bufferingNewest(2), onDrop: { reported.add($0) }).makeAsyncIterator()
        for n in 0..<10 { socket.transmit("tick", .int(Int64(n))) }
        await sync(&markers, 1)
        XCTAssertFalse(isPaused, "a dropping stream paused reading")
        XCTAssertEqual(client.droppedStreamItems, 8)
        XCTAssertEqual(reported.values, Array(1...8))
        let first = await latest.next(), second = await latest.next()
        XCTAssertEqual([first??.intValue, second??.intValue], [8, 9])
    }

    func testBufferingOldestOnAChannelCountsWhatItDrops() async throws {
        var markers = client.receiver("marker").makeAsyncIterator()
        var oldest = client.channel("room", bufferingPolicy: .bufferingOldest(3)).makeAsyncIterator()
        for _ in 0..<500 where broker.subscriberCount(channel: "room") < 1 { try await Task.sleep(for: .milliseconds(10)) }
        for n in 0..<10 { broker.publish(channel: "room", data: .int(Int64(n))) }
        await sync(&markers, 1)
        XCTAssertEqual(client.droppedStreamItems, 7)
        var got: [Int64?] = []
        for _ in 0..<3 { got.append(await oldest.next()??.intValue) }
        XCTAssertEqual(got, [0, 1, 2])
    }

    func testADroppedProcedureRequestIsCountedAndAnsweredWithUnhandledRequestError() async throws {
        var markers = client.receiver("marker").makeAsyncIterator()
        let reported = DropLog()
        var requests = client.procedure("ask", bufferingPolicy: .bufferingNewest(1), onDrop: { reported.add($0) }).makeAsyncIterator()
        let socket = self.socket!
        let first = Task { try await socket.invoke("ask", 1, ackTimeout: .seconds(30)) }
        try await waitUntil { openRequests == 1 }
        let second = Task { try await socket.invoke("ask", 2, ackTimeout: .seconds(30)) }
        await sync(&markers, 1)
        do {
            _ = try await first.value
            XCTFail("the dropped request was answered")
        } catch let error as RemoteError {
            XCTAssertEqual(error.name, "UnhandledRequestError")
        }
        XCTAssertEqual(client.droppedStreamItems, 1)
        XCTAssertEqual(reported.values, [1])
        let next = await requests.next()
        let kept = try XCTUnwrap(next)
        XCTAssertEqual(kept.data, 2)
        try kept.respond("two")
        let answer = try await second.value
        XCTAssertEqual(answer, "two")
    }

    func testTheDefaultPolicyNeverDrops() async throws {
        var markers = client.receiver("marker").makeAsyncIterator()
        var ticks = client.receiver("tick").makeAsyncIterator()
        for n in 0..<100 { socket.transmit("tick", .int(Int64(n))) }
        await sync(&markers, 1)
        var got: [Int64?] = []
        for _ in 0..<100 { got.append(await ticks.next()??.intValue) }
        XCTAssertEqual(got, (0..<100).map { Int64($0) })
        XCTAssertEqual(client.droppedStreamItems, 0)
    }
}

/// The counts an `onDrop` closure was called with. `@unchecked Sendable`: guarded by `lock`.
private final class DropLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func add(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}
