// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

import Dispatch
import Foundation
import PubSubBroker
import PubSubClient
import XCTest

/// Runs README.md's quick starts against an embedded broker with the procedures they call
/// (`echo`, `fail`). DocSnippetsTests checks that this file holds every line of them.
final class ReadmeQuickStartTests: XCTestCase {
    func testMinBinQuickStartConnectsToAMinBinBroker() async throws {
        // README: Against a real socketcluster-server (min-bin)
        var options = BrokerOptions()
        options.codec = MinBinPacketCodec()
        let broker = try await PubSubBroker.start(port: 0, options: options)  // a min-bin broker
        broker.procedure("echo") { request in request.data }
        // Docs: let client = try PubSubClient(url: "ws://127.0.0.1:8000/socketcluster/", codec: MinBinPacketCodec())
        let client = try PubSubClient(url: broker.url.absoluteString, codec: MinBinPacketCodec())
        // or: var configuration = SessionConfiguration(address: …); configuration.codec = MinBinPacketCodec()
        try await client.connect()
        let echoed = try await client.invoke("echo", .binary(Data([1, 2, 3])))
        XCTAssertEqual(echoed?.binaryData, Data([1, 2, 3]))
        await client.close()
        await broker.stop()
    }

    func testAsyncQuickStartRunsAgainstABroker() async throws {
        // README: The broker in one line
        let broker = try await PubSubBroker.start(port: 0)      // a free port; broker.url tells which
        broker.procedure("echo") { request in request.data }
        broker.procedure("fail") { _ in throw RemoteError(name: "FailError", message: "boom") }

        // README: Quick start: async/await
        // Docs: let client = try PubSubClient(url: "ws://localhost:8000/socketcluster/")
        let client = try PubSubClient(url: broker.url.absoluteString)
        let info = try await client.connect()                  // after the SocketCluster handshake
        print("socket", info.id, "authenticated:", info.isAuthenticated)

        let answer = try await client.invoke("echo", ["text": "hello"])        // JSONValue?
        try client.transmit("typing", ["user": "alice"])                       // one-way, no cid

        Task { for await message in client.channel("room") { print("room:", message ?? .null) } }
        try await client.subscribe("room")
        try await client.publishAck("room", ["text": "hi everyone"])

        Task { for await data in client.receiver("news") { print("news:", data ?? .null) } }
        Task { for await request in client.procedure("ping") { try request.respond("pong") } }

        // (the server's side: a transmit and an invoke, repeated until the tasks above have
        // registered their streams; a fixed sleep raced them on a loaded machine)
        let socket = try XCTUnwrap(broker.sockets.first)
        let giveUp = ContinuousClock.now + .seconds(20)
        while !ReadmeTranscript.shared.lines.contains("news: \"extra\""), ContinuousClock.now < giveUp {
            socket.transmit("news", "extra")
            try await Task.sleep(for: .milliseconds(50))
        }
        var pong: JSONValue?
        while pong == nil, ContinuousClock.now < giveUp {
            pong = try? await socket.invoke("ping", ackTimeout: .milliseconds(500))
            if pong == nil { try await Task.sleep(for: .milliseconds(50)) }
        }

        do { _ = try await client.invoke("fail", nil, ackTimeout: .seconds(3)) }
        catch let error as PubSubError { print(error.name, error.message) }  // e.g. FailError: boom

        await client.close(code: 1000, reason: "bye")          // waits for the closing handshake

        XCTAssertEqual(answer, ["text": "hello"])
        XCTAssertEqual(pong, "pong")
        let lines = ReadmeTranscript.shared.lines
        for expected in ["room: {\"text\":\"hi everyone\"}", "news: \"extra\"", "FailError boom"] {
            XCTAssertTrue(lines.contains(expected), "\(expected) not in \(lines)")
        }
        await broker.stop()
    }

    func testClosureQuickStartRunsAgainstABroker() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.procedure("echo") { request in request.data }
        let done = expectation(description: "echo answered and publication received")
        done.expectedFulfillmentCount = 2
        let callbacks = DispatchQueue(label: "ReadmeQuickStartTests")

        // README: Quick start: closures
        // Docs: let client = try ScClient(url: "ws://localhost:8000/socketcluster/", callbackQueue: .main)
        let client = try ScClient(url: broker.url.absoluteString, callbackQueue: callbacks)
        client.setBasicListener(
            onConnect: { _ in print("connected (handshake done)") },
            onConnectError: { _, close in print("could not connect:", close.code, close.reason) },
            onDisconnect: { _, close in print("disconnected:", close.code, close.reason) })
        client.setAuthenticationListener(
            onSetAuthentication: { _, token in print("token:", token ?? "") },
            onAuthentication: { _, isAuthenticated in print("authenticated:", isAuthenticated ?? false) })
        client.connect()

