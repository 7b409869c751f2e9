import Dispatch
import Foundation
import XCTest
@testable import PubSubBroker
@testable import PubSubClient
import TestSupport

/// `ScClient` with its callbacks on the main queue (its default): a main queue that falls more
/// than 256 callbacks behind pauses reading the socket instead of queueing without bound; it
/// resumes once at most 64 wait, and every callback still runs, in order.
final class MainQueueBacklogTests: XCTestCase {
    func testABusyMainQueuePausesReadingAndEveryCallbackRunsInOrderAfterwards() async throws {
        // Off the main actor: the test blocks the main queue while it checks.
        let check = Task.detached(operation: busyMainQueue)
        try await check.value
    }
}

/// The test's body, off the main actor.
@Sendable private func busyMainQueue() async throws {
    let broker = try await PubSubBroker.start(port: 0)
    let client = ScClient(
        configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
            $0.autoReconnect = false
        },
        callbackQueue: .main)
    client.connect()
    for _ in 0..<500 where !client.isConnected() { try await Task.sleep(for: .milliseconds(10)) }
    XCTAssertTrue(client.isConnected())
    for _ in 0..<500 where broker.sockets.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    let socket = try XCTUnwrap(broker.sockets.first)
    let got = Received()
    client.on(eventName: "tick") { _, data in got.add(Int(data?.intValue ?? -1)) }
    let driver = client.driver

    // The main queue is busy until `release` is signalled.
    let release = DispatchSemaphore(value: 0)
    let busy = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
        busy.signal()
        release.wait()
    }
    busy.wait()
    // Whatever fails below, the main queue is freed (the test method resumes on it).
    var released = false
    defer { if !released { release.signal() } }
    let high = StreamFlowControl.highWaterMark
    // At the bound: 256 callbacks wait and the socket is still read.
    for n in 0..<high { socket.transmit("tick", .int(Int64(n))) }
    // A request with no handler is answered by the session itself, after everything sent
    // before it was read.
    do {
        _ = try await socket.invoke("probe", nil, ackTimeout: .seconds(5))
        XCTFail("a request without a handler was answered with data")
    } catch let error as RemoteError {
        XCTAssertEqual(error.name, "UnhandledRequestError")
    } catch {
        let paused = await driver.readingPaused()
        XCTFail("the probe failed: \(error); paused \(paused)")
    }
    let pausedAtTheBound = await driver.readingPaused()
    XCTAssertFalse(pausedAtTheBound, "paused with \(high) callbacks waiting")
    // Above it: reading pauses.
    for n in high..<(high + 100) { socket.transmit("tick", .int(Int64(n))) }
    for _ in 0..<500 where !(await driver.readingPaused()) { try await Task.sleep(for: .milliseconds(10)) }
    let pausedAbove = await driver.readingPaused()
    XCTAssertTrue(pausedAbove, "\(high + 100) callbacks waiting for the main queue and the socket is still read")
    XCTAssertEqual(got.values.count, 0, "a callback ran while the main queue was busy")

    release.signal()
    released = true
    for _ in 0..<500 where got.values.count < high + 100 { try await Task.sleep(for: .milliseconds(10)) }
    XCTAssertEqual(got.values, Array(0..<(high + 100)))
    for _ in 0..<500 where await driver.readingPaused() { try await Task.sleep(for: .milliseconds(10)) }
    let pausedAfter = await driver.readingPaused()
    XCTAssertFalse(pausedAfter, "still paused after the main queue caught up")
    client.disconnect()
    await broker.stop()
}

extension SessionDriver {
    /// Whether streams or callbacks hold reading paused, asked without blocking a thread: with
    /// the main thread blocked, a `queue.sync` from the cooperative pool could leave no thread
    /// to run the session queue on a two-core machine.
    func readingPaused() async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.isReadingPausedByStreams) }
        }
    }
}

/// What the callbacks received. `@unchecked Sendable`: guarded by `lock`.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func add(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}
