// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

import Dispatch
import Foundation
import PubSubBroker
import PubSubClient
import XCTest

/// The code of the Migration article (PubSubClient.docc/Migration.md), run against an embedded broker with an `echo` procedure.
final class MigrationTests: XCTestCase {
    func testAfterSnippetEchoesThroughTheClosureAPI() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.procedure("echo") { request in request.data }
        let echoed = expectation(description: "echo answered")
        let printed = LockedValue<[String]>([])
        // What the snippet prints goes here.
        @Sendable func print(_ items: Any...) { printed.set(printed.get() + [items.map { "\($0)" }.joined(separator: " ")]) }

        // After (pubsub-swift)
        // Docs: let client = try ScClient(url: "ws://localhost:8000/socketcluster/")
        let client = try ScClient(url: broker.url.absoluteString, callbackQueue: DispatchQueue(label: "MigrationTests"))
        client.setBasicListener(onConnect: { client in
            client.emitAck(eventName: "echo", data: ["n": 1]) { name, error, data in
                if error == nil { print(data?["n"]?.intValue ?? 0) }
                echoed.fulfill()
            }
        }, onConnectError: nil, onDisconnect: { _, close in print(close.code, close.reason) })
        client.connect()

        await fulfillment(of: [echoed], timeout: 5)
        XCTAssertEqual(printed.get(), ["1"])
        client.disconnect()
        await broker.stop()
    }

    func testSavedTokenIsSentWithTheHandshake() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.procedure("whoami") { request in request.socket.authToken?["username"] }
        // A token signed with the broker's key, as a server would have issued it earlier.
        let savedToken = JWT.sign(payload: ["username": "ann", "exp": .int(Int64(Date().timeIntervalSince1970) + 600)],
                                  secret: try XCTUnwrap(broker.options.authKey))
        // Docs: let url = "ws://localhost:8000/socketcluster/"
        let url = broker.url.absoluteString

        // Docs: Tokens
        // Docs: let client = try ScClient(url: url, authToken: savedToken)   // the first handshake sends savedToken
        let client = try ScClient(url: url, authToken: savedToken, callbackQueue: DispatchQueue(label: "MigrationTests"))
        client.setAuthToken(token: savedToken)                       // or later: sent with the next handshake

        let answered = expectation(description: "whoami answered")
        let who = LockedValue<String?>(nil)
        client.setBasicListener(onConnect: { client in
            client.emitAck(eventName: "whoami") { _, _, data in
                who.set(data?.stringValue)
                answered.fulfill()
            }
        }, onConnectError: nil, onDisconnect: nil)
        client.connect()
        await fulfillment(of: [answered], timeout: 5)
        XCTAssertEqual(who.get(), "ann")
        XCTAssertEqual(client.getAuthToken(), savedToken)
        client.disconnect()
        await broker.stop()
    }

    func testOnAuthenticationIsCalledAfterEveryHandshakeAsBefore() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let client = try ScClient(url: broker.url.absoluteString, callbackQueue: DispatchQueue(label: "MigrationTests"))
        let reported = expectation(description: "onAuthentication after the handshake")
        let flag = LockedValue<Bool??>(nil)
        client.setAuthenticationListener(onSetAuthentication: nil, onAuthentication: { _, isAuthenticated in
            flag.set(isAuthenticated)
            reported.fulfill()
        })
        client.connect()
        await fulfillment(of: [reported], timeout: 5)
        XCTAssertEqual(flag.get(), .some(false))
        _ = await client.close()
        await broker.stop()
    }

    func testDisableSSLVerificationReplacementIsATestingOnlyTLSConfiguration() throws {
        var configuration = TLSConfiguration()
        configuration.allowUntrustedCertificatesForTestingOnly = true
        var options = WebSocketOptions()
        options.transportFactory = .tls(configuration)
        let client = ScClient(configuration: SessionConfiguration(address: try ServerAddress(url: "wss://localhost:8443/socketcluster/")),
                              webSocketOptions: options)
        XCTAssertEqual(client.state, .closed)
        XCTAssertFalse(TLSConfiguration().allowUntrustedCertificatesForTestingOnly, "verification is on by default")
    }

    func testPayloadTableRowsHold() throws {
        let data: JSONValue? = ["name": "ann", "age": 30, "ok": true, "none": .null]
        XCTAssertEqual(data?["name"]?.stringValue, "ann")
        XCTAssertEqual(data?["age"]?.intValue, 30)
        XCTAssertEqual(data?["ok"], .bool(true))
        XCTAssertEqual(data?["none"], .null)
        XCTAssertNil(data?["missing"])
        struct Person: Codable, Equatable { var name: String; var age: Int }
        let value = try JSONValue(encoding: Person(name: "ann", age: 30))
        XCTAssertEqual(try value.decode(Person.self), Person(name: "ann", age: 30))
    }
}

/// A value shared with callbacks. `@unchecked Sendable`: `value` is only touched while holding `lock`.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
