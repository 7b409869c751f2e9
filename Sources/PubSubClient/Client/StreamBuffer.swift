import WireKit

/// The buffer behind a flow-controlled stream (`channel`, `receiver`, `procedure`, `events` with
/// the default policy): the router appends on the session queue, the one consumer takes in order.
/// It counts the items waiting unread and tells the driver when they go above
/// `StreamFlowControl.highWaterMark` (reading pauses) and when the consumer is back down to
/// `StreamFlowControl.lowWaterMark` (reading resumes).
///
/// One lock per item on each side, in code compiled with the element type known: `AsyncStream`'s
/// own buffer (generic code of the standard library, a lock and a shift of its waiter list per
/// item) cost more than the rest of a publication's delivery together.
///
/// `@unchecked Sendable`: every mutable property is guarded by `lock`; `token` is set once,
/// before the first item.
final class StreamBuffer<Element: Sendable>: @unchecked Sendable {
    private let lock = WireKitLock()
    private var items = UnreadQueue<Element>()
    /// The consumer, while it waits for an item.
    private var waiter: UnsafeContinuation<Element?, Never>?
    /// No more items will come: `finish()` (the rest is still read) or the consumer cancelled.
    private var finished = false
    private var terminated = false
    private var backlogged = false
    private weak var driver: SessionDriver?
    var token: UInt64 = 0

    init(driver: SessionDriver) {
        self.driver = driver
    }

    /// Adds an item (on the session queue): handed to a waiting consumer at once, else kept.
    func yield(_ item: Element) {
        lock.lock()
        if finished {
            lock.unlock()
            return
        }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: item)
            return
        }
        items.append(item)
        let crossed = items.count > StreamFlowControl.highWaterMark && !backlogged
        if crossed { backlogged = true }
        lock.unlock()
        if crossed { driver?.setBacklogged(token, true) }
    }

    /// No more items (an explicit unsubscribe): the consumer reads what is left, then nil.
    func finish() {
        lock.lock()
        finished = true
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
        terminate()
    }

    /// The consumer is gone (its task cancelled, or the stream dropped): drops what is left.
    func cancel() {
        lock.lock()
        finished = true
        items.removeAll()
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
        terminate()
    }

    /// The next item, waiting for one; nil once finished and read, or cancelled. One consumer.
    func next() async -> Element? {
        lock.lock()
        if let item = takeLocked() { return item }
        if finished {
            lock.unlock()
            return nil
        }
        lock.unlock()
        return await withUnsafeContinuation { continuation in
            lock.lock()
            if let item = takeLocked() {
                continuation.resume(returning: item)
            } else if finished {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    /// Takes the first unread item and unlocks; returns nil with the lock still held when there
    /// is none.
    private func takeLocked() -> Element?? {
        guard let item = items.takeFirst() else { return nil }
        let caughtUp = backlogged && items.count <= StreamFlowControl.lowWaterMark
        if caughtUp { backlogged = false }
        lock.unlock()
        if caughtUp, let driver {
            let token = self.token
            driver.queue.async { [weak driver] in driver?.setBacklogged(token, false) }
        }
        return .some(item)
    }

    /// Removes the stream's registration, once.
    private func terminate() {
        let first = lock.withLock { () -> Bool in
            defer { terminated = true }
            return !terminated
        }
        if first { driver?.unregister(token) }
    }
}

/// The consumer's end of a `StreamBuffer`: the one `AsyncStream(unfolding:)` of a flow-controlled
/// stream holds it, so when that stream and its iterators are gone, the buffer is cancelled and
/// the router registration removed (as `AsyncStream` does with its `onTermination`).
final class StreamBufferReader<Element: Sendable>: Sendable {
    let buffer: StreamBuffer<Element>

    init(_ buffer: StreamBuffer<Element>) {
        self.buffer = buffer
    }

    deinit { buffer.cancel() }

    func next() async -> Element? { await buffer.next() }
}
