// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

@testable import demo
import Foundation
import PubSubBroker
import PubSubClient
import XCTest

// PubSubClient.docc/StayingConnected.md: the pattern, verbatim.

/// The app's one connection, following the app's lifecycle.
final class AppConnection: Sendable {
    let client: PubSubClient

    init(url: String, tokenStore: any TokenStore) throws {
        client = PubSubClient(configuration: SessionConfiguration(address: try ServerAddress(url: url)),
                              tokenStore: tokenStore)
    }

    /// The app became active: connect (returns at once if already connected).
    func becameActive() async {
        do { try await client.connect() } catch { /* offline: the client retries by itself */ }
    }

    /// The app went to the background: close cleanly (1000), no reconnect until `becameActive`.
    func enteredBackground() {
        client.disconnect()
    }
}

// PubSubClient.docc/StayingConnected.md: showing the state, verbatim.
func showConnectionState(of client: PubSubClient, _ show: @escaping @Sendable (String) -> Void) -> Task<Void, Never> {
    Task {
        for await event in client.events() {
            switch event {
            case .connected: show("online")
            case .reconnectScheduled(let retry): show("reconnecting in \(retry.delay) (attempt \(retry.attempt))")
            case .disconnected(let close) where close.code == .normal: show("offline")
            case .authTokenExpiring: show("session expires soon")   // renew with your login procedure
            default: break
            }
        }
    }
}

/// What PubSubClient.docc/StayingConnected.md promises after a background/active cycle.
final class AppLifecycleTests: XCTestCase {
    func testBackgroundThenActiveRestoresTokenAndSubscriptionsAndStreams() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        broker.procedure("login") { request in
            try request.socket.setAuthToken(["username": "ann"])
            return nil
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AppLifecycleTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try AppConnection(url: broker.url.absoluteString, tokenStore: try FileTokenStore(directory: directory))
        let client = connection.client
        let states = LockedValue<[String]>([])
        let watcher = showConnectionState(of: client) { state in states.set(states.get() + [state]) }
        defer { watcher.cancel() }

        await connection.becameActive()
        XCTAssertEqual(client.state, .open)
        _ = try await client.invoke("login")
        try await client.subscribe("news")
        let news = Inbox(client.channel("news"))

        connection.enteredBackground()
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(client.state, .closed, "no reconnect while in the background")
        XCTAssertEqual(client.channelState("news"), .pending, "kept for the next connection")

        await connection.becameActive()
        XCTAssertEqual(client.state, .open)
        XCTAssertEqual(client.auth.state, .authenticated, "the stored token went with the handshake")
        let deadline = Date().addingTimeInterval(5)
        while client.channelState("news") != .subscribed && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(client.channelState("news"), .subscribed)

        broker.publish(channel: "news", data: "back again")
        let received = try await news.next("the publication after coming back")
        XCTAssertEqual(received, "back again")
        XCTAssertEqual(states.get().filter { $0 == "online" }.count, 2)
        XCTAssertTrue(states.get().contains("offline"))

        client.disconnect()
        await broker.stop()
    }
}
