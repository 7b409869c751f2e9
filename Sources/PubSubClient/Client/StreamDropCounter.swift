import Foundation

/// Counts the items that streams with a dropping `bufferingPolicy` (`.bufferingNewest(n)`,
/// `.bufferingOldest(n)`) dropped, for one stream and for the whole client, so that nothing
/// accepted is lost without a trace. `@unchecked Sendable`: `count` is guarded by `lock`.
final class StreamDropCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// The client-wide counter this one also adds to, if any.
    private let total: StreamDropCounter?
    /// Called with this counter's new count after each drop (on the client's queue).
    private let onDrop: (@Sendable (Int) -> Void)?

    init(total: StreamDropCounter? = nil, onDrop: (@Sendable (Int) -> Void)? = nil) {
        self.total = total
        self.onDrop = onDrop
    }

    /// Items dropped so far.
    var value: Int { lock.withLock { count } }

    /// One item dropped.
    func record() {
        let now = lock.withLock { () -> Int in
            count += 1
            return count
        }
        total?.record()
        onDrop?(now)
    }
}
