import Foundation
import PubSubBroker
import XCTest
@testable import PubSubClient
import TestSupport

/// PubSubClient against PubSubBroker over real sockets, one test per behaviour.
final class BrokerEndToEndTests: XCTestCase {
    static let secret = "test-secret"

    private func startBroker(_ options: BrokerOptions = BrokerOptions(authKey: BrokerEndToEndTests.secret)) async throws -> PubSubBroker {
        let broker = try await PubSubBroker.start(port: 0, options: options)
        broker.procedure("echo") { request in request.data }
        broker.procedure("fail") { _ in throw RemoteError(name: "FailError", message: "boom", fields: ["code": 42]) }
        broker.procedure("login") { request in
            _ = try request.socket.setAuthToken(["username": request.data?["username"] ?? "anon"])
            return "ok"
        }
        broker.procedure("logout") { request in
            request.socket.deauthenticate()
            return nil
        }
        broker.procedure("kickMe") { request in
            request.socket.kickOut(channel: request.data?.stringValue, message: "bye")
            return nil
        }
        broker.procedure("serverEmit") { request in
            request.socket.transmit("note", request.data)
            return nil
        }
        broker.procedure("serverInvoke") { (request: BrokerRequest) async throws -> JSONValue? in
            try await request.socket.invoke(request.data?["procedure"]?.stringValue ?? "ask", request.data?["payload"])
        }
        broker.procedure("disconnectMe") { request in
            let socket = request.socket
            let code = SocketClusterCloseCode(UInt16(request.data?["code"]?.intValue ?? 4321))
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { socket.disconnect(code: code, reason: "asked") }
            return nil
        }
        broker.authorizeSubscribe { request in
            if request.channel.hasPrefix("private/") && request.socket.authToken == nil {
                throw RemoteError(name: "PrivateChannelError", message: "Not authorized to subscribe to \(request.channel)")
            }
        }
        broker.authorizePublish { request in
            if request.channel.hasPrefix("readonly/") {
                throw RemoteError(name: "ReadOnlyChannelError", message: "Cannot publish to \(request.channel)")
            }
        }
        return broker
    }

