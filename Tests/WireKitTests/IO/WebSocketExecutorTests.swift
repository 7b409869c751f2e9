import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// `WebSocket.executor` over loopback TCP: a task preferring it runs on the socket's queue,
/// sends without a hop, resumes from `messages` on that queue with every message in order, a
/// close reached while it waits ends its loop, and a task that keeps yielding there does not hold
/// the socket.
final class WebSocketExecutorTests: XCTestCase {
    private func makeEchoServer() throws -> WebSocketServer {
        try WebSocketServer.start(host: "127.0.0.1", port: 0, options: WebSocketServerOptions()) { connection in
            connection.onText = { [weak connection] text in try? connection?.write(text: text) }
        }
    }

    /// Runs `body` preferring `socket`'s executor (skipped where Swift 6's runtime is missing).
    private func onExecutor<T: Sendable>(of socket: WebSocket, _ body: () async throws -> T) async throws -> T {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { throw XCTSkip("needs macOS 15, iOS 18, tvOS 18 or watchOS 11") }
        // apple-runtime-check: guarded
        return try await withTaskExecutorPreference(socket.executor, operation: body)
    }

    private func taskOnExecutor<T: Sendable>(of socket: WebSocket, _ body: @escaping @Sendable () async -> T) throws -> Task<T, Never> {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { throw XCTSkip("needs macOS 15, iOS 18, tvOS 18 or watchOS 11") }
        // apple-runtime-check: guarded
        return Task(executorPreference: socket.executor, operation: body)
    }

    func testARequestLoopOnTheExecutorRunsOnTheSocketsQueueAndGetsEveryEchoInOrder() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        let (echoes, onQueue) = try await onExecutor(of: client) {
            var iterator = client.messages.makeAsyncIterator()
            var echoes: [String] = []
            var onQueue = client.connection.isOnQueue
            for n in 0..<200 {
                try await client.send(text: "m\(n)")
                guard case .text(let text)? = await iterator.next() else { break }
                echoes.append(text)
                onQueue = onQueue && client.connection.isOnQueue
            }
            return (echoes, onQueue)
        }
        XCTAssertEqual(echoes, (0..<200).map { "m\($0)" })
        XCTAssertTrue(onQueue, "the task left the socket's queue")
        XCTAssertFalse(client.connection.isOnQueue)
        _ = await client.close()
        await server.stop()
    }

    func testPipelinedSendsAndAConsumerOnTheExecutorKeepOrder() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        let count = 2_000
        let consumer = try taskOnExecutor(of: client) {
            var received: [String] = []
            for await message in client.messages {
                if case .text(let text) = message { received.append(text) }
                if received.count == count { break }
            }
            return received
        }
        try await onExecutor(of: client) {
            for n in 0..<count { try await client.send(text: "p\(n)") }
        }
        let received = await consumer.value
        XCTAssertEqual(received, (0..<count).map { "p\($0)" })
        _ = await client.close()
        await server.stop()
    }

    func testAConsumerWaitingOnTheExecutorEndsWhenTheSocketCloses() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        let consumer = try taskOnExecutor(of: client) {
            var count = 0
            for await _ in client.messages { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(50))
        let info = await client.close(code: .normalClosure, reason: "bye")
        XCTAssertTrue(info.wasClean)
        let count = await consumer.value
        XCTAssertEqual(count, 0)
        await server.stop()
    }

    func testCancellingTheTaskThatReadsMessagesEndsItsLoopOnEitherExecutor() async throws {
        let server = try makeEchoServer()
        for onExecutor in [false, true] {
            let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
            try await client.connect()
            let gotOne = StopFlag()
            let body: @Sendable () async -> Int = {
                var count = 0
                for await _ in client.messages {
                    count += 1
                    gotOne.set()
                }
                return count
            }
            let reader = onExecutor ? try taskOnExecutor(of: client, body) : Task(operation: body)
            try await client.send(text: "one")
            for _ in 0..<1_000 where !gotOne.isSet { try await Task.sleep(for: .milliseconds(5)) }
            XCTAssertTrue(gotOne.isSet)
            // Waiting for the next message now: cancelling its task ends the loop.
            reader.cancel()
            let count = await reader.value
            XCTAssertEqual(count, 1, "on the executor: \(onExecutor)")
            XCTAssertNil(client.closeInfo, "cancelling the reader leaves the socket open")
            _ = await client.close()
        }
        await server.stop()
    }

    func testATaskThatKeepsYieldingOnTheExecutorDoesNotHoldTheSocket() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        let stop = StopFlag()
        let spinner = try taskOnExecutor(of: client) {
            var turns = 0
            while !stop.isSet {
                await Task.yield()
                turns += 1
            }
            return turns
        }
        let echo = try await onExecutor(of: client) {
            var iterator = client.messages.makeAsyncIterator()
            try await client.send(text: "through")
            return await iterator.next()
        }
        XCTAssertEqual(echo, .text("through"))
        stop.set()
        let turns = await spinner.value
        XCTAssertGreaterThan(turns, 0)
        _ = await client.close()
        await server.stop()
    }
}

/// Set from one task, read from another. `@unchecked Sendable`: guarded by `lock`.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
