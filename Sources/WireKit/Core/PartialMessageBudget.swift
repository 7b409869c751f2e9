/// Bytes that the unfinished (partly received) messages of many connections may hold together:
/// one budget shared by every connection of a `WebSocketServer`
/// (`WebSocketServerOptions.maxPartialMessageBytes`), or by any set of state machines it is
/// given to through `WebSocketConfiguration.partialMessageBudget`.
///
/// A connection takes from it only once a message it is receiving needs more than 64 KiB of
/// storage (reassembly buffer, binary payload or inflated permessage-deflate output): then all
/// of that storage counts, taken in steps that double, and all of it is given back when the
/// message is delivered or the connection ends. A message whose next step the budget cannot cover fails its connection with
/// 1009 and `WebSocketError.partialMessageBudgetExceeded`. Messages delivered within one read,
/// and messages of at most 64 KiB, never touch it.
///
/// Thread-safe: connections on different queues share it. `@unchecked Sendable`: `reserved` is
/// guarded by `lock`; `limit` is immutable.
package final class PartialMessageBudget: @unchecked Sendable, Hashable {
    /// The most bytes, together, that unfinished messages larger than 64 KiB may hold.
    package let limit: Int
    private let lock = WireKitLock()
    private var reserved = 0

    /// A budget of `limit` bytes (at least 0).
    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Bytes currently taken by unfinished messages.
    package var reservedBytes: Int { lock.withLock { reserved } }

    /// Takes `bytes` from the budget; false (and nothing taken) when fewer are left.
    func reserve(_ bytes: Int) -> Bool {
        lock.withLock {
            guard bytes <= limit - reserved else { return false }
            reserved += bytes
            return true
        }
    }

    /// Gives back `bytes` taken with `reserve`.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        lock.withLock { reserved = max(0, reserved - bytes) }
    }

    /// Budgets are compared by identity: two budgets of the same size are still two pools.
    package static func == (lhs: PartialMessageBudget, rhs: PartialMessageBudget) -> Bool { lhs === rhs }

    /// Hashes the identity.
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What one connection's message being received holds of a `PartialMessageBudget`: storage up
/// to `free` bytes costs nothing; beyond it, all of the message's storage is taken from the
/// budget before it is allocated. A value owned by the (sans-I/O) receiver; the budget itself is the shared part.
struct PartialMessageCharge: Sendable {
    /// Storage a message may hold without taking from the budget, in bytes.
    static let free = 64 << 10

    let budget: PartialMessageBudget?
    /// Bytes taken from the budget for the current message.
    private(set) var charged = 0

    init(budget: PartialMessageBudget?) {
        self.budget = budget
    }

    /// Storage the current message may hold without asking the budget again, in bytes.
    var allowance: Int { budget == nil ? .max : max(Self.free, charged) }

    /// Makes sure the current message may hold `bytes` of storage; false when the budget cannot
    /// cover it (nothing more is taken then).
    mutating func cover(_ bytes: Int) -> Bool {
        guard let budget, bytes > Self.free, bytes > charged else { return true }
        guard budget.reserve(bytes - charged) else { return false }
        charged = bytes
        return true
    }

    /// Gives back everything taken for the current message (it was delivered or abandoned).
    mutating func releaseAll() {
        guard charged > 0 else { return }
        budget?.release(charged)
        charged = 0
    }
}
