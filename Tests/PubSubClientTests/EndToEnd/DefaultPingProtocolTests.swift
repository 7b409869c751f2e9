import Foundation
import PubSubBroker
import PubSubClient
import XCTest
import TestSupport

/// A client with the default ping protocol stays connected to servers of either protocol.
final class DefaultPingProtocolTests: XCTestCase {
    /// What the client wrote and how its connections ended, from its own callbacks.
    private final class Observation: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var _sent: [String] = []
        private var _disconnections: [String] = []
        var sent: [String] { lock.withLock { _sent } }
        var disconnections: [String] { lock.withLock { _disconnections } }
        func sent(_ text: String) { lock.withLock { _sent.append(text) } }
        func disconnected(_ text: String) { lock.withLock { _disconnections.append(text) } }
    }

    func testTheDefaultAnswersBothPingKinds() {
        let configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: 1))
        XCTAssertEqual(configuration.protocolVersion, .automatic)
    }

    /// socketcluster-server closes with 4001 "Client pong timed out" after `pingTimeout` without a
    /// pong; 100 ms pings and a 300 ms timeout make 1.5 s five timeouts and fifteen pings long.
    private func assertDefaultClientStaysConnected(
        to version: SocketClusterProtocolVersion, pong: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let broker = try await PubSubBroker.start(
            port: 0,
            options: configured(BrokerOptions(authKey: "test-secret")) {
                $0.pingInterval = .milliseconds(100)
                $0.pingTimeout = .milliseconds(300)
                $0.protocolVersion = version
            })
        let observation = Observation()
        // Only what the test needs to watch is set; the ping protocol is the default.
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))
        configuration.autoReconnect = false
        configuration.frameObserver = { direction, text in
            if direction == .sent { observation.sent(text) }
        }
        let client = PubSubClient(configuration: configuration)
        let events = client.events()
        let watcher = Task {
            for await event in events {
                if case .disconnected(let close) = event { observation.disconnected("\(close.code) \(close.reason)") }
            }
        }
        try await client.connect()
        try await Task.sleep(for: .milliseconds(1500))
        XCTAssertEqual(observation.disconnections, [], "protocol \(version.rawValue)", file: file, line: line)
        XCTAssertEqual(client.state, .open, "protocol \(version.rawValue)", file: file, line: line)
        let pongs = observation.sent.filter { $0 == pong }.count
        XCTAssertGreaterThanOrEqual(pongs, 8, "protocol \(version.rawValue): pongs answered", file: file, line: line)
        client.disconnect()
        watcher.cancel()
        await broker.stop()
    }

    func testTheDefaultClientStaysConnectedToAProtocol1ServerPastSeveralPingTimeouts() async throws {
        try await assertDefaultClientStaysConnected(to: .v1, pong: "#2")
    }

    func testTheDefaultClientStaysConnectedToAProtocol2ServerPastSeveralPingTimeouts() async throws {
        try await assertDefaultClientStaysConnected(to: .v2, pong: "")
    }
}
