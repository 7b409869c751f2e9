/// The buffer behind `WebSocket.messages`: the connection appends on its queue, the one consumer
/// takes in order, waiting when it is empty. One lock per message on each side, in code written
/// for `WebSocketMessage`: the standard library's `AsyncStream` storage (generic code, looked up
/// and not specialised, and a shift of its waiter array per element) took more CPU than
/// everything else of a message's delivery to a task.
///
/// `@unchecked Sendable`: every mutable property is guarded by `lock`.
final class MessageBuffer: @unchecked Sendable {
    private let lock = WireKitLock()
    private var unread = UnreadQueue<WebSocketMessage>()
    /// The consumer, while it waits for a message.
    private var waiter: UnsafeContinuation<WebSocketMessage?, Never>?
    /// No more messages will come: `finish()` (the rest is still read) or `cancel()`.
    private var finished = false

    /// Adds a message (on the connection's queue): handed to a waiting consumer at once, else
    /// kept. Dropped once finished or cancelled.
    func yield(_ message: WebSocketMessage) {
        lock.lock()
        if finished {
            lock.unlock()
            return
        }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: message)
            return
        }
        unread.append(message)
        lock.unlock()
    }

    /// No more messages: the consumer reads what is left, then nil.
    func finish() {
        lock.lock()
        finished = true
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// The consumer's task was cancelled: what is left is dropped and the stream ends.
    func cancel() {
        lock.lock()
        finished = true
        unread.removeAll()
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// The next message, waiting for one; nil once finished and read. One consumer.
    func next() async -> WebSocketMessage? {
        lock.lock()
        if let message = unread.takeFirst() {
            lock.unlock()
            return message
        }
        if finished {
            lock.unlock()
            return nil
        }
        lock.unlock()
        return await withUnsafeContinuation { continuation in
            lock.lock()
            if let message = unread.takeFirst() {
                lock.unlock()
                continuation.resume(returning: message)
            } else if finished {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
