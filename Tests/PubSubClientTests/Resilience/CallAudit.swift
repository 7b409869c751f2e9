import Foundation
@testable import PubSubClient

/// The fate of every call a resilience test makes, checked against what the broker executed:
/// an acknowledged call ran exactly once, a failed one at most once and failed with a
/// `PubSubError`, and every call completed exactly once. Compact (two bytes per call) so that
/// a soak of hundreds of thousands of calls does not itself look like a leak.
/// `@unchecked Sendable`: guarded by `lock`.
final class CallAudit: @unchecked Sendable {
    private enum Outcome: UInt8 { case none, acknowledged, failed, completedTwice }

    private let lock = NSLock()
    /// Per caller, per sequence number - 1: how often the broker ran the call.
    private var executions: [[UInt8]]
    private var outcomes: [[Outcome]]
    private var untypedErrors: [String] = []
    private var unknownExecutions = 0
    private var results: [Int64: Result<JSONValue?, PubSubError>] = [:]

    /// Every execution in the order the broker ran them, when kept (small tests only).
    private var order: [Int64]?

    init(callers: Int, keepsOrder: Bool = false) {
        executions = Array(repeating: [], count: callers)
        outcomes = Array(repeating: [], count: callers)
        order = keepsOrder ? [] : nil
    }

    /// The payload identifying a call: caller in the high 32 bits, sequence (from 1) below.
    static func id(caller: Int, sequence: Int) -> Int64 { Int64(caller) << 32 | Int64(sequence) }

    /// Reserves the next sequence number of `caller`.
    func makeCall(caller: Int) -> Int {
        lock.withLock {
            executions[caller].append(0)
            outcomes[caller].append(.none)
            return outcomes[caller].count
        }
    }

    /// The broker ran the call `id` (its procedure calls this before answering).
    func executed(_ id: Int64) {
        let caller = Int(id >> 32), sequence = Int(id & 0xFFFF_FFFF)
        lock.withLock {
            guard executions.indices.contains(caller), executions[caller].indices.contains(sequence - 1) else {
                unknownExecutions += 1
                return
            }
            executions[caller][sequence - 1] &+= 1
            order?.append(id)
        }
    }

    /// The sequences of `caller`'s calls in the order the broker ran them (`keepsOrder` only).
    func executionOrder(caller: Int) -> [Int] {
        lock.withLock { (order ?? []).filter { Int($0 >> 32) == caller }.map { Int($0 & 0xFFFF_FFFF) } }
    }

    /// Records how the call completed.
    func completed(caller: Int, sequence: Int, _ result: Result<JSONValue?, any Error>) {
        lock.withLock {
            let old = outcomes[caller][sequence - 1]
            switch result {
            case .success: outcomes[caller][sequence - 1] = old == .none ? .acknowledged : .completedTwice
            case .failure(let error):
                outcomes[caller][sequence - 1] = old == .none ? .failed : .completedTwice
                if !(error is PubSubError) { untypedErrors.append("\(error)") }
            }
        }
    }

    /// Invokes the broker's `record` procedure with a new call of `caller` and records the outcome.
    @discardableResult
    func invoke(_ client: PubSubClient, caller: Int, ackTimeout: Duration? = nil) async -> Result<JSONValue?, any Error> {
        let sequence = makeCall(caller: caller)
        let result: Result<JSONValue?, any Error>
        do {
            result = .success(
                try await client.invoke(
                    "record", .int(Self.id(caller: caller, sequence: sequence)),
                    ackTimeout: ackTimeout))
        } catch {
            result = .failure(error)
        }
        completed(caller: caller, sequence: sequence, result)
        return result
    }

    /// Starts a call of `caller` to `procedure` (`record` or `slow`) on `client`'s session queue and returns its sequence
    /// and the connection state it was made in (not `.open`: it was queued). Its outcome is kept
    /// for `result(caller:sequence:)`. `padding` adds that many bytes to the request, so that it
    /// and its answer are large frames.
    func start(
        _ client: PubSubClient, caller: Int, procedure: String = "record", padding: Int = 0,
        ackTimeout: Duration? = nil
    ) -> (sequence: Int, madeWhile: ConnectionState) {
        let sequence = makeCall(caller: caller)
        let id = Self.id(caller: caller, sequence: sequence)
        let data: JSONValue = padding == 0 ? .int(id) : ["id": .int(id), "padding": .string(String(repeating: "x", count: padding))]
        var madeWhile = ConnectionState.closed
        client.driver.call(
            { session, now in
                madeWhile = session.state
                return session.invoke(procedure, data: data, ackTimeout: ackTimeout, now: now)
            },
            completion: { [self] result in
                lock.withLock { results[id] = result }
                completed(caller: caller, sequence: sequence, result.mapError { $0 })
            })
        return (sequence, madeWhile)
    }

    /// How call `sequence` of `caller`, made with `start`, completed (nil: not yet).
    func result(caller: Int, sequence: Int) -> Result<JSONValue?, PubSubError>? {
        lock.withLock { results[Self.id(caller: caller, sequence: sequence)] }
    }

    /// Calls made, acknowledged, failed, and failed although the broker ran them (allowed: a
    /// call cut in flight may or may not have reached the server).
    var counts: (made: Int, acknowledged: Int, failed: Int, failedButExecuted: Int) {
        lock.withLock {
            var made = 0, acknowledged = 0, failed = 0, failedButExecuted = 0
            for (caller, calls) in outcomes.enumerated() {
                made += calls.count
                for (index, outcome) in calls.enumerated() {
                    if outcome == .acknowledged { acknowledged += 1 }
                    if outcome == .failed {
                        failed += 1
                        if executions[caller][index] > 0 { failedButExecuted += 1 }
                    }
                }
            }
            return (made, acknowledged, failed, failedButExecuted)
        }
    }

    /// Bytes of storage the audit holds for its records (grows with the calls made).
    var storageBytes: Int {
        lock.withLock {
            executions.reduce(0) { $0 + $1.capacity } + outcomes.reduce(0) { $0 + $1.capacity * MemoryLayout<Outcome>.stride }
        }
    }

    /// How many times the broker ran call `sequence` of `caller`.
    func executionCount(caller: Int, sequence: Int) -> Int { lock.withLock { Int(executions[caller][sequence - 1]) } }

    /// Everything that breaks the guarantees, described (at most `limit` lines).
    func violations(limit: Int = 20) -> [String] {
        lock.withLock {
            var found: [String] = []
            for (caller, calls) in outcomes.enumerated() {
                for (index, outcome) in calls.enumerated() {
                    let runs = executions[caller][index]
                    let name = "call \(index + 1) of client \(caller)"
                    switch outcome {
                    case .none: found.append("\(name) never completed")
                    case .completedTwice: found.append("\(name) completed more than once")
                    case .acknowledged where runs != 1: found.append("\(name) was acknowledged but ran \(runs) times")
                    case .failed where runs > 1: found.append("\(name) failed but ran \(runs) times")
                    default: break
                    }
                }
            }
            found += untypedErrors.map { "a call failed with an untyped error: \($0)" }
            if unknownExecutions > 0 { found.append("\(unknownExecutions) executions of calls never made") }
            return Array(found.prefix(limit))
        }
    }
}
