import Foundation
import PubSubBroker
import PubSubClient

/// `demo` with no arguments: an embedded broker, alice and bob, and one line per step telling
/// what went over the wire. Every step waits for its outcome, so the story either completes in
/// order or stops with the step that failed.
struct Story {
    /// Also print every text frame each user sends and receives.
    var trace = false

    func run() async -> Int32 {
        do {
            try await tell()
            return 0
        } catch {
            Output.error("demo: the story stopped: \(error)")
            return 1
        }
    }

    private func tell() async throws {
        Output.line("pubsub-swift demo: an embedded SocketCluster broker, and alice and bob in a chat room")
        Output.line("(→ sent, ← answered, ⇒ what followed)")

        let broker = try await PubSubBroker.start(port: 0)
        ChatServices(broker: broker).install()
        step("broker", "listening on \(broker.url.absoluteString) with procedures login and whoami")

        let room = ChatMessage.channel(room: "lobby")
        let alice = try StoryUser(name: "alice", url: broker.url, trace: trace)
        let bob = try StoryUser(name: "bob", url: broker.url, trace: trace)

        // Connect: nothing else goes out before the #handshake is answered.
        for user in [alice, bob] {
            let info = try await user.client.connect()
            step(
                user.name,
                "→ #handshake {authToken: null}  ← id \(info.id.escapedForDisplay), pingTimeout \(info.pingTimeout) ms, "
                    + "isAuthenticated \(info.isAuthenticated)")
        }

        // RPC: one that fails with a typed remote error, then login, then one that answers.
        do {
            _ = try await bob.client.invoke("whoami")
            throw StoryError("whoami answered before bob logged in")
        } catch let error as PubSubError {
            guard error.code == .remote, let remote = error.remote else { throw error }
            step("bob", "→ invoke whoami  ← error \(remote) \(shown(JSONValue.object(remote.fields)))")
        }
        for user in [alice, bob] {
            _ = try await user.client.invoke("login", ["username": .string(user.name)])
            let auth = user.client.auth
            step(
                user.name,
                "→ invoke login {username: \(user.name)}  ← #setAuthToken \(abbreviated(auth.signedToken)) "
                    + "payload \(auth.token.map(shown) ?? "none"), then an empty answer")
        }
        let whoami = try await alice.client.invoke("whoami")
        step("alice", "→ invoke whoami  ← \(whoami.map(shown) ?? "no data")")

        // Pub/sub: both subscribe, then join, typing and messages go through the room channel.
        let aliceRoom = try await alice.join(room)
        step("alice", "→ #subscribe \(room)  ← subscribed")
        let bobRoom = try await bob.join(room)
        step("bob", "→ #subscribe \(room)  ← subscribed")

        try await bob.client.publishAck(room, bob.says(.join).json)
        step("bob", "→ #publish \(room) join  ⇒ alice sees \"\(try await aliceRoom.next(from: bob, .join, seenBy: "alice").display)\"")
        try bob.client.publish(room, bob.says(.typing).json)
        step("bob", "→ #publish \(room) typing  ⇒ alice sees \"\(try await aliceRoom.next(from: bob, .typing, seenBy: "alice").display)\"")
        try bob.client.publish(room, bob.says(.message, "Hi alice!").json)
        step("bob", "→ #publish \(room) message  ⇒ alice sees \"\(try await aliceRoom.next(from: bob, .message, seenBy: "alice").display)\"")
        try alice.client.publish(room, alice.says(.message, "Hello bob").json)
        step("alice", "→ #publish \(room) message  ⇒ bob sees \"\(try await bobRoom.next(from: alice, .message, seenBy: "bob").display)\"")

        // The server talks first: a transmit to a receiver, and an invoke answered by a procedure.
        guard let aliceID = alice.client.id, let aliceSocket = broker.sockets.first(where: { $0.id == aliceID }) else {
            throw StoryError("the broker does not list alice's socket")
        }
        let announcements = Inbox(alice.client.receiver("announcement"))
        let answering = Task {
            for await request in alice.client.procedure("presence") { try? request.respond(["status": "online"]) }
        }
        defer { answering.cancel() }
        aliceSocket.transmit("announcement", ["text": "Welcome to the lobby"])
        let announcement = try await announcements.next("alice's announcement")
        step("broker", "→ alice event announcement (no cid)  ⇒ alice's receiver gets \(announcement.map(shown) ?? "no data")")
        let presence = try await aliceSocket.invoke("presence")
        step("broker", "→ alice invoke presence  ← alice's procedure answers \(presence.map(shown) ?? "no data")")

        // The broker drops alice's connection; after the back-off delay she reconnects on her own,
        // re-authenticates with her stored token and resubscribes.
        aliceSocket.disconnect(code: 4100, reason: "Dropped by the demo")
        let lost = try await alice.events.next("alice's disconnect") {
            if case .disconnected = $0 { return true } else { return false }
        }
        let lostAt = ContinuousClock.now
        let retry = try await alice.events.next("alice's reconnect schedule") {
            if case .reconnectScheduled = $0 { return true } else { return false }
        }
        if case .disconnected(let close) = lost, case .reconnectScheduled(let schedule) = retry {
            step(
                "broker",
                "closes alice's socket  ⇒ alice: disconnected \(close.code.rawValue) \"\(close.reason.escapedForDisplay)\", "
                    + "reconnect in \(milliseconds(schedule.delay)) ms")
        }
        let reconnected = try await alice.events.next("alice's reconnection") {
            if case .connected = $0 { return true } else { return false }
        }
        if case .connected(let info) = reconnected {
            step(
                "alice",
                "→ #handshake {authToken: \(abbreviated(alice.client.auth.signedToken))} "
                    + "(automatic, \(milliseconds(ContinuousClock.now - lostAt)) ms later)  "
                    + "← new id \(info.id.escapedForDisplay), isAuthenticated \(info.isAuthenticated)")
        }
        _ = try await alice.events.next("alice's resubscription") {
            if case .subscribed(let subscription) = $0 { return subscription.channel == room } else { return false }
        }
        step("alice", "→ #subscribe \(room) again (automatic)  ← subscribed")
        try bob.client.publish(room, bob.says(.message, "Welcome back").json)
        step("bob", "→ #publish \(room) message  ⇒ alice sees \"\(try await aliceRoom.next(from: bob, .message, seenBy: "alice").display)\"")

        // Goodbyes.
        try await bob.client.publishAck(room, bob.says(.leave).json)
        let bobClosed = await bob.client.close().map { "close \($0.code.rawValue)" + ($0.wasClean ? " (clean)" : "") }
        step(
            "bob",
            "→ #publish \(room) leave, \(bobClosed ?? "already closed")  ⇒ alice sees "
                + "\"\(try await aliceRoom.next(from: bob, .leave, seenBy: "alice").display)\"")
        try await alice.client.publishAck(room, alice.says(.leave).json)
        let aliceClosed = await alice.client.close().map { "close \($0.code.rawValue)" + ($0.wasClean ? " (clean)" : "") }
        step("alice", "→ #publish \(room) leave, \(aliceClosed ?? "already closed")")
        await broker.stop()
        step("broker", "stopped")
        Output.line("The story is complete.")
    }

    /// One step: who acted, and what crossed the wire (→ sent, ← answered, ⇒ what followed).
    private func step(_ who: String, _ what: String) {
        Output.line(who.padding(toLength: 7, withPad: " ", startingAt: 0) + " " + what)
    }

    /// A JSON value from the other side, as text fit for the terminal.
    private func shown(_ value: JSONValue) -> String { "\(value)".escapedForDisplay }

    private func abbreviated(_ token: String?) -> String {
        guard let token else { return "none" }
        return token.count > 24 ? "\(token.prefix(24).escapedForDisplay)…" : token.escapedForDisplay
    }
}

/// Whole milliseconds of `duration`, for the story's lines.
private func milliseconds(_ duration: Duration) -> Int64 {
    let parts = duration.components
    return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
}
