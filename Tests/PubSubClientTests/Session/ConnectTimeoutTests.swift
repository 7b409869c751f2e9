import WireKit
import XCTest
@testable import PubSubClient

/// A connect attempt that runs out of time ends one way, 4007 "Client connection establishment
/// timed out", whether the session's `connectTimeout` fired first or a timer of the transport
/// (TCP connect, proxy, upgrade) measuring the same wait did.
final class ConnectTimeoutTests: XCTestCase {
    private let timedOut = "Client connection establishment timed out"

    /// Connects, lets 20 s pass, and ends the attempt with the session's timer or with `failure`
    /// reported by the transport at that same instant.
    private func attemptThatTimesOut(transportReports failure: TransportFailure?) -> SessionHarness {
        var harness = SessionHarness(configuration: SessionHarness.configuration(autoReconnect: true))
        let call = harness.session.connect(now: harness.now)
        harness.drain()
        XCTAssertNotNil(call)
        if let failure, let transport = harness.transport {
            harness.now = harness.now.advanced(by: 20_000)
            harness.session.transportClosed(transport, code: 1006, reason: failure.message, error: failure, now: harness.now)
            harness.drain()
        } else {
            harness.advance(20_000)
        }
        return harness
    }

    func testATransportTimeoutWhileConnectingEndsTheAttemptExactlyAsTheSessionsOwnTimeout() throws {
        let own = attemptThatTimesOut(transportReports: nil)
        XCTAssertEqual(own.closes.map(\.code), [4007])
        XCTAssertTrue(own.events.contains(.connectAbort(.init(code: 4007, reason: timedOut))), "\(own.events)")
        let failures: [WebSocketError] = [
            .timedOut(.handshake(limit: .seconds(20))),
            .transport(.connectTimedOut(host: "127.0.0.1", port: 8000, timeout: .seconds(20))),
            .transport(.proxy(.timedOut(.seconds(20)))),
            .transport(.proxy(.unreachable(host: "proxy", port: 3128, failure: .connectTimedOut(host: "proxy", port: 3128, timeout: .seconds(20))))),
        ]
        for failure in failures {
            let harness = attemptThatTimesOut(transportReports: TransportFailure(failure))
            XCTAssertEqual(harness.events, own.events, "\(failure)")
            XCTAssertEqual(harness.connects.values.map(\.result.failure), [.connectionFailed(code: 4007, reason: timedOut)], "\(failure)")
            XCTAssertEqual(harness.session.reconnectDeadline, own.session.reconnectDeadline, "\(failure)")
        }
    }

    func testOtherFailuresWhileConnectingKeepTheirCodeAndError() {
        var harness = SessionHarness()
        harness.session.connect(now: harness.now)
        harness.drain()
        let refused = TransportFailure(WebSocketError.transport(.connectionRefused(host: "127.0.0.1", port: 8000)))
        harness.session.transportClosed(harness.transport!, code: 1006, reason: refused.message, error: refused, now: harness.now)
        harness.drain()
        XCTAssertEqual(harness.connects.values.map(\.result.failure), [.transport(refused)])
        XCTAssertTrue(harness.events.contains(.connectAbort(.init(code: 1006, reason: refused.message, error: refused))))
    }

    func testATimeoutAfterTheWebSocketOpenedIsADisconnectNot4007() {
        var harness = SessionHarness()
        harness.open()
        let keepalive = TransportFailure(WebSocketError.timedOut(.keepalive(limit: .seconds(20))))
        harness.session.transportClosed(harness.transport!, code: 1006, reason: keepalive.message, error: keepalive, now: harness.now)
        harness.drain()
        XCTAssertTrue(harness.events.contains(.disconnected(.init(code: 1006, reason: keepalive.message, error: keepalive))), "\(harness.events)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
