// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

import Dispatch
import Foundation
import PubSubBroker
import PubSubClient
import XCTest

/// Runs the snippets of PubSubClient.docc/GettingStarted.md, in order, against an embedded broker. The code
/// between the `// Docs:` markers is the documentation's, except that the URL is the broker's
/// and the closure client's callback queue is a private one (the main queue does not run here).
final class GettingStartedTests: XCTestCase {
    func testGettingStartedSnippetsRunAgainstABroker() async throws {
        try await snippets()
        let lines = Transcript.shared.lines
        for exact in ["nobody", "logged in as alice", "announcement: Optional(\"Welcome\")",
                      "answered Optional({\"status\":\"online\"})", "lobby: Optional({\"text\":\"hello\"})",
                      "lobby: Optional({\"text\":\"hi\"})", "authenticated", "alice", "true no error",
                      "no answer to transfer", "ok Optional(\"alice\")", "Optional({\"text\":\"hi\"})"] {
            XCTAssertTrue(lines.contains(exact), "\(exact) not printed in:\n\(lines.joined(separator: "\n"))")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("socket ") && $0.hasSuffix("ping timeout 20.0 seconds authenticated: false") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("connected ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("no WebSocket: Connection failed: connection refused") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix(##"→ {"event":"#handshake","##) }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix(#"← {"rid":1,"data":{"id":"#) }, "\(lines)")
    }

    private func snippets() async throws {
        // Docs: A server to talk to
        let broker = try await PubSubBroker.start(port: 0)          // 0: any free port
        broker.procedure("login") { request in
            guard let name = request.data?["username"]?.stringValue else {
                throw RemoteError(name: "LoginError", message: "username missing")
            }
            try request.socket.setAuthToken(["username": .string(name)])   // pushes #setAuthToken (a JWT)
            return ["username": .string(name)]
        }
        broker.procedure("whoami") { request in request.socket.authToken?["username"] }
        let url = broker.url.absoluteString                          // ws://127.0.0.1:<port>/socketcluster/

        // Docs: Connect
        // Docs: let client = try PubSubClient(url: "ws://127.0.0.1:8000/socketcluster/")
        let client = try PubSubClient(url: url)
        let info = try await client.connect()        // returns after the SocketCluster #handshake
        print("socket", info.id, "ping timeout", info.pingTimeout, "authenticated:", info.isAuthenticated)

        var configuration = SessionConfiguration(address: ServerAddress(hostname: "chat.example.com", secure: true))
        // wss://chat.example.com/socketcluster/; every other option starts at its default
        configuration.headers = ["Origin": "https://chat.example.com"]
        configuration.connectTimeout = .seconds(10)
        configuration.ackTimeout = .seconds(5)
        let secureClient = PubSubClient(configuration: configuration)
        XCTAssertEqual(configuration.address.url, "wss://chat.example.com/socketcluster/")
        XCTAssertEqual(secureClient.state, .closed)

        // Docs: Emit and invoke
        try client.transmit("typing", ["room": "lobby"])     // one-way: no cid, no answer (server receiver)
        let me = try await client.invoke("whoami")            // JSONValue? (nil when the answer has no data)
        print(me?.stringValue ?? "nobody")           // "nobody": not logged in yet

        struct Login: Codable { var username: String }
        struct Welcome: Codable { var username: String }
        let welcome = try await client.invoke("login", Login(username: "alice"), as: Welcome.self,
                                              ackTimeout: .seconds(3))
        print("logged in as", welcome.username)

        Task {
            for await data in client.receiver("announcement") { print("announcement:", data as Any) }
        }
        Task {
            for await request in client.procedure("presence") {     // server invokes: answer each once
                try? request.respond(["status": "online"])
            }
        }
        // (the server's side of it)
        let socket = try XCTUnwrap(broker.sockets.first { $0.id == client.id })
        try await Task.sleep(for: .milliseconds(100))   // the receiver and procedure tasks register
        socket.transmit("announcement", "Welcome")
        print("answered", try await socket.invoke("presence") as Any)

        // Docs: Subscribe and publish
        try await client.subscribe("chat/lobby")                   // waits for the server's confirmation
        let lobby = client.channel("chat/lobby")                   // its publications, as an AsyncStream
        let reader = Task {
            for await message in lobby { print("lobby:", message as Any) }
        }
        try client.publish("chat/lobby", ["text": "hello"])        // fire and forget
        try await client.publishAck("chat/lobby", ["text": "hi"])  // waits until the server accepted it
        try await Task.sleep(for: .milliseconds(100))   // let the reader print
        reader.cancel()                                            // stops this stream
        client.unsubscribe("chat/lobby")                           // leaves the channel

        // Docs: Authentication
        _ = try await client.invoke("login", ["username": "alice"])
        print(client.auth.state)                        // .authenticated
        print(client.auth.token?["username"]?.stringValue ?? "")   // from the decoded JWT payload: alice
        print(client.auth.expiry ?? 0)                  // its exp claim, seconds since 1970
        let token = client.auth.signedToken             // the signed JWT itself

        client.deauthenticate()                         // drops it here and on the server
        if let token {
            let result = try await client.authenticate(token)   // #authenticate with a token you kept
            print(result.isAuthenticated, result.authError?.name ?? "no error")
        }

        let tokens = try FileTokenStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("tokens"))
        let remembered = PubSubClient(configuration: SessionConfiguration(address: try ServerAddress(url: url)),
                                      tokenStore: tokens)
        XCTAssertEqual(remembered.state, .closed)

        // Docs: Errors
        do {
            _ = try await client.invoke("transfer", ["amount": 100], ackTimeout: .seconds(1))
        } catch PubSubError.Code.timeout {             // no answer within ackTimeout
            print("no answer to transfer")
        } catch let error as PubSubError {
            switch error.code {
            case .remote:                              // the server answered with an error
                print(error.name, error.message, error.remote?["code"] as Any)
            case .badConnection:                       // the connection dropped first
                print(error.event ?? "", "lost in", error.badConnectionKind as Any, "with close code", error.closeCode as Any)
            default:                                   // new codes may come in minor releases
                print(error)                           // "CancellationError: Event transfer was cancelled ..."
            }
        }

        let offline = try PubSubClient(url: "ws://127.0.0.1:\(try closedPort())/socketcluster/")
        do {
            let client = offline   // the snippet's `client`, here one with nothing to connect to
            try await client.connect()
        } catch let error as PubSubError {
            switch error.code {
            case .transport:                           // no WebSocket: refused, unknown host, HTTP 404, TLS...
                print("no WebSocket:", error.message)  // "Connection failed: connection refused by 127.0.0.1 port 8000"
            case .connectionFailed:                    // the server closed before the handshake
                print("closed with", error.closeCode as Any, error.closeReason ?? "")   // e.g. 4003: no answer to #handshake
            case .handshakeRejected:                   // the server refused the handshake
                print(error.name, error.remote?.message ?? "", error.closeCode as Any)
            default:
                print(error)
            }
        }
        offline.disconnect()

        var traced = SessionConfiguration(address: try ServerAddress(url: url))
        traced.frameObserver = { direction, text in print(direction == .sent ? "→" : "←", text) }
        let tracedClient = PubSubClient(configuration: traced)
        try await tracedClient.connect()
        _ = await tracedClient.close()

        // Docs: The closure API
        let connected = expectation(description: "onConnect")
        let answered = expectation(description: "emitAck answered")
        let published = expectation(description: "publication received")
        let callbacks = DispatchQueue(label: "GettingStartedTests.callbacks")
        // Docs: let sc = try ScClient(url: "ws://127.0.0.1:8000/socketcluster/", callbackQueue: .main)
        let sc = try ScClient(url: url, tokenStore: InMemoryTokenStore(tokens: [tokensName(url): token ?? ""]),
                              callbackQueue: callbacks)
        // Docs: sc.setBasicListener(onConnect: { client in print("connected", client.id ?? "") },
        sc.setBasicListener(onConnect: { client in print("connected", client.id ?? ""); connected.fulfill() },
                            onConnectError: { _, close in print("failed", close.code, close.reason) },
                            onDisconnect: { _, close in print("closed", close.code, close.reason) })
        sc.connect()
        sc.emitAck(eventName: "whoami", data: nil) { _, error, data in
            print(error?.description ?? "ok", data as Any)
            answered.fulfill()
        }
        sc.subscribe(channelName: "chat/lobby")
        // Docs: sc.onChannel(channelName: "chat/lobby") { _, data in print(data as Any) }
        sc.onChannel(channelName: "chat/lobby") { _, data in print(data as Any); published.fulfill() }
        await fulfillment(of: [connected, answered], timeout: 5)
        try await Task.sleep(for: .milliseconds(100))   // the subscription completes
        sc.publish(channelName: "chat/lobby", data: ["text": "hi"])
        await fulfillment(of: [published], timeout: 5)
        sc.disconnect()

        // Docs: Finishing
        await client.close()         // close 1000, waits for the closing handshake; no reconnect afterwards
        await broker.stop()          // if you started one
    }

    /// The token store key the closure client reads its token from (so whoami answers "alice").
    private func tokensName(_ url: String) -> String {
        (try? ServerAddress(url: url).defaultTokenName) ?? ""
    }
}

/// What the snippets print, captured instead of going to the test log.
/// `@unchecked Sendable`: `captured` is only touched while holding `lock`.
final class Transcript: @unchecked Sendable {
    static let shared = Transcript()
    private let lock = NSLock()
    private var captured: [String] = []

    var lines: [String] { lock.withLock { captured } }

    func append(_ line: String) { lock.withLock { captured.append(line) } }
}

/// Shadows `Swift.print` in this file, so the snippets read exactly as in the docs.
private func print(_ items: Any..., separator: String = " ") {
    Transcript.shared.append(items.map { "\($0)" }.joined(separator: separator))
}
