import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The serial queues that client connections and sessions run on when their user names no queue:
/// one per online core, handed out in turn, so many clients share a few threads (as swift-nio's
/// event-loop group does) and a client and its session can share one.
///
/// Serial queues without a target run on libdispatch's overcommitting root queues. The global
/// concurrent queues are avoided on purpose: on Linux the first block run there starts
/// libdispatch's worker-pool monitor, a timer that wakes the process once a second for as long as
/// it lives (Apple platforms have no such timer). A connected client that does nothing then sleeps
/// until its own deadlines or the server's next ping.
///
/// On Linux each has an `EventLoop` bound to it: the sockets of connections on the queue are read
/// on the loop's thread, inside the queue, with one thread wake-up per readable socket.
///
/// Work on these queues must not block: a blocked block delays every connection on the same queue.
package enum SharedQueues {
    private static let queues: [DispatchQueue] = {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return (0..<cores).map { index in
            let queue = DispatchQueue(label: "WireKit.shared.\(index)")
            // Sockets on this queue are read by a loop bound to it (Linux), without a hand-off.
            EventLoop.bind(to: queue, name: "WireKit.loop.\(index)")
            return queue
        }
    }()
    private static let lock = WireKitLock()
    nonisolated(unsafe) private static var turn: UInt = 0

    /// The next queue in turn.
    package static func next() -> DispatchQueue {
        let index = lock.withLock {
            turn &+= 1
            return turn
        }
        return queues[Int(index % UInt(queues.count))]
    }

    /// Serial queues for calls that block (host name lookups), apart from the shared ones: at
    /// most this many run at once, so a thousand connections opened together take a few
    /// threads, not one each.
    private static let blockingQueues: [DispatchQueue] = (0..<4).map { DispatchQueue(label: "WireKit.blocking.\($0)") }
    nonisolated(unsafe) private static var blockingTurn: UInt = 0

    /// Runs `work` away from every shared queue, on one of a few queues kept for calls that
    /// block, such as resolving a host name.
    package static func runBlocking(_ work: @escaping @Sendable () -> Void) {
        let index = lock.withLock {
            blockingRuns &+= 1
            blockingTurn &+= 1
            return blockingTurn
        }
        blockingQueues[Int(index % UInt(blockingQueues.count))].async(execute: work)
    }

    /// How many blocks `runBlocking` was given (tests check that an IP literal needs none).
    static var blockingRunCount: UInt { lock.withLock { blockingRuns } }
    nonisolated(unsafe) private static var blockingRuns: UInt = 0
}
