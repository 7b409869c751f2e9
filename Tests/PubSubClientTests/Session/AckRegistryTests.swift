import XCTest
@testable import PubSubClient

final class AckRegistryTests: XCTestCase {
    private func call(_ registry: inout AckRegistry, deadline: Int64?, event: String = "e") -> PendingCall {
        let cid = registry.allocateCid()
        let entry = PendingCall(
            cid: cid, event: event, purpose: .user(CallID(rawValue: UInt64(cid))),
            deadline: deadline.map { MonotonicInstant(milliseconds: $0) })
        registry.register(entry)
        return entry
    }

    func testCidsStartAtOneAndIncrease() {
        var registry = AckRegistry()
        XCTAssertEqual((0..<5).map { _ in registry.allocateCid() }, [1, 2, 3, 4, 5])
    }

    func testResolveRemovesExactlyOnceAndIgnoresUnknownRids() {
        var registry = AckRegistry()
        let first = call(&registry, deadline: 100)
        let second = call(&registry, deadline: 200)
        XCTAssertNil(registry.resolve(rid: 99))
        XCTAssertEqual(registry.resolve(rid: second.cid), second)
        XCTAssertNil(registry.resolve(rid: second.cid), "a duplicate response finds nothing")
        XCTAssertEqual(registry.count, 1)
        XCTAssertEqual(registry.resolve(rid: first.cid), first)
        XCTAssertEqual(registry.count, 0)
        XCTAssertNil(registry.nextDeadline)
    }

    func testEntriesExpireOnTheirOwnDeadlinesEarliestFirst() {
        var registry = AckRegistry()
        let late = call(&registry, deadline: 300)
        let early = call(&registry, deadline: 100)
        let never = call(&registry, deadline: nil)
        XCTAssertEqual(registry.nextDeadline, MonotonicInstant(milliseconds: 100))
        XCTAssertEqual(registry.expire(now: MonotonicInstant(milliseconds: 99)), [])
        XCTAssertEqual(registry.expire(now: MonotonicInstant(milliseconds: 100)), [early])
        XCTAssertEqual(registry.nextDeadline, MonotonicInstant(milliseconds: 300))
        XCTAssertEqual(registry.expire(now: MonotonicInstant(milliseconds: 10_000)), [late])
        XCTAssertNil(registry.resolve(rid: late.cid), "a late response after the timeout is ignored")
        XCTAssertEqual(registry.count, 1)
        XCTAssertEqual(registry.removeAll(), [never])
    }

    func testRemoveAllReturnsEntriesInCidOrder() {
        var registry = AckRegistry()
        let calls = (0..<10).map { index in call(&registry, deadline: 1000 - Int64(index)) }
        XCTAssertEqual(registry.removeAll(), calls)
        XCTAssertEqual(registry.count, 0)
        XCTAssertEqual(registry.deadlineEntryCount, 0)
    }

    func testAMillionAnsweredCallsLeaveNoEntriesBehind() {
        var registry = AckRegistry()
        var maxHeap = 0
        for index in 0..<1_000_000 {
            // Varying timeouts so answered entries are often not at the heap top.
            let entry = call(&registry, deadline: Int64(index % 97) * 10 + 5_000)
            if index % 3 == 0 {
                let other = call(&registry, deadline: 20_000)
                XCTAssertNotNil(registry.resolve(rid: other.cid))
            }
            XCTAssertNotNil(registry.resolve(rid: entry.cid))
            maxHeap = max(maxHeap, registry.deadlineEntryCount)
        }
        XCTAssertEqual(registry.count, 0)
        XCTAssertLessThanOrEqual(maxHeap, 100, "stale deadlines must not accumulate")
        XCTAssertEqual(registry.nextCid, 1_333_335)
    }

    /// A long call at the top of the heap keeps answered calls behind it from being popped: the
    /// registry compacts the heap instead (`DeadlineHeap.rebuild`), and what is left still expires
    /// in deadline order.
    func testAnsweredCallsBehindALongCallAreCompacted() {
        var registry = AckRegistry()
        let long = call(&registry, deadline: 1_000)
        var waiting: [PendingCall] = []
        var maxHeap = 0
        for index in 0..<100_000 {
            let answered = call(&registry, deadline: 5_000 + Int64(index % 1_000))
            if index % 10_000 == 0 { waiting.append(call(&registry, deadline: 90_000 - Int64(index / 10_000))) }
            XCTAssertNotNil(registry.resolve(rid: answered.cid))
            maxHeap = max(maxHeap, registry.deadlineEntryCount)
        }
        XCTAssertEqual(registry.count, 1 + waiting.count)
        XCTAssertLessThanOrEqual(maxHeap, 2 * (1 + waiting.count) + 65, "stale deadlines behind a live top must be compacted")
        XCTAssertEqual(registry.nextDeadline, MonotonicInstant(milliseconds: 1_000))
        XCTAssertEqual(registry.expire(now: MonotonicInstant(milliseconds: 1_000)), [long])
        XCTAssertEqual(registry.expire(now: MonotonicInstant(milliseconds: 100_000)), waiting.reversed())
        XCTAssertEqual(registry.deadlineEntryCount, 0)
    }

