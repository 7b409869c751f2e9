import Foundation
import PubSubBroker
import XCTest
@testable import PubSubClient
import TestSupport

/// Fault tests over real sockets. A fault-injecting TCP proxy between PubSubClient and
/// PubSubBroker cuts a connection inside a frame, stalls it, or refuses connections; the broker
/// is restarted on its port. Each test checks that the client reconnects and resubscribes, that
/// a call in flight at the fault fails once with `badConnection`, that calls made while the
/// client could not connect were queued and then ran exactly once, in order (or failed with a
/// typed error), and that no publication made by another client after the resubscription is
/// missed (`PublicationAudit`).
final class ResilienceTests: XCTestCase {
    /// Another client publishing numbered publications every 10 ms until cancelled.
    private func keepPublishing(_ publications: PublicationAudit, from client: PubSubClient) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                await publications.publish(from: client, as: 0)
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// A subscriber of "room" on `subscriberPort` (the proxy's, or the broker's) and a second
    /// client on `brokerPort` publishing numbered publications every 10 ms until cancelled.
    private struct Scene {
        let publications: PublicationAudit
        let subscriber: PubSubClient
        let publisher: PubSubClient
        let publishing: Task<Void, Never>

        func disconnect() {
            subscriber.disconnect()
            publisher.disconnect()
        }
    }

    private func startScene(subscriberPort: Int, brokerPort: Int) async throws -> Scene {
        let publications = PublicationAudit(channel: "room", publishers: 1)
        let subscriber = ResilienceSetup.client(port: subscriberPort, ackTimeout: .seconds(10))
        let publisher = ResilienceSetup.client(port: brokerPort)
        publications.watch(subscriber)
        try await subscriber.connect()
        try await subscriber.subscribe("room")
        try await publisher.connect()
        return Scene(
            publications: publications, subscriber: subscriber, publisher: publisher,
            publishing: keepPublishing(publications, from: publisher))
    }

    /// Waits for the `queued` calls (caller 0) to finish, checks that each succeeded and that
    /// the calls `counted` keeps ran once each, in the order they were made.
    private func assertQueuedCallsRanOnceInOrder(
        _ queued: [Int], calls: CallAudit,
        counted: (Int) -> Bool, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        try await eventually(timeout: .seconds(10)) { queued.allSatisfy { calls.result(caller: 0, sequence: $0) != nil } }
        for sequence in queued {
            XCTAssertEqual(
                calls.result(caller: 0, sequence: sequence),
                .success(.int(CallAudit.id(caller: 0, sequence: sequence))), file: file, line: line)
        }
        XCTAssertEqual(calls.executionOrder(caller: 0).filter(counted), queued, message, file: file, line: line)
    }

    /// Waits for the subscriber's resubscription (its `epoch`-th subscription), lets the
    /// publisher go on until 20 more publications arrived, then checks that every publication
    /// made after a resubscription arrived and that every call completed as the rules say.
    private func assertResubscribedAndNothingMissed(
        _ scene: Scene, epoch: Int, calls: CallAudit,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let publications = scene.publications, publishing = scene.publishing
        try await eventually(timeout: .seconds(10)) { publications.epochCount(subscriber: 0) >= epoch }
        let receivedBefore = publications.receivedCount(subscriber: 0)
        try await eventually(timeout: .seconds(10)) { publications.receivedCount(subscriber: 0) >= receivedBefore + 20 }
        publishing.cancel()
        await publishing.value
        do {
            try await eventually(timeout: .seconds(5)) { publications.outstanding == 0 }
        } catch {
            XCTFail("\(publications.outstanding) publications made after the resubscription never arrived", file: file, line: line)
        }
        XCTAssertEqual(publications.violations(), [], file: file, line: line)
        XCTAssertEqual(calls.violations(), [], file: file, line: line)
    }

    private func assertBadConnection(
        _ result: Result<JSONValue?, PubSubError>?, event: String, code: UInt16,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case .failure(let error) = result, error.code == .badConnection else {
            return XCTFail("expected badConnection, got \(String(describing: result))", file: file, line: line)
        }
        XCTAssertEqual(error.event, event, file: file, line: line)
        XCTAssertEqual(error.badConnectionKind, .disconnect, file: file, line: line)
        XCTAssertEqual(error.closeCode?.rawValue, code, file: file, line: line)
    }

    // MARK: Cut inside a frame

    func testCutInsideAFrameFromTheBrokerFailsTheCallOnceThenQueuedCallsRunOnceAndNothingIsMissed() async throws {
        try await cutInsideAFrame(.toClient)
    }

    func testCutInsideAFrameToTheBrokerFailsTheCallOnceThenQueuedCallsRunOnceAndNothingIsMissed() async throws {
        try await cutInsideAFrame(.toServer)
    }

