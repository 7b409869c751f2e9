import Foundation
import XCTest
@testable import PubSubClient
import TestSupport

/// Against a loopback listener that completes TCP connections and never answers the upgrade, a
/// connect attempt always ends with 4007, never with WireKit's own handshake timeout (1006).
final class ConnectTimeoutNetworkTests: XCTestCase {
    func testAServerThatNeverAnswersTheUpgradeAlwaysFailsTheConnectWith4007() async throws {
        let listener = try SilentTCPListener()
        defer { listener.stop() }
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: listener.port))
        configuration.connectTimeout = .milliseconds(300)
        configuration.autoReconnect = false
        for attempt in 1...5 {
            let client = PubSubClient(configuration: configuration)
            let events = client.events()
            let started = ContinuousClock.now
            do {
                _ = try await client.connect()
                XCTFail("attempt \(attempt): connected to a server that never answers")
            } catch {
                XCTAssertEqual(error as? PubSubError, .connectionFailed(code: 4007, reason: "Client connection establishment timed out"), "attempt \(attempt)")
            }
            let elapsed = ContinuousClock.now - started
            XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(300), "attempt \(attempt)")
            XCTAssertLessThan(elapsed, .seconds(5), "attempt \(attempt)")
            var aborts: [SessionEvent] = []
            for await event in events {
                if case .connectAbort = event { aborts.append(event) }
                if case .closed = event { break }
            }
            XCTAssertEqual(aborts, [.connectAbort(.init(code: 4007, reason: "Client connection establishment timed out"))], "attempt \(attempt)")
            await client.close()
        }
    }

    func testWireKitsOwnTimersRunOutAMarginAfterTheSessionsConnectTimeout() async throws {
        let listener = try SilentTCPListener()
        defer { listener.stop() }
        let queue = DispatchQueue(label: "ConnectTimeoutNetworkTests")
        let started = ContinuousClock.now
        let (closes, continuation) = AsyncStream<(Duration, TransportFailure?)>.makeStream()
        let transport = WireKitTransportFactory().open(
            url: "ws://127.0.0.1:\(listener.port)/socketcluster/", headers: [:], connectTimeout: .milliseconds(300), queue: queue
        ) { event in
            if case .closed(_, _, let error) = event { continuation.yield((ContinuousClock.now - started, error)) }
        }
        var iterator = closes.makeAsyncIterator()
        let closed = await iterator.next()
        XCTAssertGreaterThanOrEqual(closed?.0 ?? .zero, .milliseconds(300) + WireKitTransportFactory.timeoutMargin)
        XCTAssertEqual(closed?.1?.kind, .timedOut)
        withExtendedLifetime(transport) {}
    }
}

/// A loopback TCP listener that never accepts: the kernel completes each connection (up to the
/// backlog) and nothing is ever read or written, like a server or proxy that holds a connection.
private final class SilentTCPListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        descriptor = TestSocket.makeTCP()
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = self.descriptor
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func stop() { close(descriptor) }
}