    func testAMillionTimedOutCallsLeaveNoEntriesBehind() {
        var registry = AckRegistry()
        for index in 0..<1_000_000 {
            _ = call(&registry, deadline: Int64(index))
            XCTAssertEqual(registry.expire(now: MonotonicInstant(milliseconds: Int64(index))).count, 1)
        }
        XCTAssertEqual(registry.count, 0)
        XCTAssertEqual(registry.deadlineEntryCount, 0)
    }

    // MARK: Through the session

    func testInvokesGetIncreasingCidsAndCompleteInResponseOrder() {
        var harness = SessionHarness()
        harness.open()
        harness.sent = []
        let first = harness.session.invoke("slow", data: nil, now: harness.now)
        let second = harness.session.invoke("echo", data: "fast", now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.takeSent(), [#"{"event":"slow","cid":2}"#, #"{"event":"echo","data":"fast","cid":3}"#])
        harness.receive(#"{"rid":3,"data":"fast"}"#)
        harness.receive(#"{"rid":2,"data":{"ms":200}}"#)
        XCTAssertEqual(harness.completionOrder, [second, first])
        XCTAssertEqual(harness.completions[first], .success(["ms": 200]))
        XCTAssertEqual(harness.completions[second], .success("fast"))
        XCTAssertEqual(harness.session.pendingCallCount, 0)
    }

    func testPerCallTimeoutOverridesTheDefault() {
        var harness = SessionHarness()
        harness.open()
        let short = harness.session.invoke("a", data: nil, ackTimeout: .milliseconds(500), now: harness.now)
        let long = harness.session.invoke("b", data: nil, now: harness.now)
        harness.drain()
        harness.advance(499)
        XCTAssertNil(harness.completions[short])
        harness.advance(1)
        XCTAssertEqual(harness.completions[short], .failure(.timeout(event: "a")))
        XCTAssertEqual(PubSubError.timeout(event: "a").message, "Event response for a event timed out")
        harness.advance(9_499)
        XCTAssertNil(harness.completions[long])
        harness.advance(1)
        XCTAssertEqual(harness.completions[long], .failure(.timeout(event: "b")))
        harness.receive(#"{"rid":3,"data":"late"}"#)
        XCTAssertEqual(harness.completionOrder.count, 2, "a late answer completes nothing")
    }

    func testServerCloseFailsEveryInFlightCallExactlyOnceWithBadConnection() {
        var harness = SessionHarness()
        harness.open()
        let calls = (0..<3).map { harness.session.invoke("e\($0)", data: nil, now: harness.now) }
        harness.drain()
        harness.serverClose(code: 4321, reason: "asked")
        for (index, call) in calls.enumerated() {
            XCTAssertEqual(
                harness.completions[call],
                .failure(.badConnection(event: "e\(index)", kind: .disconnect, code: 4321, reason: "asked")))
        }
        XCTAssertEqual(harness.session.pendingCallCount, 0)
        harness.advance(60_000)
        XCTAssertEqual(harness.completionOrder.count, 3)
    }

    func testCidCounterIsNeverResetAcrossReconnects() {
        var harness = SessionHarness()
        harness.open()
        _ = harness.session.invoke("a", data: nil, now: harness.now)
        harness.drain()
        harness.serverClose(code: 1006)
        harness.sent = []
        harness.open()
        XCTAssertEqual(harness.sent.first, ##"{"event":"#handshake","data":{"authToken":null},"cid":3}"##)
    }

    func testTenThousandSessionCallsLeaveNoPendingEntries() {
        var harness = SessionHarness()
        harness.open()
        for _ in 0..<10_000 {
            _ = harness.session.invoke("echo", data: 1, now: harness.now)
            let cid = harness.session.nextCid - 1
            harness.session.transportReceived(text: #"{"rid":\#(cid),"data":1}"#, from: harness.transport!, now: harness.now)
            while harness.session.nextAction() != nil {}
        }
        XCTAssertEqual(harness.session.pendingCallCount, 0)
        XCTAssertEqual(harness.session.acks.deadlineEntryCount, 0)
    }

    func testCancelledCallsCompleteOnceAndIgnoreTheirLateAnswer() {
        var harness = SessionHarness()
        let queued = harness.session.invoke("q", data: nil, now: harness.now)
        harness.session.cancel(queued, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.completions[queued], .failure(.cancelled(event: "q")))
        XCTAssertEqual(harness.session.queuedCallCount, 0)
        harness.openTransport()
        harness.receive(#"{"rid":1,"data":{"id":"x","pingTimeout":20000,"isAuthenticated":false}}"#)
        harness.sent = []
        let sent = harness.session.invoke("s", data: nil, now: harness.now)
        harness.session.cancel(sent, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.completions[sent], .failure(.cancelled(event: "s")))
        harness.receive(#"{"rid":2,"data":1}"#)
        harness.session.cancel(sent, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.completionOrder.count, 2)
        XCTAssertEqual(harness.session.pendingCallCount, 0)
    }
}
