import Foundation
import PubSubBroker
import WireKit
import XCTest
@testable import PubSubClient
import TestSupport

/// Both faces against PubSubBroker (and hand-made peers) over real sockets: why a connection
/// attempt failed, closing with a finished close handshake, socketcluster-client-swift's token
/// and `onAuthentication` behaviour, and the frame observer.
final class ClientAPIEndToEndTests: XCTestCase {
    static let secret = "client-api-secret"
    static let aliceToken = JWT.sign(payload: ["username": "alice", "exp": 4_102_444_800], secret: secret)

    /// Values appended from any thread. `@unchecked Sendable`: guarded by `lock`.
    final class Recorder<Item: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var _items: [Item] = []
        var items: [Item] { lock.withLock { _items } }
        func append(_ item: Item) { lock.withLock { _items.append(item) } }
    }

    private func startBroker(_ options: BrokerOptions = BrokerOptions(authKey: ClientAPIEndToEndTests.secret)) async throws -> PubSubBroker {
        let broker = try await PubSubBroker.start(port: 0, options: options)
        broker.procedure("echo") { request in request.data }
        broker.procedure("login") { request in
            _ = try request.socket.setAuthToken(["username": request.data ?? "anon"])
            return nil
        }
        return broker
    }

    private func configuration(
        port: Int, hostname: String = "127.0.0.1", secure: Bool = false,
        _ adjust: (inout SessionConfiguration) -> Void = { _ in }
    ) -> SessionConfiguration {
        var configuration = SessionConfiguration(address: ServerAddress(hostname: hostname, port: port, secure: secure))
        configuration.connectTimeout = .seconds(5)
        configuration.autoReconnect = false
        adjust(&configuration)
        return configuration
    }

    /// Connects with a fresh client and returns the error `connect()` threw, with the
    /// `connectAbort` event the same attempt reported.
    private func failedAttempt(_ configuration: SessionConfiguration) async -> (PubSubError?, SessionEvent?) {
        let client = PubSubClient(configuration: configuration)
        let events = client.events()
        do {
            try await client.connect()
            return (nil, nil)
        } catch {
            for await event in events { if case .connectAbort = event { return (error as? PubSubError, event) } }
            return (error as? PubSubError, nil)
        }
    }

    /// A TCP server answering every request with `status` instead of the upgrade.
    private func startHTTPServer(status: String) throws -> TCPListener {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let queue = DispatchQueue(label: "http-\(status)")
        listener.start { transport in
            transport.start(queue: queue) { event in
                if case .received = event {
                    transport.write(Array("HTTP/1.1 \(status)\r\nContent-Length: 9\r\n\r\nnot here!".utf8))
                    transport.close()
                }
            }
        }
        return listener
    }

    // MARK: Why a connection attempt failed

    func testRefusedConnectionThrowsTheTypedWebSocketErrorAndTheEventCarriesIt() async throws {
        let broker = try await startBroker()
        let port = broker.port
        await broker.stop()
        let (error, event) = await failedAttempt(configuration(port: port))
        guard error?.code == .transport, let failure = error?.transport, failure.kind == .connectionRefused,
            let underlying = failure.webSocketError,
            let refusal = underlying.transportError, refusal.code == .connectionRefused, let host = refusal.host,
            let refusedPort = refusal.port
        else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(host, "127.0.0.1")
        XCTAssertEqual(refusedPort, port)
        XCTAssertTrue(underlying.description.contains("refused"), underlying.description)
        XCTAssertEqual(error?.name, "TransportError")
        XCTAssertEqual(error?.message, underlying.description)
        XCTAssertEqual(event, .connectAbort(.init(code: 1006, reason: underlying.description, error: failure)))
    }

    func testUnknownHostThrowsTheTypedWebSocketError() async throws {
        let (error, _) = await failedAttempt(configuration(port: 8000, hostname: "no-such-host.invalid"))
        guard error?.code == .transport, let failure = error?.transport, failure.kind == .hostNotFound,
            let notFound = failure.webSocketError?.transportError, notFound.code == .hostNotFound, let host = notFound.host
        else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(host, "no-such-host.invalid")
    }

    func testRejectedUpgradeCarriesTheHTTPStatus() async throws {
        let server = try startHTTPServer(status: "404 Not Found")
        defer { server.close() }
        let (error, event) = await failedAttempt(configuration(port: server.port))
        guard error?.code == .transport, let failure = error?.transport, failure.kind == .upgradeRejected,
            failure.httpStatus == 404, failure.location == nil,
            let rejection = failure.webSocketError, rejection.code == .handshakeRejected, let status = rejection.httpStatus,
            let body = rejection.body
        else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(status, 404)
        XCTAssertEqual(body, Array("not here!".utf8))
        guard case .connectAbort(let close)? = event, close.code == 1006, let eventFailure = close.error,
            eventFailure.webSocketError?.code == .handshakeRejected, eventFailure.webSocketError?.httpStatus == 404
        else {
            return XCTFail("\(String(describing: event))")
        }
        XCTAssertTrue(close.reason.contains("HTTP 404"), close.reason)
    }

    func testTLSFailureIsReportedAsSuch() async throws {
        let broker = try await startBroker()
        // A plain-text server on a wss:// URL: the TLS handshake cannot succeed.
        let (error, _) = await failedAttempt(configuration(port: broker.port, secure: true))
        guard error?.code == .transport, let transportFailure = error?.transport, transportFailure.kind == .tls,
            let failure = transportFailure.webSocketError?.tlsError
        else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(error?.message.contains("TLS") ?? false, "\(failure)")
        await broker.stop()
    }

    func testServerClosingBeforeTheHandshakeIsStillConnectionFailedWithoutUnderlyingError() async throws {
        // A WebSocket server that closes with a close frame instead of answering #handshake.
        let server = try WebSocketServer.start(port: 0) { socket in
            socket.onText = { _ in socket.disconnect(code: WebSocketCloseCode(4321), reason: "go away") }
        }
        let (error, event) = await failedAttempt(configuration(port: server.port))
        XCTAssertEqual(error, .connectionFailed(code: 4321, reason: "go away"))
        XCTAssertEqual(event, .connectAbort(.init(code: 4321, reason: "go away", error: nil)))
        await server.stop()
    }

    func testScClientConnectErrorCarriesTheTypedError() async throws {
        let server = try startHTTPServer(status: "403 Forbidden")
        defer { server.close() }
        let client = ScClient(configuration: configuration(port: server.port), callbackQueue: DispatchQueue(label: "cb"))
        let failed = expectation(description: "onConnectError")
        let seen = Recorder<CloseInfo>()
        client.setBasicListener(
            onConnect: nil,
            onConnectError: { _, info in
                seen.append(info)
                failed.fulfill()
            }, onDisconnect: nil)
        client.connect()
        await fulfillment(of: [failed], timeout: 30)
        guard let failure = seen.items.first?.error, failure.kind == .upgradeRejected, failure.httpStatus == 403,
            failure.webSocketError?.code == .handshakeRejected, failure.webSocketError?.httpStatus == 403
        else { return XCTFail("\(seen.items)") }
        XCTAssertEqual(seen.items.first?.code, 1006)
    }

    func testConnectionFailingAfterTheHandshakeReportsItsTypedErrorOnBothFaces() async throws {
        let broker = try await startBroker()
        var options = WebSocketOptions()
        options.maxMessageSize = 256
        let big = JSONValue.string(String(repeating: "x", count: 1000))

        let client = PubSubClient(configuration: configuration(port: broker.port), webSocketOptions: options)
        let events = client.events()
        try await client.connect()
        do {
            _ = try await client.invoke("echo", big)
            XCTFail("the answer exceeds the client's message limit")
        } catch let error as PubSubError where error.code == .badConnection {
            XCTAssertEqual(error.badConnectionKind, .disconnect)
            XCTAssertEqual(error.closeCode, 1009)
        }
        var closed: SessionEvent?
        for await event in events { if case .closed = event { closed = event; break } }
        guard case .closed(let close)? = closed, close.code == 1009, let failure = close.error,
            failure.kind == .protocolViolation,
            failure.webSocketError?.code == .messageTooBig, failure.webSocketError?.limit == 256
        else { return XCTFail("\(String(describing: closed))") }

        let sc = ScClient(
            configuration: configuration(port: broker.port), callbackQueue: DispatchQueue(label: "cb"),
            webSocketOptions: options)
        let connected = expectation(description: "connected")
        let lost = expectation(description: "onDisconnect")
        let seen = Recorder<CloseInfo>()
        sc.setBasicListener(
            onConnect: { _ in connected.fulfill() }, onConnectError: nil,
            onDisconnect: { _, info in
                seen.append(info)
                lost.fulfill()
            })
        sc.connect()
        await fulfillment(of: [connected], timeout: 30)
        sc.emitAck(eventName: "echo", data: big) { _, _, _ in }
        await fulfillment(of: [lost], timeout: 30)
        XCTAssertEqual(seen.items.first?.code, 1009)
        guard let lostFailure = seen.items.first?.error, lostFailure.kind == .protocolViolation,
            case .messageTooBig? = lostFailure.webSocketError
        else { return XCTFail("\(seen.items)") }
        await broker.stop()
    }

    // MARK: Closing with a finished close handshake

    func testCloseReturnsAfterTheCloseHandshakeAndTheServerSeesTheCode() async throws {
        let broker = try await startBroker()
        let closes = Recorder<UInt16>()
        let reasons = Recorder<String>()
        broker.onDisconnection { left in
            closes.append(left.code.rawValue)
            reasons.append(left.reason)
        }
        for (code, reason) in [(SocketClusterCloseCode(1000), ""), (4100, "bye")] {
            let client = PubSubClient(configuration: configuration(port: broker.port))
            try await client.connect()
            let info = await client.close(code: code, reason: reason)
            XCTAssertEqual(info?.wasClean, true, "\(String(describing: info))")
            XCTAssertEqual(info?.code.rawValue, code.rawValue, "the server echoes the code")
            XCTAssertEqual(client.state, .closed)
        }
        try await waitUntil { closes.items.count == 2 }
        XCTAssertEqual(closes.items, [1000, 4100])
        XCTAssertEqual(reasons.items, ["", "bye"])
        await broker.stop()
    }

    func testCloseReturnsWhenThePeerNeverAnswersTheCloseFrameAfterTheCloseTimeout() async throws {
        // Completes the WebSocket upgrade, then ignores everything (no handshake answer, no close echo).
        let mute = try TCPListener(host: "127.0.0.1", port: 0)
        defer { mute.close() }
        let queue = DispatchQueue(label: "mute")
        mute.start { transport in
            let head = Recorder<UInt8>()
            transport.start(queue: queue) { event in
                guard case .received(let bytes) = event else { return }
                let before = String(decoding: head.items, as: UTF8.self)
                guard !before.contains("\r\n\r\n") else { return }  // upgraded: ignore frames
                for byte in bytes { head.append(byte) }
                let request = String(decoding: head.items, as: UTF8.self)
                guard request.contains("\r\n\r\n"),
                    let line = request.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("sec-websocket-key:") })
                else { return }
                let key = line.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces)
                transport.write(
                    Array(
                        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Accept: \(ClientHandshake.acceptValue(forKey: key))\r\n\r\n").utf8))
            }
        }
        var options = WebSocketOptions()
        options.closeTimeout = .milliseconds(300)
        let sent = Recorder<String>()
        let client = PubSubClient(
            configuration: configuration(port: mute.port) { configuration in
                configuration.frameObserver = { direction, text in if direction == .sent { sent.append(text) } }
            }, webSocketOptions: options)
        let attempt = Task { try await client.connect() }
        try await waitUntil { !sent.items.isEmpty }  // the WebSocket is open: #handshake went out
        let started = ContinuousClock.now
        let info = await client.close()
        let waited = ContinuousClock.now - started
        XCTAssertEqual(info?.wasClean, false, "\(String(describing: info))")
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(250), "close waits for the echo until the close timeout")
        XCTAssertLessThan(waited, .seconds(20), "bounded by the close timeout (a safety margin for a busy machine)")
        _ = try? await attempt.value
    }

    func testCloseWithoutAConnectionReturnsNilAtOnce() async {
        let client = PubSubClient(configuration: configuration(port: 1))
        let info = await client.close()
        XCTAssertNil(info)
        XCTAssertEqual(client.state, .closed)
    }

    func testScClientDisconnectCompletionRunsAfterTheCloseHandshake() async throws {
        let broker = try await startBroker()
        let closes = Recorder<UInt16>()
        broker.onDisconnection { left in closes.append(left.code.rawValue) }
        let queue = DispatchQueue(label: "cb")
        let client = ScClient(configuration: configuration(port: broker.port), callbackQueue: queue)
        let connected = expectation(description: "connected")
        client.setBasicListener(onConnect: { _ in connected.fulfill() }, onConnectError: nil, onDisconnect: nil)
        client.connect()
        await fulfillment(of: [connected], timeout: 30)
        let done = expectation(description: "closed")
        let result = Recorder<WebSocketCloseInfo?>()
        client.disconnect(code: 4200, reason: "done") { info in
            result.append(info)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 30)
        XCTAssertEqual(result.items.first??.wasClean, true)
        XCTAssertEqual(result.items.first??.code.rawValue, 4200)
        try await waitUntil { closes.items == [4200] }
        await broker.stop()
    }

    // MARK: Cancellation and buffering

    func testCancellingTheTaskWaitingInConnectThrowsCancelledAtOnce() async throws {
        // Accepts TCP and never answers the upgrade, so only cancellation can end the wait early.
        let silent = try TCPListener(host: "127.0.0.1", port: 0)
        defer { silent.close() }
        let queue = DispatchQueue(label: "silent")
        silent.start { transport in transport.start(queue: queue) { _ in } }
        let client = PubSubClient(configuration: configuration(port: silent.port) { $0.connectTimeout = .seconds(30) })
        let started = ContinuousClock.now
        let attempt = Task { try await client.connect() }
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(client.state, .connecting)
        attempt.cancel()
        do {
            _ = try await attempt.value
            XCTFail("connect cannot succeed")
        } catch {
            XCTAssertEqual(error as? PubSubError, .cancelled(event: "connect"))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
        XCTAssertEqual(client.state, .connecting, "the attempt itself goes on")
        await client.close()
        XCTAssertEqual(client.state, .closed)
    }

    func testChannelBufferingPolicyKeepsOnlyWhatTheSlowConsumerAskedFor() async throws {
        let broker = try await startBroker()
        let client = PubSubClient(configuration: configuration(port: broker.port))
        try await client.connect()
        let latest = client.channel("state", bufferingPolicy: .bufferingNewest(1))
        let all = client.channel("state")
        try await client.subscribe("state")
        // Each publication reaches the client before the acknowledgement of its publish.
        for n in 1...5 { try await client.publishAck("state", .int(Int64(n))) }
        var latestIterator = latest.makeAsyncIterator()
        let first = await latestIterator.next()
        XCTAssertEqual(first, .int(5))
        var allIterator = all.makeAsyncIterator()
        var received: [JSONValue?] = []
        for _ in 1...5 { received.append(await allIterator.next() ?? nil) }
        XCTAssertEqual(received, [1, 2, 3, 4, 5])
        await client.close()
        await broker.stop()
    }

    func testPublishingEncodableValuesDeliversTheirJSON() async throws {
        struct Move: Codable, Equatable { var piece: String; var to: Int }
        let broker = try await startBroker()
        let client = PubSubClient(configuration: configuration(port: broker.port))
        try await client.connect()
        let moves = client.channel("game")
        try await client.subscribe("game")
        try await client.publishAck("game", encoding: Move(piece: "knight", to: 42))
        try client.publish("game", encoding: Move(piece: "rook", to: 7))
        var iterator = moves.makeAsyncIterator()
        let first = await iterator.next() ?? nil
        let second = await iterator.next() ?? nil
        XCTAssertEqual(try first?.decode(Move.self), Move(piece: "knight", to: 42))
        XCTAssertEqual(second, ["piece": "rook", "to": 7])
        await client.close()
        await broker.stop()
    }

    // MARK: Tokens for the next handshake

    func testSetAuthTokenIsSentByTheNextHandshake() async throws {
        let broker = try await startBroker()
        let frames = Recorder<String>()
        let client = PubSubClient(
            configuration: configuration(port: broker.port) { configuration in
                configuration.frameObserver = { direction, text in if direction == .sent { frames.append(text) } }
            })
        let first = try await client.connect()
        XCTAssertFalse(first.isAuthenticated)
        client.setAuthToken(Self.aliceToken)
        XCTAssertEqual(client.authTokenForNextHandshake, Self.aliceToken)
        XCTAssertEqual(client.auth.state, .unauthenticated, "the open connection is not re-authenticated")
        await client.close()
        let second = try await client.connect()
        XCTAssertTrue(second.isAuthenticated)
        XCTAssertEqual(client.auth.token?["username"], "alice")
        let handshakes = frames.items.compactMap { try? JSONValue(parsing: $0) }.filter { $0["event"] == "#handshake" }
        XCTAssertEqual(handshakes.map { $0["data"]?["authToken"] }, [.null, .string(Self.aliceToken)])
        client.setAuthToken(nil)
        XCTAssertNil(client.authTokenForNextHandshake)
        await client.close()
        await broker.stop()
    }

    func testPubSubClientInitWithAuthTokenAuthenticatesTheFirstHandshake() async throws {
        let broker = try await startBroker()
        let client = try PubSubClient(url: "ws://127.0.0.1:\(broker.port)/socketcluster/", authToken: Self.aliceToken)
        let info = try await client.connect()
        XCTAssertTrue(info.isAuthenticated)
        XCTAssertEqual(broker.sockets.first?.authToken?["username"], "alice")
        await client.close()
        await broker.stop()
    }

    func testScClientInitWithAuthTokenSetAuthTokenAndGetAuthTokenMatchTheOldClient() async throws {
        let broker = try await startBroker()
        let store = InMemoryTokenStore()
        let client = try ScClient(
            url: "ws://127.0.0.1:\(broker.port)/socketcluster/", authToken: Self.aliceToken,
            tokenStore: store, callbackQueue: DispatchQueue(label: "cb"))
        XCTAssertEqual(client.getAuthToken(), Self.aliceToken, "known before connecting, as the old client")
        XCTAssertEqual(
            try store.loadToken(name: ServerAddress(hostname: "127.0.0.1", port: broker.port).defaultTokenName),
            Self.aliceToken)
        let connected = expectation(description: "connected")
        client.setBasicListener(onConnect: { _ in connected.fulfill() }, onConnectError: nil, onDisconnect: nil)
        client.connect()
        await fulfillment(of: [connected], timeout: 30)
        XCTAssertEqual(client.auth.state, .authenticated)
        XCTAssertEqual(client.handshake?.isAuthenticated, true)
        XCTAssertEqual(broker.sockets.first?.authToken?["username"], "alice")
        await client.close()
        client.setAuthToken(token: nil)
        XCTAssertNil(client.getAuthToken())
        await broker.stop()
    }

    // MARK: onAuthentication after every handshake

    func testOnAuthenticationIsCalledAfterEveryHandshakeAndOnLaterChanges() async throws {
        let broker = try await startBroker()
        let queue = DispatchQueue(label: "cb")
        let client = ScClient(configuration: configuration(port: broker.port), callbackQueue: queue)
        let calls = Recorder<String>()
        client.setBasicListener(
            onConnect: { _ in calls.append("connect") }, onConnectError: nil,
            onDisconnect: { _, _ in calls.append("disconnect") })
        client.setAuthenticationListener(
            onSetAuthentication: nil,
            onAuthentication: { _, isAuthenticated in
                calls.append("auth \(isAuthenticated.map(String.init) ?? "nil")")
            })
        client.connect()
        try await waitUntil { calls.items.count == 2 }
        XCTAssertEqual(calls.items, ["connect", "auth false"], "a client that never logs in still hears after the handshake")

        // A later change is reported once, as it happens.
        let loggedIn = expectation(description: "login")
        client.emitAck(eventName: "login", data: "bob") { _, _, _ in loggedIn.fulfill() }
        await fulfillment(of: [loggedIn], timeout: 30)
        try await waitUntil { calls.items.count == 3 }
        XCTAssertEqual(calls.items.last, "auth true")

        // The next handshake sends the stored token: one call with its verdict, not one per change.
        client.reconnect()
        try await waitUntil { calls.items.count == 6 }
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(Array(calls.items.dropFirst(3)), ["disconnect", "connect", "auth true"])
        await client.close()
        await broker.stop()
    }

    // MARK: Frame observer

    func testFrameObserverSeesTheHandshakeFirstThenCallsPingsAndPongsInWireOrder() async throws {
        let broker = try await startBroker(
            configured(BrokerOptions(authKey: Self.secret)) {
                $0.pingInterval = .milliseconds(50)
                $0.pingTimeout = .milliseconds(1000)
            })
        let frames = Recorder<String>()
        let client = PubSubClient(
            configuration: configuration(port: broker.port) { configuration in
                configuration.frameObserver = { direction, text in frames.append("\(direction == .sent ? ">" : "<") \(text)") }
            })
        try await client.connect()
        let answer = try await client.invoke("echo", ["n": 1])
        XCTAssertEqual(answer, ["n": 1])
        try await waitUntil { frames.items.filter { $0 == "< " }.count >= 2 }
        await client.close()
        let items = frames.items
        XCTAssertTrue(items.first?.hasPrefix(##"> {"event":"#handshake","data":{"authToken":null},"cid":1}"##) ?? false, "\(items)")
        XCTAssertTrue(items.dropFirst().first?.hasPrefix(#"< {"rid":1,"data":{"id":"#) ?? false, "\(items)")
        XCTAssertTrue(items.contains(#"> {"event":"echo","data":{"n":1},"cid":2}"#), "\(items)")
        XCTAssertTrue(items.contains(#"< {"rid":2,"data":{"n":1}}"#), "\(items)")
        // Every ping the server sent is followed by the client's pong.
        for (index, frame) in items.enumerated() where frame == "< " {
            guard let pong = items[(index + 1)...].first(where: { $0.hasPrefix(">") }) else { continue }
            XCTAssertEqual(pong, "> ", "\(items)")
        }
        XCTAssertGreaterThanOrEqual(items.filter { $0 == "> " }.count, 2, "\(items)")
        await broker.stop()
    }

    func testFrameObserverWorksOnTheClosureFaceAndSeesBatchesAsOneFrame() async throws {
        let broker = try await startBroker()
        let frames = Recorder<String>()
        let client = ScClient(
            configuration: configuration(port: broker.port) { configuration in
                configuration.frameObserver = { direction, text in if direction == .sent { frames.append(text) } }
            }, callbackQueue: DispatchQueue(label: "cb"))
        let connected = expectation(description: "connected")
        client.setBasicListener(onConnect: { _ in connected.fulfill() }, onConnectError: nil, onDisconnect: nil)
        client.connect()
        await fulfillment(of: [connected], timeout: 30)
        client.startBatch()
        client.emit(eventName: "a", data: 1)
        client.emit(eventName: "b", data: 2)
        client.flushBatch()
        try await waitUntil { frames.items.count == 2 }
        XCTAssertEqual(frames.items.last, #"[{"event":"a","data":1},{"event":"b","data":2}]"#)
        await client.close()
        await broker.stop()
    }
}