        client.emit(eventName: "chat", data: ["text": "hi"])
        client.emitAck(eventName: "echo", data: 42) { _, error, data in
            if let error { print(error.name, error.message) } else { print(data ?? .null) }
            done.fulfill()
        }
        client.onAck(eventName: "ask") { _, data, respond in respond(nil, ["answer": 42]) }
        client.subscribeAck(channelName: "room") { channel, error, _ in print(channel, error as Any) }
        // Docs: client.onChannel(channelName: "room") { channel, data in print(channel, data ?? .null) }
        client.onChannel(channelName: "room") { channel, data in print(channel, data ?? .null); done.fulfill() }
        client.publish(channelName: "room", data: "hello")

        await fulfillment(of: [done], timeout: 5)
        let answer = try await XCTUnwrap(broker.sockets.first).invoke("ask")
        XCTAssertEqual(answer, ["answer": 42])
        let lines = ReadmeTranscript.shared.lines
        for expected in ["connected (handshake done)", "authenticated: false", "42", "room \"hello\"", "room nil"] {
            XCTAssertTrue(lines.contains(expected), "\(expected) not in \(lines)")
        }
        _ = await client.close()
        await broker.stop()
    }
}

extension ReadmeQuickStartTests {
    /// README's TLS section against a `wss://` broker serving the test certificates (the README's
    /// pins are the test server's and the test CA's keys): the README configuration connects, and
    /// the same code with only another key's pin is refused with `pinMismatch`.
    func testTLSSectionPinsTheServerKey() async throws {
        let certificates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WireKitTests/TLSCertificates")
        let testCA = try String(contentsOf: certificates.appendingPathComponent("ca.pem"), encoding: .utf8)
        let otherKey = try String(contentsOf: certificates.appendingPathComponent("untrusted.pin"), encoding: .utf8)
        let broker = try await PubSubBroker.start(tls: try TLSServerConfiguration(
            certificateChainFile: certificates.appendingPathComponent("server-chain.pem"),
            privateKeyFile: certificates.appendingPathComponent("server-key.pem")))

        // README: TLS (`wss://`)
        var tls = TLSConfiguration()                       // system roots, host name verified, TLS >= 1.2
        tls.pinnedPublicKeys = [                           // SHA-256 of the SubjectPublicKeyInfo
            try TLSPublicKeyPin("sha256/r6OVJqJfpX2ZeSL2RZzkOeY078BAAWmPScYVIbCNmDE="),   // current key
            try TLSPublicKeyPin("sha256/YnkAewjCYIOW+9RMZW/YBbuvQEW0NYnrCNapVcIJ4dE="),   // backup key
        ]
        // Docs: // tls.trustRoots = .systemAnd(pem: companyCA)     // or .only(pem:) to replace the trust store
        tls.trustRoots = .only(pem: testCA)
        // tls.allowUntrustedCertificatesForTestingOnly = true   // tests only; pins still apply

        func connect(_ tls: TLSConfiguration) async throws -> PubSubClient {
            var configuration = SessionConfiguration(address: try ServerAddress(url: broker.url.absoluteString))
            configuration.autoReconnect = false
            var options = WebSocketOptions()
            options.transportFactory = .tls(tls)
            let client = PubSubClient(
                // Docs: configuration: SessionConfiguration(address: try ServerAddress(url: "wss://chat.example.com/socketcluster/")),
                configuration: configuration,
                webSocketOptions: options)
            do { try await client.connect() }
            catch let error as PubSubError where error.transport?.kind == .tls { print("TLS:", error.message) }   // e.g. pin mismatch, expired certificate
            return client
        }

        let pinned = try await connect(tls)
        XCTAssertEqual(pinned.state, .open)
        XCTAssertEqual(ReadmeTranscript.shared.lines.filter { $0.hasPrefix("TLS:") }, [])
        _ = await pinned.close()

        tls.pinnedPublicKeys = [try TLSPublicKeyPin(otherKey.trimmingCharacters(in: .whitespacesAndNewlines))]
        let refused = try await connect(tls)
        XCTAssertNotEqual(refused.state, .open)
        let lines = ReadmeTranscript.shared.lines.filter { $0.hasPrefix("TLS:") }
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.lowercased().contains("pin") == true, "\(lines)")
        refused.disconnect()
        await broker.stop()
    }
}

/// What the quick starts print. `@unchecked Sendable`: `captured` is only touched while holding `lock`.
final class ReadmeTranscript: @unchecked Sendable {
    static let shared = ReadmeTranscript()
    private let lock = NSLock()
    private var captured: [String] = []
    var lines: [String] { lock.withLock { captured } }
    func append(_ line: String) { lock.withLock { captured.append(line) } }
}

/// Shadows `Swift.print` in this file, so the quick starts read exactly as in the README.
private func print(_ items: Any..., separator: String = " ") {
    ReadmeTranscript.shared.append(items.map { "\($0)" }.joined(separator: separator))
}
