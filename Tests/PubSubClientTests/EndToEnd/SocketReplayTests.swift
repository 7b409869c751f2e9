import Foundation
import WireKit
import XCTest
@testable import PubSubClient
import TestSupport

/// The recordings again, through the whole client stack: `PubSubClient`, its driver and WireKit
/// over a real socket, against a WireKit server that plays the recorded server frames and
/// checks every frame the client writes against the JS client's.
final class SocketReplayTests: XCTestCase {
    /// Plays one recording as the server side of a single connection.
    final class ReplayServer: @unchecked Sendable {
        // @unchecked: every mutable field is guarded by `lock`.
        private let lock = NSLock()
        private let frames: [RecordedFrame]
        private var index = 0
        private var socket: WebSocket?
        private var _mismatches: [String] = []
        private var _exact = 0

        init(frames: [RecordedFrame]) { self.frames = frames }

        var mismatches: [String] { lock.withLock { _mismatches } }
        var exactFrames: Int { lock.withLock { _exact } }
        var finished: Bool { lock.withLock { index >= frames.count } }

        /// The next expected frame is one the user's code causes (not a pong, reply or handshake).
        var awaitingUserFrame: Bool {
            lock.withLock {
                guard index < frames.count, case .clientText(let text) = frames[index] else { return false }
                return !(text.isEmpty || text == "#2" || text.hasPrefix(#"{"rid""#) || text.contains(##""#handshake""##))
            }
        }

        var awaitingClientClose: (UInt16, String)? {
            lock.withLock {
                guard index < frames.count, case .clientClose(let code, let reason) = frames[index] else { return nil }
                return (code, reason)
            }
        }

        func attach(_ socket: WebSocket) {
            lock.withLock {
                self.socket = socket
                advance()
            }
        }

        func received(_ text: String) {
            lock.withLock {
                guard index < frames.count, case .clientText(let expected) = frames[index] else {
                    _mismatches.append("unexpected client frame \(text)")
                    return
                }
                if text == expected { _exact += 1 } else { _mismatches.append("got \(text), expected \(expected)") }
                index += 1
                advance()
            }
        }

        func closed(code: UInt16, reason: String) {
            lock.withLock {
                guard index < frames.count else { return }
                if case .clientClose(let expectedCode, let expectedReason) = frames[index] {
                    if code != expectedCode || reason != expectedReason {
                        _mismatches.append("closed with \(code) \(reason), expected \(expectedCode) \(expectedReason)")
                    }
                    index += 1
                } else {
                    _mismatches.append("closed with \(code) before frame \(index)")
                }
            }
        }

        /// Sends every server frame up to the next client frame (lock held).
        private func advance() {
            while index < frames.count {
                switch frames[index] {
                case .serverText(let text):
                    do { try socket?.write(text: text) } catch { _mismatches.append("write failed: \(error)") }
                case .serverClose(let code, let reason):
                    socket?.disconnect(code: WebSocketCloseCode(code), reason: reason)
                default:
                    return
                }
                index += 1
            }
        }
    }

    func testEveryProtocol2RecordingOverSockets() async throws { try await replayAll(suffix: "proto2") }
    func testEveryProtocol1RecordingOverSockets() async throws { try await replayAll(suffix: "proto1") }

    private func replayAll(suffix: String) async throws {
        var total = 0
        for (name, scenario) in RecordingReplayTests.scenarios().sorted(by: { $0.key < $1.key }) {
            total += try await replay("\(name).\(suffix).jsonl", scenario)
        }
        XCTAssertGreaterThan(total, 60)
    }

    private func replay(_ fileName: String, _ scenario: RecordingReplayTests.Scenario) async throws -> Int {
        let replay = ReplayServer(frames: try Recording.load(fileName))
        let server = try WebSocketServer.start(port: 0) { socket in
            socket.onText = { replay.received($0) }
            socket.onClose = { replay.closed(code: $0.code.rawValue, reason: $0.reason) }
            replay.attach(socket)
        }
        let address = ServerAddress(hostname: "127.0.0.1", port: server.port)
        let store = InMemoryTokenStore()
        if let token = scenario.storedToken { try store.saveToken(name: address.defaultTokenName, token: token) }
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: address)) {
                $0.protocolVersion = fileName.contains(".proto1.") ? .v1 : .v2
                $0.autoReconnect = false
            },
            tokenStore: store)
        var responder: Task<Void, Never>?
        if let answer = scenario.answer {
            let requests = client.procedure("ask")
            responder = Task {
                for await request in requests {
                    switch answer(request.event, request.data) {
                    case .success(let data): try? request.respond(data)
                    case .failure(let error): try? request.fail(error)
                    }
                }
            }
        }
        try await client.connect()
        for step in scenario.steps {
            try await waitUntil { replay.awaitingUserFrame || !replay.mismatches.isEmpty }
            client.driver.run { session, now in step(&session, now) }
        }
        try await waitUntil { replay.awaitingClientClose != nil || replay.finished || !replay.mismatches.isEmpty }
        if let (code, reason) = replay.awaitingClientClose {
            client.disconnect(code: SocketClusterCloseCode(code), reason: reason)
        }
        try await waitUntil { replay.finished || !replay.mismatches.isEmpty }
        XCTAssertEqual(replay.mismatches, [], fileName)
        responder?.cancel()
        await server.stop()
        return replay.exactFrames
    }
}