    /// A 64 KiB call whose request (`.toServer`) or answer (`.toClient`) is cut after 1000 bytes.
    private func cutInsideAFrame(_ direction: FaultProxy.Direction) async throws {
        let calls = CallAudit(callers: 1, keepsOrder: true)
        let broker = try await ResilienceSetup.startBroker(calls: calls)
        let proxy = try FaultProxy(targetPort: broker.port)
        let scene = try await startScene(subscriberPort: proxy.port, brokerPort: broker.port)
        let subscriber = scene.subscriber

        // New connections are refused for a moment, so calls made after the cut must wait in
        // the queue (a call made while closed starts connecting at once, as in the JS client).
        proxy.setRefusing(true)
        proxy.cutInsideNextChunk(direction, minimumChunk: 4096, forwarded: 1000)
        let cut = calls.start(subscriber, caller: 0, padding: 64 << 10)
        XCTAssertEqual(cut.madeWhile, .open)
        try await eventually { calls.result(caller: 0, sequence: cut.sequence) != nil }
        XCTAssertEqual(proxy.midFrameCutCount, 1, "cut inside the 64 KiB frame")
        assertBadConnection(calls.result(caller: 0, sequence: cut.sequence), event: "record", code: 1006)
        // An incomplete request never runs; a complete one whose answer was cut did run.
        XCTAssertEqual(calls.executionCount(caller: 0, sequence: cut.sequence), direction == .toServer ? 0 : 1)

        let queued = (0..<5).map { _ in calls.start(subscriber, caller: 0) }
        XCTAssertEqual(queued.map(\.madeWhile).filter { $0 == .open }, [], "made while not connected")
        XCTAssertEqual(subscriber.driver.read(\.queuedCallCount), 5)
        try await eventually { proxy.refusedCount >= 1 }
        proxy.setRefusing(false)

        let cutSequence = cut.sequence
        try await assertQueuedCallsRanOnceInOrder(
            queued.map(\.sequence), calls: calls, counted: { $0 != cutSequence },
            "queued calls ran once, in order")
        try await assertResubscribedAndNothingMissed(scene, epoch: 2, calls: calls)
        XCTAssertEqual(broker.subscriberCount(channel: "room"), 1)
        scene.disconnect()
        await broker.stop()
    }

    // MARK: Half-open connection

    /// The proxy stops relaying in both directions but keeps every socket open (a dead network
    /// path: no FIN, no RST). The client notices within the server's ping timeout (600 ms) and
    /// closes with 4000; new attempts stall too until the path comes back.
    func testHalfOpenConnectionIsDetectedByThePingTimeoutAndReplacedWithoutLosingQueuedCalls() async throws {
        let calls = CallAudit(callers: 1, keepsOrder: true)
        let broker = try await ResilienceSetup.startBroker(
            calls: calls, pingInterval: .milliseconds(100),
            pingTimeout: .milliseconds(600))
        let proxy = try FaultProxy(targetPort: broker.port)
        let scene = try await startScene(subscriberPort: proxy.port, brokerPort: broker.port)
        let subscriber = scene.subscriber
        XCTAssertEqual(subscriber.handshake?.pingTimeout, .milliseconds(600))
        var events = subscriber.events().makeAsyncIterator()

        let stalledAt = ContinuousClock.now
        proxy.stall()
        let inFlight = (0..<3).map { _ in calls.start(subscriber, caller: 0) }
        XCTAssertEqual(inFlight.map(\.madeWhile), [.open, .open, .open], "sent into the dead connection")
        var detectedAfter: Duration?
        while detectedAfter == nil, let event = await events.next() {
            if case .disconnected(let close) = event {
                XCTAssertEqual(close.code, 4000, "closed by the client's ping timeout")
                detectedAfter = ContinuousClock.now - stalledAt
            }
        }
        let elapsed = try XCTUnwrap(detectedAfter)
        XCTAssertLessThan(elapsed, .milliseconds(1500), "noticed within the ping timeout (600 ms)")
        for call in inFlight {
            assertBadConnection(calls.result(caller: 0, sequence: call.sequence), event: "record", code: 4000)
        }

        // The network is still down: new attempts hang (connect timeout, 4007) and calls queue.
        let queued = (0..<5).map { _ in calls.start(subscriber, caller: 0) }
        XCTAssertEqual(queued.map(\.madeWhile).filter { $0 == .open }, [], "made while not connected")
        try await Task.sleep(for: .milliseconds(1500))
        XCTAssertFalse(subscriber.isConnected)
        XCTAssertEqual(subscriber.driver.read(\.queuedCallCount), 5)
        proxy.resume()

        let inFlightCount = inFlight.count
        try await assertQueuedCallsRanOnceInOrder(
            queued.map(\.sequence), calls: calls, counted: { $0 > inFlightCount },
            "queued calls ran once, in order")
        try await assertResubscribedAndNothingMissed(scene, epoch: 2, calls: calls)
        try await eventually { broker.subscriberCount(channel: "room") == 1 }
        scene.disconnect()
        await broker.stop()
    }

    // MARK: Broker restart

