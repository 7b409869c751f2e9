import XCTest
@testable import PubSubClient
import WireKit
import TestSupport

final class PubSubClientFaceTests: XCTestCase {
    private func makeClient(_ server: FakeServer) -> PubSubClient {
        PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "fake", port: 1))) {
                $0.autoReconnect = false
            },
            tokenStore: InMemoryTokenStore(), transportFactory: server)
    }

    struct Greeting: Codable, Equatable {
        var name: String
        var count: Int
    }

    func testConnectReportsTheHandshakeAndInvokeDecodesCodable() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        let info = try await client.connect()
        XCTAssertEqual(info.id, "fake-socket")
        let again = try await client.connect()
        XCTAssertEqual(again, info, "connecting an open client returns its handshake")
        XCTAssertTrue(client.isConnected)
        let echoed = try await client.invoke("echo", Greeting(name: "ann", count: 2), as: Greeting.self)
        XCTAssertEqual(echoed, Greeting(name: "ann", count: 2))
        let raw = try await client.invoke("echo", ["bin": .binary(Data([104, 105]))])
        XCTAssertEqual(raw?["bin"]?.binaryData, Data([104, 105]))
        XCTAssertTrue(server.received.contains(#"{"event":"echo","data":{"bin":{"base64":true,"data":"aGk="}},"cid":3}"#))
    }

    /// The events of the packets the server received, handshake left out.
    private func sentEvents(_ server: FakeServer) -> [String] {
        server.received.compactMap { try? JSONValue(parsing: $0) }.compactMap { $0["event"]?.stringValue }.filter { $0 != "#handshake" }
    }

    func testTransmitsFromATaskKeepTheirOrderWithTheCallsBetweenThem() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        // publish and transmit from a task while open are queued without waiting (one block
        // sends those given together); a call made between them still goes out between them.
        try client.publish("room", "a")
        try client.transmit("first")
        _ = try await client.invoke("echo", "x")
        try client.publish("room", "b")
        for n in 0..<200 { try client.transmit("t\(n)") }
        try await client.publishAck("room", "last")
        let sent = sentEvents(server)
        XCTAssertEqual(Array(sent.prefix(3)), ["#publish", "first", "echo"], "\(sent.prefix(6))")
        XCTAssertEqual(sent[3], "#publish")
        XCTAssertEqual(Array(sent[4..<204]), (0..<200).map { "t\($0)" })
        XCTAssertEqual(sent.last, "#publish")
    }

    func testATransmitWhileNotOpenStillReportsAFullQueueAtOnce() async throws {
        /// A connection that never opens.
        final class Silent: SessionTransportFactory, SessionTransport, @unchecked Sendable {
            func open(
                url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
                onEvent: @escaping @Sendable (SessionTransportEvent) -> Void
            ) -> any SessionTransport { self }
            func send(utf8: [UInt8]) {}
            func send(binary: [UInt8]) {}
            func close(code: UInt16, reason: String) {}
            func closed() async -> WebSocketCloseInfo? { nil }
        }
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "fake", port: 1))) {
                $0.autoReconnect = false
                $0.maxQueuedMessages = 2
            },
            tokenStore: InMemoryTokenStore(), transportFactory: Silent())
        // Not connected: the first two wait in the outbound queue, the third does not fit.
        try client.transmit("a")
        try client.transmit("b")
        XCTAssertThrowsError(try client.transmit("c")) { error in
            XCTAssertEqual((error as? PubSubError)?.code, .outboundQueueFull)
        }
        client.disconnect()
    }

    struct Upload: Codable, Equatable {
        var name: String
        var bytes: Data
    }

    func testCodableDataTravelsAsTheBase64Wrapper() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        let upload = Upload(name: "a", bytes: Data([0, 255, 104]))
        let echoed = try await client.invoke("echo", upload, as: Upload.self)
        XCTAssertEqual(echoed, upload)
        XCTAssertTrue(server.received.contains(#"{"event":"echo","data":{"bytes":{"base64":true,"data":"AP9o"},"name":"a"},"cid":2}"#))
    }

    func testInvokeFailsWithTimeoutWhenUnanswered() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        do {
            _ = try await client.invoke("nobody", 1, ackTimeout: .milliseconds(50))
            XCTFail("expected a timeout")
        } catch let error as PubSubError {
            XCTAssertEqual(error, .timeout(event: "nobody"))
        }
        XCTAssertEqual(client.driver.read(\.pendingCallCount), 0)
    }

    func testChannelStreamDeliversAndCancellingTheTaskStopsDelivery() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        let received = Counter()
        // The stream exists (and buffers) before anything is published, however late the task runs.
        let room = client.channel("room")
        let reader = Task {
            for await message in room { received.append(message) }
        }
        try await client.subscribe("room")
        try await client.publishAck("room", "a")
        try await client.publishAck("room", "b")
        try await waitUntil { received.values.count == 2 }
        XCTAssertEqual(received.values, ["a", "b"])
        reader.cancel()
        _ = await reader.value
        try await waitUntil { client.driver.read { _ in client.router.consumerCount } == 0 }
        try await client.publishAck("room", "c")
        XCTAssertEqual(received.values, ["a", "b"], "no delivery after cancellation")
        XCTAssertEqual(client.channelState("room"), .subscribed, "cancelling only stops delivery")
        client.unsubscribe("room")
        XCTAssertEqual(client.channelState("room"), .unsubscribed)
    }

    func testUnsubscribeEndsChannelStreams() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        let stream = client.channel("room")
        let reader = Task {
            var count = 0; for await _ in stream { count += 1 }; return count
        }
        try await client.publishAck("room", 1)
        client.unsubscribe("room")
        let count = await reader.value
        XCTAssertEqual(count, 1)
    }

    func testProcedureRequestsAreAnsweredOnceAndUnhandledOnesGetAnErrorReply() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        let requests = client.procedure("ask")
        try client.transmit("askMe", ["payload": "q"])
        var iterator = requests.makeAsyncIterator()
        let request = await iterator.next()
        XCTAssertEqual(request?.data, "q")
        try request?.respond(["a": 1])
        XCTAssertThrowsError(try request?.respond(nil))
        try client.transmit("askMe", ["procedure": "nobody"])
        try await waitUntil { server.received.contains { $0.hasPrefix(#"{"rid":2"#) } }
        XCTAssertEqual(
            server.received.filter { $0.hasPrefix(#"{"rid""#) },
            [
                #"{"rid":1,"data":{"a":1}}"#,
                #"{"rid":2,"error":{"message":"The client has no handler for procedure nobody","name":"UnhandledRequestError"}}"#,
            ])
    }

    func testCancellingTheTaskCancelsTheInvoke() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        let task = Task { try await client.invoke("nobody", 1) }
        try await waitUntil { client.driver.read(\.pendingCallCount) == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch let error as PubSubError {
            XCTAssertEqual(error, .cancelled(event: "nobody"))
        }
        XCTAssertEqual(client.driver.read(\.pendingCallCount), 0)
    }

    func testADroppedProcedureRequestIsAnsweredWithAnError() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        try await client.connect()
        let requests = client.procedure("ask")
        try client.transmit("askMe", ["payload": 1])
        var iterator = requests.makeAsyncIterator()
        _ = await iterator.next()  // received and dropped without an answer
        try await waitUntil { server.received.contains { $0.hasPrefix(#"{"rid":1"#) } }
        XCTAssertEqual(
            server.received.last,
            #"{"rid":1,"error":{"message":"The client dropped the ask request without answering","name":"UnhandledRequestError"}}"#)
    }

    func testTokenExpiryIsAnnouncedBeforeExp() async throws {
        let server = FakeServer()
        var configuration = SessionConfiguration(address: ServerAddress(hostname: "fake", port: 1))
        configuration.autoReconnect = false
        configuration.tokenExpiryWarning = .seconds(3599)
        let client = PubSubClient(configuration: configuration, tokenStore: InMemoryTokenStore(), transportFactory: server)
        let events = client.events()
        try await client.connect()
        let exp = Int64(Date().timeIntervalSince1970) + 3600
        let token = JWT.sign(payload: ["username": "ann", "exp": .int(exp)], secret: "s")
        server.connection?.deliver(##"{"event":"#setAuthToken","data":{"token":"\##(token)"}}"##)
        for await event in events {
            if case .authTokenExpiring(let expiry) = event {
                XCTAssertEqual(expiry.signedToken, token)
                XCTAssertEqual(expiry.expiresAt, Date(timeIntervalSince1970: TimeInterval(exp)))
                break
            }
        }
        XCTAssertEqual(client.auth.expiry, Date(timeIntervalSince1970: TimeInterval(exp)))
    }

    func testDisconnectReportsTheExactCodeAndReasonOnTheEventStream() async throws {
        let server = FakeServer()
        let client = makeClient(server)
        let events = client.events()
        try await client.connect()
        server.connection?.serverClose(code: 4321, reason: "asked")
        var seen: [SessionEvent] = []
        for await event in events {
            seen.append(event)
            if case .closed = event { break }
        }
        XCTAssertTrue(seen.contains(.disconnected(.init(code: 4321, reason: "asked"))))
        XCTAssertEqual(client.state, .closed)
    }

    func testConnectThrowsOnConnectAbort() async throws {
        final class Refusing: SessionTransportFactory, SessionTransport, @unchecked Sendable {
            func open(
                url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
                onEvent: @escaping @Sendable (SessionTransportEvent) -> Void
            ) -> any SessionTransport {
                queue.async { onEvent(.closed(code: 1006, reason: "")) }
                return self
            }
            func send(utf8: [UInt8]) {}
            func send(binary: [UInt8]) {}
            func close(code: UInt16, reason: String) {}
            func closed() async -> WebSocketCloseInfo? { nil }
        }
        let client = PubSubClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "x"))) {
                $0.autoReconnect = false
            },
            tokenStore: InMemoryTokenStore(), transportFactory: Refusing())
        do {
            try await client.connect()
            XCTFail("expected connectionFailed")
        } catch let error as PubSubError {
            XCTAssertEqual(error, .connectionFailed(code: 1006, reason: "Socket hung up"))
        }
    }
}

/// Polls `condition` until it holds. `timeout` is only a safety net (CI runs two test workers on
/// two busy cores); the wait ends as soon as the condition holds.
func waitUntil(timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async throws {
    let start = ContinuousClock.now
    while !condition() {
        if ContinuousClock.now - start > timeout { throw PubSubError.timeout(event: "waitUntil") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

final class Counter: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var _values: [JSONValue?] = []
    var values: [JSONValue?] { lock.withLock { _values } }
    func append(_ value: JSONValue?) { lock.withLock { _values.append(value) } }
}
