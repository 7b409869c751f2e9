import Foundation
import PubSubBroker
import TestSupport
import XCTest
@testable import PubSubClient

/// What a client logs through `SessionConfiguration.logSink`, against PubSubBroker or a closed
/// port over real loopback sockets: connection attempts and their outcome, reconnect decisions
/// with their delay and the close that caused them, handshake rejections, the outbound queue's
/// limit, and WireKit's records through the same sink.
final class SessionLogTests: XCTestCase {
    private func closedPort() async throws -> Int {
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0)
        let port = server.port
        await server.stop()
        return port
    }

    /// Fast back-off without jitter, so a reconnect comes within the test's time.
    private static let quickRetries = ReconnectPolicy(initialDelay: .milliseconds(50), randomness: .zero, maxDelay: .seconds(1))

    /// The first `.reconnectScheduled` of `events`.
    private func firstReconnect(_ events: AsyncStream<SessionEvent>) async -> (delay: Int64, attempt: Int)? {
        for await event in events {
            if case .reconnectScheduled(let retry) = event { return (retry.delay.wholeMilliseconds, retry.attempt) }
        }
        return nil
    }

    func testARefusedAttemptIsLoggedAndTheReconnectDecisionCarriesItsDelayAndCode() async throws {
        let port = try await closedPort()
        let capture = LogCapture()
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: port))) {
                $0.reconnectPolicy = Self.quickRetries
                $0.reconnectWhenNetworkReturns = false
                $0.logSink = capture.sink()
            })
        let events = client.events()
        do {
            _ = try await client.connect()
            XCTFail("nothing listens on \(port)")
        } catch {}
        let decided = await firstReconnect(events)
        let reconnecting = await capture.first(.session, "reconnecting")
        client.disconnect()
        let scheduled = try XCTUnwrap(decided)
        XCTAssertEqual(reconnecting?.level, .info, capture.transcript)
        XCTAssertEqual(reconnecting?.metadata["delay_ms"], String(scheduled.delay))
        XCTAssertEqual(reconnecting?.metadata["attempt"], String(scheduled.attempt))
        XCTAssertEqual(reconnecting?.metadata["code"], "1006")
        XCTAssertTrue(reconnecting?.metadata["error"]?.contains("refused") ?? false, capture.transcript)
        XCTAssertEqual(reconnecting?.metadata["server"], "127.0.0.1:\(port)")
        // The attempt and its outcome, in the session's words and in WireKit's (same sink).
        let connecting = await capture.first(.session, "connecting")
        let failed = await capture.first(.session, "connection attempt failed")
        let refused = await capture.first(.transport, "connection refused")
        XCTAssertEqual(connecting?.metadata["attempt"], "0", capture.transcript)
        XCTAssertEqual(failed?.metadata["code"], "1006", capture.transcript)
        XCTAssertEqual(refused?.metadata["port"], String(port), capture.transcript)
    }

    func testADisconnectByTheBrokerIsLoggedAndTheReconnectNamesItsCloseCode() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.procedure("disconnectMe") { request in
            let socket = request.socket
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { socket.disconnect(code: 4400, reason: "go away") }
            return nil
        }
        let capture = LogCapture()
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.reconnectPolicy = Self.quickRetries
                $0.reconnectWhenNetworkReturns = false
                $0.logSink = capture.sink()
            })
        let events = client.events()
        let info = try await client.connect()
        let connected = await capture.first(.session, "connected")
        XCTAssertEqual(connected?.metadata["socket"], info.id, capture.transcript)
        _ = try await client.invoke("disconnectMe")
        let decided = await firstReconnect(events)
        let disconnected = await capture.first(.session, "disconnected")
        let reconnecting = await capture.first(.session, "reconnecting")
        XCTAssertEqual(disconnected?.level, .warning, capture.transcript)
        XCTAssertEqual(disconnected?.metadata["code"], "4400")
        XCTAssertEqual(disconnected?.metadata["reason"], "go away")
        XCTAssertEqual(disconnected?.metadata["socket"], info.id)
        XCTAssertEqual(reconnecting?.metadata["code"], "4400", capture.transcript)
        XCTAssertEqual(reconnecting?.metadata["reason"], "go away")
        XCTAssertEqual(reconnecting?.metadata["delay_ms"], decided.map { String($0.delay) })
        await client.close()
        await broker.stop()
    }

    func testAHandshakeRejectionIsLoggedWithTheCloseCodeAndTheBrokersError() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.authorizeHandshake { _ in throw BrokerHandshakeRejection(code: 4403, reason: "no entry") }
        let capture = LogCapture()
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))) {
                $0.autoReconnect = false
                $0.logSink = capture.sink()
            })
        do {
            _ = try await client.connect()
            XCTFail("the broker refuses every handshake")
        } catch {}
        // The client closes a rejected handshake with 4003, as the JS client does.
        let rejected = await capture.first(.session, "handshake rejected")
        XCTAssertEqual(rejected?.level, .warning, capture.transcript)
        XCTAssertEqual(rejected?.metadata["code"], String(SocketClusterCloseCode.handshakeFailed.rawValue))
        XCTAssertTrue(rejected?.metadata["error"]?.contains("no entry") ?? false, capture.transcript)
        await broker.stop()
    }

    func testAFullOutboundQueueIsLoggedWithItsLimits() async throws {
        let port = try await closedPort()
        let capture = LogCapture()
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: port))) {
                $0.reconnectPolicy = ReconnectPolicy(initialDelay: .seconds(60))
                $0.maxQueuedMessages = 2
                $0.reconnectWhenNetworkReturns = false
                $0.logSink = capture.sink()
            })
        do { _ = try await client.connect() } catch {}
        // Not connected: transmits wait in the outbound queue until the next connection.
        var refusal: PubSubError?
        for n in 0..<3 {
            do { try client.transmit("note", .int(Int64(n))) } catch { refusal = error }
        }
        guard case .outboundQueueFull? = refusal else { return XCTFail("got \(String(describing: refusal))") }
        let full = await capture.first(.session, "outbound queue full")
        XCTAssertEqual(full?.level, .notice, capture.transcript)
        XCTAssertEqual(full?.metadata["event"], "note")
        XCTAssertEqual(full?.metadata["max_messages"], "2")
        client.disconnect()
    }

    func testNoSinkByDefault() {
        let configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: 1))
        for level in LogLevel.allCases { XCTAssertFalse(configuration.logSink.isEnabled(level)) }
        // The client's WebSocket connections inherit the session's sink unless they have their own.
        let own = LogCapture().sink()
        XCTAssertTrue(
            WebSocketOptions().inheritingLogSink(
                of: configured(SessionConfiguration(address: ServerAddress(hostname: "h"))) {
                    $0.logSink = own
                }
            ).logSink.isEnabled(.error))
        XCTAssertFalse(WebSocketOptions().inheritingLogSink(of: configuration).logSink.isEnabled(.error))
    }
}
