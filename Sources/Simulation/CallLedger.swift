@_spi(Cores) import MonotonicTime

/// Checks that every call completes exactly once: an answer, a typed error or a timeout, never
/// twice, and never not at all once the simulation has quiesced.
///
/// A call is named by its owner (a client index, or `CallLedger.broker` for the broker's own
/// invokes) and a number the owner hands out in increasing order (`CallID`s, invoke tokens), so a
/// completion of a number never handed out, or of one no longer open, is told apart without
/// remembering every completed call.
package struct CallLedger: Sendable {
    /// The owner index of the broker's server invokes.
    package static let broker = -1

    private struct Key: Hashable, Comparable {
        var owner: Int
        var number: UInt64
        static func < (a: Key, b: Key) -> Bool { (a.owner, a.number) < (b.owner, b.number) }
    }

    private struct Call {
        var what: String
        var madeAt: MonotonicInstant
    }

    private var open: [Key: Call] = [:]
    private var highest: [Int: UInt64] = [:]
    private var openByOwner: [Int: Int] = [:]
    /// Completions carried out before their caller got the call's number back (a call that
    /// completes at once, inside the input that made it).
    private var early: [Key: String] = [:]
    /// Calls made over the run.
    package private(set) var madeCount = 0
    /// Calls completed over the run.
    package private(set) var completedCount = 0

    package init() {}

    /// `owner` made call `number` (`what` names it in messages).
    package mutating func made(_ owner: Int, _ number: UInt64, what: String, at time: MonotonicInstant) -> Violation? {
        let key = Key(owner: owner, number: number)
        if let top = highest[owner], number <= top {
            return Violation(.callCompletesOnce, at: time, "\(Self.name(owner)) call #\(number) (\(what)) reuses a call number")
        }
        highest[owner] = number
        madeCount += 1
        if early.removeValue(forKey: key) != nil {
            completedCount += 1
            return nil
        }
        open[key] = Call(what: what, madeAt: time)
        openByOwner[owner, default: 0] += 1
        return nil
    }

    /// `owner`'s call `number` completed with `outcome` (for messages).
    package mutating func completed(_ owner: Int, _ number: UInt64, outcome: String, at time: MonotonicInstant) -> Violation? {
        let key = Key(owner: owner, number: number)
        guard open.removeValue(forKey: key) != nil else {
            if let top = highest[owner], number <= top {
                return Violation(.callCompletesOnce, at: time, "\(Self.name(owner)) call #\(number) completed a second time (\(outcome))")
            }
            guard early.updateValue(outcome, forKey: key) == nil else {
                return Violation(.callCompletesOnce, at: time, "\(Self.name(owner)) call #\(number) completed a second time (\(outcome))")
            }
            return nil
        }
        openByOwner[owner, default: 1] -= 1
        completedCount += 1
        return nil
    }

    /// Calls `owner` made that have not completed.
    package func openCount(_ owner: Int) -> Int { openByOwner[owner] ?? 0 }

    /// The numbers of `owner`'s open calls, in the order they were made.
    package func openCalls(of owner: Int) -> [UInt64] {
        open.keys.filter { $0.owner == owner }.map(\.number).sorted()
    }

    /// Forgets `owner`'s open calls: its process ended (a broker restart loses its invokes, and
    /// the new process numbers its calls from the start again).
    package mutating func abandon(_ owner: Int) {
        for key in open.keys where key.owner == owner { open[key] = nil }
        for key in early.keys where key.owner == owner { early[key] = nil }
        openByOwner[owner] = 0
        highest[owner] = nil
    }

    /// One violation per call still open, and per completion of a call never made: to be asked
    /// once the run has quiesced.
    package func unfinished(at time: MonotonicInstant) -> [Violation] {
        let neverMade = early.sorted { $0.key < $1.key }.map { key, outcome in
            Violation(.callCompletesOnce, at: time, "\(Self.name(key.owner)) completed call #\(key.number), which was never made (\(outcome))")
        }
        return neverMade
            + open.sorted { $0.key < $1.key }.map { key, call in
                Violation(
                    .callCompletesOnce, at: time,
                    "\(Self.name(key.owner)) call #\(key.number) (\(call.what)), made at \(Trace.format(call.madeAt)), never completed")
            }
    }

    private static func name(_ owner: Int) -> String { owner == broker ? "broker" : "client \(owner)" }
}