    private func configuration(_ broker: PubSubBroker, _ adjust: (inout SessionConfiguration) -> Void = { _ in }) -> SessionConfiguration {
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port))
        configuration.autoReconnect = false
        adjust(&configuration)
        return configuration
    }

    // MARK: 1–2 connection and handshake

    func testConnectsByURLAndByOptionsAndReportsTheHandshake() async throws {
        let broker = try await startBroker()
        let byURL = try PubSubClient(url: "ws://127.0.0.1:\(broker.port)/socketcluster/")
        let info = try await byURL.connect()
        XCTAssertEqual(info.id.count, 20)
        XCTAssertEqual(info.pingTimeout, .seconds(20))
        XCTAssertFalse(info.isAuthenticated)
        XCTAssertNil(info.authError)
        let byOptions = PubSubClient(configuration: configuration(broker) { $0.headers = ["X-App": "tests"] })
        let other = try await byOptions.connect()
        XCTAssertNotEqual(other.id, info.id)
        byURL.disconnect()
        byOptions.disconnect()
        await broker.stop()
    }

    func testWrongPathIsRefusedWithHTTP400() async throws {
        let broker = try await startBroker()
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "127.0.0.1", port: broker.port, path: "/socketcluster"))) {
                $0.autoReconnect = false
            })
        do {
            try await client.connect()
            XCTFail("the path is compared exactly")
        } catch let error as PubSubError {
            // socketcluster-server refuses the upgrade of any other path with HTTP 400.
            guard error.code == .transport, let failure = error.transport, failure.kind == .upgradeRejected,
                failure.httpStatus == 400, failure.webSocketError?.code == .handshakeRejected,
                failure.webSocketError?.httpStatus == 400
            else { return XCTFail("\(error)") }
        }
        await broker.stop()
    }

    func testStoredValidTokenAuthenticatesAndABadOneIsRemoved() async throws {
        let broker = try await startBroker()
        let valid = JWT.sign(payload: ["username": "alice", "exp": 4_102_444_800], secret: Self.secret)
        let store = InMemoryTokenStore()
        let address = ServerAddress(hostname: "127.0.0.1", port: broker.port)
        try store.saveToken(name: address.defaultTokenName, token: valid)
        let client = PubSubClient(configuration: configuration(broker), tokenStore: store)
        let info = try await client.connect()
        XCTAssertTrue(info.isAuthenticated)
        XCTAssertEqual(client.auth.token?["username"], "alice")
        client.disconnect()

        let expired = JWT.sign(payload: ["username": "alice", "exp": 1_600_000_060], secret: Self.secret)
        try store.saveToken(name: address.defaultTokenName, token: expired)
        let second = PubSubClient(configuration: configuration(broker), tokenStore: store)
        let events = second.events()
        let rejected = try await second.connect()
        XCTAssertFalse(rejected.isAuthenticated)
        XCTAssertEqual(rejected.authError?.name, "AuthTokenExpiredError")
        for await event in events { if case .authTokenRemoved = event { break } }
        XCTAssertNil(try store.loadToken(name: address.defaultTokenName))
        second.disconnect()
        await broker.stop()
    }

    // MARK: 3 pings

    func testPingsAreAnsweredInBothProtocolVersions() async throws {
        for (version, clientVersion) in [(SocketClusterProtocolVersion.v2, PingProtocolVersion.v2), (.v1, .v1), (.v1, .automatic)] {
            let broker = try await startBroker(
                configured(BrokerOptions(authKey: Self.secret)) {
                    $0.pingInterval = .milliseconds(50)
                    $0.pingTimeout = .milliseconds(300)
                    $0.protocolVersion = version
                })
            let client = PubSubClient(configuration: configuration(broker) { $0.protocolVersion = clientVersion })
            try await client.connect()
            try await Task.sleep(for: .milliseconds(700))
            XCTAssertEqual(client.state, .open, "\(version) / \(clientVersion)")
            client.disconnect()
            await broker.stop()
        }
    }

    func testSilentServerIsDetectedWithCode4000() async throws {
        let broker = try await startBroker(
            configured(BrokerOptions(authKey: Self.secret)) {
                $0.pingTimeout = .milliseconds(300)
                $0.pingTimeoutDisabled = true
            })
        let client = PubSubClient(configuration: configuration(broker))
        let events = client.events()
        try await client.connect()
        for await event in events {
            if case .disconnected(let close) = event {
                XCTAssertEqual(close.code, 4000)
                XCTAssertEqual(close.reason, "Server ping timed out")
                break
            }
        }
        await broker.stop()
    }

    // MARK: 4 events and RPC

    func testInvokeTransmitAndRemoteErrors() async throws {
        let broker = try await startBroker()
        let received = Counter()
        broker.receiver("tick") { message in received.append(message.data) }
        let client = PubSubClient(configuration: configuration(broker))
        try await client.connect()
        let answer = try await client.invoke("echo", ["hello": "world", "flag": true, "none": nil])
        XCTAssertEqual(answer, ["hello": "world", "flag": true, "none": nil])
        let empty = try await client.invoke("echo")
        XCTAssertNil(empty)
        do {
            _ = try await client.invoke("fail", 1)
            XCTFail("expected an error")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote?.name, "FailError")
            XCTAssertEqual(error.remote?.message, "boom")
            XCTAssertEqual(error.remote?.fields["code"], 42)
        }
        do {
            _ = try await client.invoke("nosuch", 1, ackTimeout: .milliseconds(200))
            XCTFail("expected a timeout")
        } catch let error as PubSubError where error.code == .timeout {
            XCTAssertEqual(error.event, "nosuch")
        }
        try client.transmit("tick", 1)
        try client.transmit("tick")
        _ = try await client.invoke("echo", "sync")
        XCTAssertEqual(received.values, [1, nil])
        client.disconnect()
        await broker.stop()
    }

    func testServerTransmitsAndInvokesReachReceiversAndProcedures() async throws {
        let broker = try await startBroker()
        let client = PubSubClient(configuration: configuration(broker))
        try await client.connect()
        let notes = client.receiver("note")
        let reader = Task { () -> JSONValue? in
            for await data in notes { return data }
            return nil
        }
        _ = try await client.invoke("serverEmit", ["x": 1])
        let note = await reader.value
        XCTAssertEqual(note, ["x": 1])

        let asks = client.procedure("ask")
        let responder = Task {
            for await request in asks { try request.respond(["answer": request.data ?? nil]) }
        }
        let answer = try await client.invoke("serverInvoke", ["payload": "what?"])
        XCTAssertEqual(answer, ["answer": "what?"])
        do {
            _ = try await client.invoke("serverInvoke", ["procedure": "nobody", "payload": 1])
            XCTFail("an unhandled server invoke must be answered with an error")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote?.name, "UnhandledRequestError")
        }
        responder.cancel()
        client.disconnect()
        await broker.stop()
    }

    // MARK: 5 pub/sub

    func testSubscribePublishUnsubscribeAndRejections() async throws {
        let broker = try await startBroker()
        let client = PubSubClient(configuration: configuration(broker))
        try await client.connect()
        let messages = Counter()
        // The stream exists (and buffers) before anything is published, however late the task runs.
        let room = client.channel("room")
        let reader = Task { for await message in room { messages.append(message) } }
        try await client.subscribe("room")
        XCTAssertEqual(client.channelState("room"), .subscribed)
        XCTAssertEqual(broker.subscriberCount(channel: "room"), 1)
        try await client.publishAck("room", ["msg": "hi", "bin": .binary(Data("hello".utf8))])
        try client.publish("room", "second")
        try await waitUntil { messages.values.count == 2 }
        broker.publish(channel: "room", data: "from server")
        try await waitUntil { messages.values.count == 3 }
        XCTAssertEqual(messages.values.first??["bin"], ["base64": true, "data": "aGVsbG8="])
        XCTAssertEqual(messages.values.dropFirst().map { $0 }, ["second", "from server"])

        do {
            try await client.subscribe("private/x")
            XCTFail("expected a rejection")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote?.name, "PrivateChannelError")
        }
        XCTAssertEqual(client.channelState("private/x"), .unsubscribed)
        do {
            try await client.publishAck("readonly/x", 1)
            XCTFail("expected a rejection")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote?.name, "ReadOnlyChannelError")
        }
        client.unsubscribe("room")
        _ = await reader.value
        _ = try await client.invoke("echo", "sync")
        XCTAssertEqual(broker.subscriberCount(channel: "room"), 0)
        do {
            try await client.unsubscribeAck("never")
            XCTFail("the broker refuses unsubscribing from a channel never joined")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote?.name, "BrokerError")
        }
        client.disconnect()
        await broker.stop()
    }

    func testKickOutUnsubscribesAndNotifies() async throws {
        let broker = try await startBroker()
        let client = PubSubClient(configuration: configuration(broker))
        try await client.connect()
        let events = client.events()
        try await client.subscribe("room")
        _ = try await client.invoke("kickMe", "room")
        XCTAssertEqual(client.channelState("room"), .unsubscribed)
        for await event in events {
            if case .kickedOut(let kickOut) = event {
                XCTAssertEqual(kickOut.channel, "room")
                XCTAssertEqual(kickOut.message, "bye")
                break
            }
        }
        client.disconnect()
        await broker.stop()
    }

    // MARK: 6 auth

    func testServerSetAndRemoveTokenAndClientAuthenticate() async throws {
        let broker = try await startBroker()
        let store = InMemoryTokenStore()
        let client = PubSubClient(configuration: configuration(broker), tokenStore: store)
        try await client.connect()
        let login = try await client.invoke("login", ["username": "bob"])
        XCTAssertEqual(login, "ok")
        XCTAssertEqual(client.auth.state, .authenticated)
        XCTAssertEqual(client.auth.token?["username"], "bob")
        let tokenName = ServerAddress(hostname: "127.0.0.1", port: broker.port).defaultTokenName
        XCTAssertEqual(try store.loadToken(name: tokenName), client.auth.signedToken)
        try await client.subscribe("private/x")

        _ = try await client.invoke("logout")
        XCTAssertEqual(client.auth.state, .unauthenticated)
        XCTAssertNil(try store.loadToken(name: tokenName))

        let token = JWT.sign(payload: ["username": "carol", "exp": 4_102_444_800], secret: Self.secret)
        let verdict = try await client.authenticate(token)
        XCTAssertTrue(verdict.isAuthenticated)
        XCTAssertEqual(client.auth.token?["username"], "carol")
        do {
            _ = try await client.authenticate("not.a.jwt")
            XCTFail("expected a bad token error")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.remote?.name, "AuthTokenInvalidError")
        }
        XCTAssertEqual(client.auth.state, .unauthenticated)
        client.deauthenticate()
        _ = try await client.invoke("echo", "sync")
        client.disconnect()
        await broker.stop()
    }

    // MARK: 8 batching

    func testOutboundBatchIsProcessedInOrder() async throws {
        let broker = try await startBroker()
        let received = Counter()
        broker.receiver("tick") { message in received.append(message.data) }
        let client = PubSubClient(configuration: configuration(broker))
        try await client.connect()
        client.startBatch()
        try client.transmit("tick", "a")
        try client.transmit("tick", "b")
        async let echoed = client.invoke("echo", "x")
        try await waitUntil { client.driver.read(\.pendingCallCount) == 1 }
        client.flushBatch()
        let answer = try await echoed
        XCTAssertEqual(answer, "x")
        XCTAssertEqual(received.values, ["a", "b"])
        client.disconnect()
        await broker.stop()
    }

    // MARK: 9 close codes, reconnect and resubscribe

    func testCloseCodesAndReasonsTravelExactly() async throws {
        let broker = try await startBroker()
        let closes = CloseLog()
        broker.onDisconnection { left in closes.append(left.code.rawValue, left.reason) }
        let client = PubSubClient(configuration: configuration(broker))
        let events = client.events()
        try await client.connect()
        _ = try await client.invoke("disconnectMe", ["code": 4321])
        for await event in events {
            if case .disconnected(let close) = event {
                XCTAssertEqual(close.code, 4321)
                XCTAssertEqual(close.reason, "asked")
                break
            }
        }
        try await client.connect()
        client.disconnect(code: 4100, reason: "bye")
        try await waitUntil { closes.entries.count == 2 }
        XCTAssertEqual(closes.entries.last?.0, 4100)
        XCTAssertEqual(closes.entries.last?.1, "bye")
        await broker.stop()
    }

    func testReconnectsAndResubscribesAfterTheServerDrops() async throws {
        let broker = try await startBroker()
        let client = PubSubClient(
            configuration: configuration(broker) {
                $0.autoReconnect = true
                $0.reconnectPolicy = ReconnectPolicy(initialDelay: .milliseconds(50), randomness: .zero, multiplier: 1, maxDelay: .milliseconds(50))
            })
        let events = client.events()
        try await client.connect()
        let messages = Counter()
        // The stream exists (and buffers) before anything is published, however late the task runs.
        let room = client.channel("room")
        let reader = Task { for await message in room { messages.append(message) } }
        try await client.subscribe("room")
        _ = try await client.invoke("disconnectMe", ["code": 1011])
        var sawDrop = false
        var sawReconnect = false
        for await event in events {
            if case .disconnected(let close) = event, close.code == 1011, close.reason == "asked" { sawDrop = true }
            if sawDrop, case .connected = event { sawReconnect = true }
            if sawReconnect, case .subscribed(let subscription) = event, subscription.channel == "room" { break }
        }
        XCTAssertTrue(sawReconnect)
        XCTAssertEqual(client.channelState("room"), .subscribed)
        broker.publish(channel: "room", data: "after")
        try await waitUntil { messages.values.contains("after") }
        reader.cancel()
        client.disconnect()
        await broker.stop()
    }

    // MARK: 10 closure face

    func testClosureFaceAgainstTheBroker() async throws {
        let broker = try await startBroker()
        let client = try ScClient(url: "ws://127.0.0.1:\(broker.port)/socketcluster/", callbackQueue: DispatchQueue(label: "cb"))
        let connected = expectation(description: "connected")
        client.setBasicListener(onConnect: { _ in connected.fulfill() }, onConnectError: nil, onDisconnect: nil)
        client.connect()
        await fulfillment(of: [connected], timeout: 30)
        let acked = expectation(description: "ack")
        client.emitAck(eventName: "echo", data: 7) { _, error, data in
            XCTAssertNil(error)
            XCTAssertEqual(data, 7)
            acked.fulfill()
        }
        let message = expectation(description: "channel")
        client.onChannel(channelName: "room") { _, data in
            XCTAssertEqual(data, "hi")
            message.fulfill()
        }
        let subscribed = expectation(description: "subscribed")
        client.subscribeAck(channelName: "room") { _, error, _ in
            XCTAssertNil(error)
            subscribed.fulfill()
        }
        await fulfillment(of: [acked, subscribed], timeout: 30)
        client.publish(channelName: "room", data: "hi")
        await fulfillment(of: [message], timeout: 30)
        client.disconnect()
        await broker.stop()
    }
}

final class CloseLog: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var _entries: [(UInt16, String)] = []
    var entries: [(UInt16, String)] { lock.withLock { _entries } }
    func append(_ code: UInt16, _ reason: String) { lock.withLock { _entries.append((code, reason)) } }
}
