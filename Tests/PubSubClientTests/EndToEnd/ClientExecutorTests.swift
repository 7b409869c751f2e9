import Foundation
import PubSubBroker
import XCTest
@testable import PubSubClient

/// `PubSubClient.executor` against PubSubBroker over real sockets: tasks preferring it run on the
/// client's queue and resume there from calls and streams; a read's answers resume their tasks
/// together; a task that keeps yielding does not hold the connection; streams keep their order,
/// flow control and cancellation; and the default face is unchanged beside it.
final class ClientExecutorTests: XCTestCase {
    private var broker: PubSubBroker!
    private var client: PubSubClient!

    override func setUp() async throws {
        broker = try await PubSubBroker.start(port: 0)
        broker.procedure("echo") { request in request.data }
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))
        configuration.autoReconnect = false
        client = PubSubClient(configuration: configuration)
        try await client.connect()
    }

    override func tearDown() async throws {
        await client.close()
        await broker.stop()
    }

    /// Runs `body` preferring the client's executor (skipped where Swift 6's runtime is missing).
    private func onExecutor<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { throw XCTSkip("needs macOS 15, iOS 18, tvOS 18 or watchOS 11") }
        // apple-runtime-check: guarded
        return try await withTaskExecutorPreference(client.executor, operation: body)
    }

    /// A task preferring the client's executor.
    private func taskOnExecutor<T: Sendable>(_ body: @escaping @Sendable () async -> T) throws -> Task<T, Never> {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { throw XCTSkip("needs macOS 15, iOS 18, tvOS 18 or watchOS 11") }
        // apple-runtime-check: guarded
        return Task(executorPreference: client.executor, operation: body)
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    func testATaskPreferringTheExecutorRunsAndResumesOnTheClientsQueue() async throws {
        let client = self.client!
        let onQueue: [Bool] = try await onExecutor {
            var seen = [client.driver.isOnQueue]
            for n in 0..<20 {
                let answer = try await client.invoke("echo", .int(Int64(n)))
                XCTAssertEqual(answer, .int(Int64(n)))
                seen.append(client.driver.isOnQueue)
            }
            return seen
        }
        XCTAssertEqual(onQueue, Array(repeating: true, count: 21))
        XCTAssertFalse(client.driver.isOnQueue, "back on the caller's executor")
    }

    func testPipelinedCallsOnTheExecutorAllCompleteWithTheirOwnAnswers() async throws {
        let client = self.client!
        let mismatches = try await onExecutor {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<100 {
                    group.addTask {
                        var wrong = 0
                        for round in 0..<20 {
                            let value = JSONValue.string("\(worker)/\(round)")
                            if try await client.invoke("echo", value) != value { wrong += 1 }
                            if !client.driver.isOnQueue { wrong += 1 }
                        }
                        return wrong
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(client.driver.read(\.pendingCallCount), 0)
    }

    func testATaskThatKeepsYieldingOnTheExecutorDoesNotHoldTheConnection() async throws {
        let client = self.client!
        let stop = Flag()
        let spinner = try taskOnExecutor {
            var turns = 0
            while !stop.isSet {
                await Task.yield()
                turns += 1
            }
            return turns
        }
        // Answers still arrive and other tasks on the same executor still run.
        for n in 0..<50 {
            let answer = try await client.invoke("echo", .int(Int64(n)))
            XCTAssertEqual(answer, .int(Int64(n)))
        }
        let onExecutor = try await onExecutor { try await client.invoke("echo", "x") }
        XCTAssertEqual(onExecutor, "x")
        stop.set()
        let turns = await spinner.value
        XCTAssertGreaterThan(turns, 0)
    }

    func testAChannelReadOnTheExecutorGetsEveryPublicationInOrderThroughFlowControl() async throws {
        let client = self.client!
        let count = 3 * StreamFlowControl.highWaterMark
        let publications = client.channel("flood")
        try await client.subscribe("flood")
        // Published by the broker in one go: the client reads far more than the high-water mark
        // before the consumer runs, so reading pauses and resumes on the way.
        let consumer = try taskOnExecutor {
            var received: [Int64] = []
            for await data in publications {
                received.append(data?.intValue ?? -1)
                if received.count == count { break }
            }
            return received
        }
        for n in 0..<count { broker.publish(channel: "flood", data: .int(Int64(n))) }
        let received = await consumer.value
        XCTAssertEqual(received, (0..<Int64(count)).map { $0 })
        try await waitUntil { !client.driver.isReadingPausedByStreams }
        XCTAssertFalse(client.driver.isReadingPausedByStreams)
    }

    func testCancellingAConsumerOnTheExecutorEndsItsStreamAndRemovesIt() async throws {
        let client = self.client!
        let before = client.driver.read { _ in client.router.consumerCount }
        let stream = client.receiver("tick")
        let consumer = try taskOnExecutor {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        try await waitUntil { client.driver.read { _ in client.router.consumerCount } == before + 1 }
        consumer.cancel()
        let count = await consumer.value
        XCTAssertEqual(count, 0)
        try await waitUntil { client.driver.read { _ in client.router.consumerCount } == before }
        XCTAssertEqual(client.driver.read { _ in client.router.consumerCount }, before)
    }

    func testDroppingAStreamUnreadRemovesItsRegistration() async throws {
        let client = self.client!
        let before = client.driver.read { _ in client.router.consumerCount }
        do {
            let stream = client.channel("dropped")
            XCTAssertEqual(client.driver.read { _ in client.router.consumerCount }, before + 1)
            _ = stream
        }
        try await waitUntil { client.driver.read { _ in client.router.consumerCount } == before }
        XCTAssertEqual(client.driver.read { _ in client.router.consumerCount }, before)
    }

    func testTheDefaultExecutorAndTheClientsExecutorShareOneConnection() async throws {
        let client = self.client!
        let preferring = try taskOnExecutor { try? await client.invoke("echo", "preferring") }
        let plain = try await client.invoke("echo", "plain")
        XCTAssertEqual(plain, "plain")
        let answer = await preferring.value
        XCTAssertEqual(answer, "preferring")
    }
}

/// A flag set from one task and read from another. `@unchecked Sendable`: guarded by `lock`.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