    func testBrokerRestartedOnTheSamePortGetsTheQueuedCallsOnceAndTheSubscriptionBack() async throws {
        let calls = CallAudit(callers: 1, keepsOrder: true)
        let first = try await ResilienceSetup.startBroker(calls: calls)
        let port = first.port
        let scene = try await startScene(subscriberPort: port, brokerPort: port)
        let subscriber = scene.subscriber
        let messages = Counter()
        let reader = Task { for await message in subscriber.channel("room") { messages.append(message) } }

        let inFlight = calls.start(subscriber, caller: 0, procedure: "slow")
        try await eventually { subscriber.driver.read(\.pendingCallCount) == 1 }
        await first.stop()
        try await eventually { calls.result(caller: 0, sequence: inFlight.sequence) != nil }
        assertBadConnection(calls.result(caller: 0, sequence: inFlight.sequence), event: "slow", code: 1001)

        // Nothing listens on the port: attempts are refused and calls queue.
        let queued = (0..<5).map { _ in calls.start(subscriber, caller: 0) }
        XCTAssertEqual(queued.map(\.madeWhile).filter { $0 == .open }, [], "made while not connected")
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(subscriber.driver.read(\.queuedCallCount), 5)
        let second = try await ResilienceSetup.restartBroker(port: port, calls: calls)

        let inFlightSequence = inFlight.sequence
        try await assertQueuedCallsRanOnceInOrder(
            queued.map(\.sequence), calls: calls, counted: { $0 != inFlightSequence },
            "queued calls ran once, in order, on the new broker")
        try await assertResubscribedAndNothingMissed(scene, epoch: 2, calls: calls)
        XCTAssertEqual(second.subscriberCount(channel: "room"), 1)
        second.publish(channel: "room", data: "from the new broker")
        try await eventually { messages.values.contains("from the new broker") }
        reader.cancel()
        scene.disconnect()
        await second.stop()
    }

    // MARK: Connections refused

    /// The connection is cut and new ones are refused (accepted and closed at once) for 1.5 s.
    func testConnectionsRefusedForAWhileQueueCallsInOrderAndExpireTheOverdueOne() async throws {
        let calls = CallAudit(callers: 1, keepsOrder: true)
        let broker = try await ResilienceSetup.startBroker(calls: calls)
        let proxy = try FaultProxy(targetPort: broker.port)
        let scene = try await startScene(subscriberPort: proxy.port, brokerPort: broker.port)
        let subscriber = scene.subscriber

        let inFlight = calls.start(subscriber, caller: 0, procedure: "slow")
        try await eventually { subscriber.driver.read(\.pendingCallCount) == 1 }
        proxy.setRefusing(true)
        proxy.cutAll()
        try await eventually { calls.result(caller: 0, sequence: inFlight.sequence) != nil }
        assertBadConnection(calls.result(caller: 0, sequence: inFlight.sequence), event: "slow", code: 1006)

        // Calls made over 1.5 s of refusals; one of them may only wait 300 ms.
        var queued: [Int] = []
        var overdue: Int?
        for round in 0..<5 {
            let call = calls.start(subscriber, caller: 0)
            XCTAssertNotEqual(call.madeWhile, .open)
            queued.append(call.sequence)
            if round == 2 { overdue = calls.start(subscriber, caller: 0, ackTimeout: .milliseconds(300)).sequence }
            try await Task.sleep(for: .milliseconds(300))
        }
        let expired = try XCTUnwrap(overdue)
        XCTAssertEqual(
            calls.result(caller: 0, sequence: expired), .failure(.timeout(event: "record")),
            "a queued call past its ack timeout fails with a timeout")
        XCTAssertFalse(subscriber.isConnected)
        XCTAssertEqual(subscriber.driver.read(\.queuedCallCount), 5)
        XCTAssertGreaterThanOrEqual(proxy.refusedCount, 3, "several attempts were refused")
        proxy.setRefusing(false)

        let inFlightSequence = inFlight.sequence
        try await assertQueuedCallsRanOnceInOrder(
            queued, calls: calls, counted: { $0 != inFlightSequence },
            "queued calls ran once, in order; the expired one never ran")
        try await assertResubscribedAndNothingMissed(scene, epoch: 2, calls: calls)
        XCTAssertEqual(broker.subscriberCount(channel: "room"), 1)
        scene.disconnect()
        await broker.stop()
    }

    /// A peer that accepts and closes at once fails each connect promptly, with the default
    /// 20 s connect timeout: the close is never missed (WireKit once lost it about once in 50).
    func testEveryConnectionClosedAtOnceFailsTheConnectPromptly() async throws {
        let proxy = try FaultProxy(targetPort: 1)
        proxy.setRefusing(true)
        for round in 0..<100 {
            let client = PubSubClient(
                configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: proxy.port))) {
                    $0.autoReconnect = false
                })
            let started = ContinuousClock.now
            do {
                try await client.connect()
                XCTFail("round \(round): connected through a refusing proxy")
            } catch {
                XCTAssertTrue(error is PubSubError, "typed: \(error)")
            }
            let took = ContinuousClock.now - started
            XCTAssertLessThan(took, .seconds(2), "round \(round): the close was noticed at once")
            if took >= .seconds(2) { break }
        }
        XCTAssertEqual(proxy.refusedCount, 100)
    }
}
