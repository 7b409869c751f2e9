/// The queue a sans-I/O core keeps its actions in until the driver drains them with
/// `next()` (the cores' `nextAction()`). The storage is reused, so steady-state draining
/// allocates nothing.
package struct ActionQueue<Action: Sendable>: Sendable {
    private var actions: [Action] = []
    /// Index of the next action to hand out.
    private var head = 0

    package init() {}

    /// Makes room for `count` more actions (a fan-out knows its size).
    package mutating func reserveCapacity(_ count: Int) { actions.reserveCapacity(actions.count + count) }

    /// Queues `action` after the ones not taken yet.
    package mutating func append(_ action: Action) { actions.append(action) }

    /// The oldest action not taken yet; nil when all were.
    package mutating func next() -> Action? {
        guard head < actions.count else {
            if head > 0 {
                actions.removeAll(keepingCapacity: true)
                head = 0
            }
            return nil
        }
        defer { head += 1 }
        return actions[head]
    }
}
