/// The queue a sans-I/O core keeps its actions in until the driver drains them with
/// `next()` (the cores' `nextAction()`). The storage is reused, so steady-state draining
/// allocates nothing, and each action is moved out, not copied (a copy would retain every
/// reference the action holds, only for the queue's own copy to release them when it is cleared).
///
/// `@_spi(Cores) public` and `@inlinable`, not `package`: the client session and the broker core
/// drain one of these per action, from other modules, and a `package` generic is neither
/// inlined nor specialized across modules (its unspecialized entry points cost the client
/// 0.6 µs of CPU per pipelined invoke). The SPI keeps it out of what `import PubSubClient`
/// shows: only `@_spi(Cores) import MonotonicTime` sees it.
@_spi(Cores) public struct ActionQueue<Action: Sendable>: Sendable {
    @usableFromInline var actions: [Action?] = []
    /// Index of the next action to hand out.
    @usableFromInline var head = 0

    /// An empty queue.
    @inlinable public init() {}

    /// Makes room for `count` more actions (a fan-out knows its size).
    @inlinable public mutating func reserveCapacity(_ count: Int) { actions.reserveCapacity(actions.count + count) }

    /// Queues `action` after the ones not taken yet.
    @inlinable public mutating func append(_ action: Action) { actions.append(action) }

    /// The oldest action not taken yet; nil when all were.
    @inlinable public mutating func next() -> Action? {
        guard head < actions.count else {
            if head > 0 {
                actions.removeAll(keepingCapacity: true)
                head = 0
            }
            return nil
        }
        defer { head += 1 }
        return actions[head].take()
    }
}
