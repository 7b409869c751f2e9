import Dispatch
import Foundation
import MonotonicTime
import XCTest
@testable import WireKit

#if canImport(Glibc)
import Glibc
#endif

/// The event loop's own promises: a socket on a bound queue is served by the loop, its handler
/// runs on the loop's thread inside the queue, the thread lives only while there is work, and
/// its timers fire on time however they are moved.
final class EventLoopTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(EventLoop.isSupported, "no event loop on this platform")
    }

    private func boundQueue(_ label: String) throws -> (DispatchQueue, EventLoop) {
        let queue = DispatchQueue(label: label)
        let loop = try XCTUnwrap(EventLoop.bind(to: queue, name: "test.loop"))
        return (queue, loop)
    }

    func testATransportOnABoundQueueReadsOnTheLoopsThreadInsideItsQueue() throws {
        let (queue, loop) = try boundQueue("EventLoopTests.read")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let server = try TCPEchoServer()
        defer { server.stop() }
        let client = TCPTransport(host: "127.0.0.1", port: server.port)
        let onLoopThread = LockedBox<[Bool]>([])
        let onQueue = LockedBox<[Bool]>([])
        let log = TransportEventLog()
        client.start(queue: queue) { event in
            if case .received = event {
                onLoopThread.mutate { $0.append(loop.isCurrentThread) }
                onQueue.mutate { $0.append(DispatchQueue.getSpecific(key: key) == 7) }
            }
            log.record(event)
        }
        wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 10)
        XCTAssertEqual(loop.registrationCount, 1)
        XCTAssertTrue(loop.isThreadRunning)
        for round in 0..<5 {
            let before = log.received.count
            queue.async { client.write([UInt8](repeating: UInt8(round), count: 100)) }
            wait(for: [log.expectation("echo \(round)") { $0.receivedCountUnlocked >= before + 100 }], timeout: 10)
        }
        // Each echo was read where the loop woke, on the transport's queue: no hand-off.
        XCTAssertFalse(onLoopThread.value.isEmpty)
        XCTAssertTrue(onLoopThread.value.allSatisfy { $0 }, "\(onLoopThread.value)")
        XCTAssertTrue(onQueue.value.allSatisfy { $0 })
        queue.sync { client.close() }
        wait(for: [log.expectation("closed") { $0.isClosedUnlocked }], timeout: 5)
        XCTAssertEqual(loop.registrationCount, 0)
        // With nothing left to watch, the thread ends.
        let deadline = Date().addingTimeInterval(5)
        while loop.isThreadRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertFalse(loop.isThreadRunning)
    }

    func testAQueueWithoutALoopUsesDispatchSources() throws {
        let queue = DispatchQueue(label: "EventLoopTests.plain")
        let server = try TCPEchoServer()
        defer { server.stop() }
        let client = TCPTransport(host: "127.0.0.1", port: server.port)
        let log = TransportEventLog()
        client.start(queue: queue) { log.record($0) }
        wait(for: [log.expectation("connected") { $0.eventsUnlocked.contains("connected") }], timeout: 10)
        queue.sync {
            XCTAssertNil(Mirror(reflecting: client).descendant("registration") as? EventLoopRegistration)
            XCTAssertNotNil(Mirror(reflecting: client).descendant("readSource") as? DispatchSourceRead)
            client.close()
        }
    }

    func testBindIfUnboundKeepsTheFirstLoop() throws {
        let queue = DispatchQueue(label: "EventLoopTests.rebind")
        let first = try XCTUnwrap(EventLoop.bindIfUnbound(to: queue, name: "a"))
        let second = try XCTUnwrap(EventLoop.bindIfUnbound(to: queue, name: "b"))
        XCTAssertTrue(first === second)
        let child = DispatchQueue(label: "EventLoopTests.child", target: queue)
        XCTAssertTrue(child.sync { EventLoop.current } === first, "a queue targeting a bound queue finds its loop")
    }

    // MARK: Timers

    private static func instant(after seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9))
    }

    /// Both paths: with a loop bound to the queue and with a Dispatch timer source.
    private func eachTimerPath(_ body: (DispatchQueue, EventLoop?) throws -> Void) throws {
        let (bound, loop) = try boundQueue("EventLoopTests.timers")
        try body(bound, loop)
        try body(DispatchQueue(label: "EventLoopTests.dispatchTimers"), nil)
    }

    /// A timer on `queue` (made there) that records when it fires, in nanoseconds after it was
    /// made, and runs `also` each time; scheduled `after` each of these seconds in turn.
    private func recordingTimer(
        on queue: DispatchQueue, after schedules: [Double], also: @escaping () -> Void = {}
    ) -> (QueueTimer, LockedBox<[UInt64]>) {
        let fired = LockedBox<[UInt64]>([])
        let start = DispatchTime.now().uptimeNanoseconds
        let timer = queue.sync {
            let timer = QueueTimer(queue: queue) {
                also()
                fired.mutate { $0.append(DispatchTime.now().uptimeNanoseconds - start) }
            }
            for seconds in schedules { timer.schedule(at: Self.instant(after: seconds)) }
            return timer
        }
        return (timer, fired)
    }

    func testATimerFiresOnceAtItsDeadlineOnItsQueue() throws {
        try eachTimerPath { queue, loop in
            let key = DispatchSpecificKey<Int>()
            queue.setSpecific(key: key, value: 1)
            let (timer, fired) = recordingTimer(on: queue, after: [0.05]) {
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), 1)
            }
            Thread.sleep(forTimeInterval: 0.3)
            XCTAssertEqual(fired.value.count, 1, "loop: \(loop != nil)")
            XCTAssertGreaterThanOrEqual(fired.value.first ?? 0, 50_000_000, "never early")
            if let loop { XCTAssertEqual(loop.scheduledTimerCount, 0) }
            queue.sync { timer.cancel() }
        }
    }

    func testMovingATimerLaterFiresItOnlyAtTheNewDeadline() throws {
        try eachTimerPath { queue, _ in
            let (timer, fired) = recordingTimer(on: queue, after: [0.05, 0.2])
            Thread.sleep(forTimeInterval: 0.12)
            XCTAssertEqual(fired.value.count, 0, "the first deadline was replaced")
            Thread.sleep(forTimeInterval: 0.3)
            XCTAssertEqual(fired.value.count, 1)
            XCTAssertGreaterThanOrEqual(fired.value.first ?? 0, 200_000_000)
            queue.sync { timer.cancel() }
        }
    }

    /// The loop sleeps until its earliest timer: one moved earlier, from outside the loop's
    /// thread, must wake it, or it would fire late.
    func testMovingATimerEarlierWhileTheLoopSleepsFiresItOnTime() throws {
        try eachTimerPath { queue, loop in
            let (timer, fired) = recordingTimer(on: queue, after: [10])
            Thread.sleep(forTimeInterval: 0.05)
            if let loop { XCTAssertTrue(loop.isThreadRunning) }
            queue.sync { timer.schedule(at: Self.instant(after: 0.05)) }
            Thread.sleep(forTimeInterval: 0.5)
            XCTAssertEqual(fired.value.count, 1, "loop: \(loop != nil)")
            XCTAssertLessThan(fired.value.first ?? .max, 2_000_000_000, "fired at the new deadline, not the old")
            queue.sync { timer.cancel() }
        }
    }

    func testACancelledOrUnscheduledTimerNeverFiresAndTheLoopsThreadEnds() throws {
        try eachTimerPath { queue, loop in
            let fired = LockedBox(0)
            let (cancelled, unscheduled) = queue.sync {
                let cancelled = QueueTimer(queue: queue) { fired.mutate { $0 += 1 } }
                cancelled.schedule(at: Self.instant(after: 0.05))
                cancelled.cancel()
                let unscheduled = QueueTimer(queue: queue) { fired.mutate { $0 += 1 } }
                unscheduled.schedule(at: Self.instant(after: 0.05))
                unscheduled.unschedule()
                return (cancelled, unscheduled)
            }
            Thread.sleep(forTimeInterval: 0.3)
            XCTAssertEqual(fired.value, 0)
            if let loop {
                XCTAssertEqual(loop.scheduledTimerCount, 0)
                XCTAssertFalse(loop.isThreadRunning, "no socket and no timer: no thread")
            }
            // A cancelled timer stays cancelled; an unscheduled one can be scheduled again.
            queue.sync {
                cancelled.schedule(at: Self.instant(after: 0.01))
                unscheduled.schedule(at: Self.instant(after: 0.01))
            }
            Thread.sleep(forTimeInterval: 0.3)
            XCTAssertEqual(fired.value, 1)
            queue.sync { unscheduled.cancel() }
        }
    }

    func testManyTimersFireInDeadlineOrder() throws {
        let (queue, loop) = try boundQueue("EventLoopTests.order")
        let order = LockedBox<[Int]>([])
        let offsets = [7, 3, 9, 1, 5, 8, 2, 6, 4, 0]
        let timers = queue.sync {
            offsets.map { offset in
                let timer = QueueTimer(queue: queue) { order.mutate { $0.append(offset) } }
                timer.schedule(at: Self.instant(after: 0.02 + Double(offset) * 0.01))
                return timer
            }
        }
        let deadline = Date().addingTimeInterval(5)
        while order.value.count < offsets.count, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(order.value, Array(0..<10))
        XCTAssertEqual(loop.scheduledTimerCount, 0)
        queue.sync { timers.forEach { $0.cancel() } }
    }
}
