import XCTest
@testable import PubSubClient

/// Replays every JS-client recording of socketcluster-server 19 (protocol 2 and protocol 1)
/// against the session core: the server's frames go in, the user actions the scenario implies
/// are made, and every frame the core writes must equal what the JS client wrote.
final class RecordingReplayTests: XCTestCase {
    static let validToken =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VybmFtZSI6ImFsaWNlIiwiaWF0IjoxNzAwMDAwMDAwLCJleHAiOjQxMDI0NDQ4MDB9.kGADQPjeIv6USYeSV4bSZnLqwkxEGwaH1tX5ORHkL3M"

    struct Scenario {
        var storedToken: String? = nil
        var steps: [UserStep] = []
        var answer: (@Sendable (String, JSONValue?) -> Result<JSONValue?, RemoteError>)? = nil
        var verify: (RecordingReplayer.Outcome) -> Void = { _ in }
    }

    static func invoke(_ event: String, _ data: JSONValue?) -> UserStep {
        { session, now in _ = session.invoke(event, data: data, now: now) }
    }
    static func transmit(_ event: String, _ data: JSONValue?) -> UserStep {
        { session, now in try? session.transmit(event, data: data, now: now) }
    }
    static func subscribe(_ channel: String, _ options: SubscriptionOptions = SubscriptionOptions()) -> UserStep {
        { session, now in session.subscribe(channel, options: options, now: now) }
    }

    /// The token the recording's handshake carried, used as the stored token.
    static func handshakeToken(_ fileName: String) -> String? {
        guard case .clientText(let text)? = try? Recording.load(fileName).first,
            let value = try? JSONValue(parsing: text)
        else { return nil }
        return value["data"]?["authToken"]?.stringValue
    }

    static func firstResult(_ outcome: RecordingReplayer.Outcome) -> Result<JSONValue?, PubSubError>? {
        outcome.completionOrder.first.flatMap { outcome.completions[$0] }
    }

    static func handshakeRejectsToken(_ errorName: String) -> (RecordingReplayer.Outcome) -> Void {
        { outcome in
            let connected = outcome.events.compactMap { event -> HandshakeInfo? in
                if case .connected(let info) = event { return info } else { return nil }
            }
            XCTAssertEqual(connected.first?.isAuthenticated, false)
            XCTAssertEqual(connected.first?.authError?.name, errorName)
            XCTAssertEqual(connected.first?.authError?.fields["isBadToken"], true)
            XCTAssertEqual(outcome.removedTokens, 1, "#removeAuthToken deletes the stored token")
            XCTAssertTrue(
                outcome.events.contains {
                    if case .authTokenRemoved(let removal) = $0, let old = removal.oldSignedToken { return !old.isEmpty } else { return false }
                })
            XCTAssertNil(outcome.session?.tokenForNextHandshake)
            XCTAssertEqual(outcome.session?.auth.state, .unauthenticated)
        }
    }

    static func scenarios() -> [String: Scenario] {
        var all: [String: Scenario] = [:]
        all["handshake"] = Scenario(verify: { outcome in
            XCTAssertTrue(
                outcome.events.contains {
                    if case .connected(let info) = $0 {
                        return info.pingTimeout == .seconds(20) && !info.isAuthenticated && info.id.count == 20
                    } else {
                        return false
                    }
                })
            guard case .success(let info)? = outcome.connected else { return XCTFail("connect: \(String(describing: outcome.connected))") }
            XCTAssertTrue(outcome.events.contains(.connected(info)), "connect completes with the handshake")
            XCTAssertTrue(outcome.events.contains(.disconnected(.init(code: 1000, reason: ""))))
        })
        all["handshake-valid-token"] = Scenario(
            storedToken: validToken,
            verify: { outcome in
                XCTAssertEqual(outcome.session?.auth.state, .authenticated)
                XCTAssertEqual(outcome.session?.auth.token?["username"], "alice")
                XCTAssertTrue(outcome.events.contains(.authenticated(.init(signedToken: validToken, token: outcome.session?.auth.token))))
            })
        all["handshake-expired-token"] = Scenario(verify: handshakeRejectsToken("AuthTokenExpiredError"))
        all["handshake-bad-signature-token"] = Scenario(verify: handshakeRejectsToken("AuthTokenInvalidError"))
        all["handshake-garbage-token"] = Scenario(verify: handshakeRejectsToken("AuthTokenInvalidError"))
        all["ping-pong"] = Scenario()
        all["emit-no-ack"] = Scenario(
            steps: [transmit("tick", ["n": 1]), transmit("tick", nil), invoke("count", nil)],
            verify: { XCTAssertEqual(firstResult($0), .success(2)) })
        all["invoke-echo"] = Scenario(
            steps: [invoke("echo", ["hello": "world", "n": [1, 2, 3]])],
            verify: { XCTAssertEqual(firstResult($0), .success(["hello": "world", "n": [1, 2, 3]])) })
        all["invoke-echo-no-data"] = Scenario(
            steps: [invoke("echo", nil)],
            verify: { XCTAssertEqual(firstResult($0), .success(nil)) })
        all["invoke-fail"] = Scenario(
            steps: [invoke("fail", 1)],
            verify: { outcome in
                XCTAssertEqual(firstResult(outcome), .failure(.remote(RemoteError(name: "FailError", message: "boom"))))
            })
        all["invoke-out-of-order"] = Scenario(
            steps: [invoke("slow", ["ms": 200]), invoke("echo", "fast")],
            verify: { outcome in
                // The calls after `connect`: the second invoke is answered first.
                let connect = outcome.connectCall?.rawValue ?? 0
                XCTAssertEqual(outcome.completionOrder.map(\.rawValue), [connect + 2, connect + 1])
            })
        all["invoke-unknown-procedure"] = Scenario(
            steps: [invoke("nosuch", 1)],
            verify: { outcome in
                XCTAssertEqual(firstResult(outcome), .failure(.badConnection(event: "nosuch", kind: .disconnect, code: 1000, reason: "")))
            })
        all["kickout"] = Scenario(
            steps: [subscribe("room"), invoke("kickMe", ["channel": "room"])],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.kickedOut(.init(channel: "room", message: "bye"))))
                XCTAssertTrue(outcome.events.contains(.channelStateChanged(.init(channel: "room", old: .subscribed, new: .unsubscribed))))
                XCTAssertEqual(outcome.session?.channelState("room"), .unsubscribed)
            })
        all["login"] = Scenario(
            steps: [invoke("login", ["username": "alice"])],
            verify: { outcome in
                XCTAssertEqual(firstResult(outcome), .success("ok"))
                XCTAssertEqual(outcome.session?.auth.state, .authenticated)
                XCTAssertEqual(outcome.session?.auth.token?["username"], "alice")
                XCTAssertEqual(outcome.savedTokens.count, 1)
                XCTAssertEqual(outcome.savedTokens.first, outcome.session?.auth.signedToken)
            })
        all["logout"] = Scenario(
            storedToken: validToken, steps: [invoke("logout", nil)],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.authTokenRemoved(.init(oldSignedToken: validToken))))
                XCTAssertTrue(
                    outcome.events.contains {
                        if case .deauthenticated(let change) = $0, change.oldSignedToken == validToken { return true } else { return false }
                    })
                XCTAssertEqual(outcome.session?.auth.state, .unauthenticated)
            })
        all["authenticate"] = Scenario(
            steps: [{ session, now in _ = session.authenticate(validToken, now: now) }],
            verify: { outcome in
                XCTAssertEqual(firstResult(outcome), .success(["isAuthenticated": true, "authError": nil]))
                XCTAssertEqual(outcome.session?.auth.state, .authenticated)
                XCTAssertEqual(outcome.session?.tokenForNextHandshake, validToken)
            })
        all["authenticate-bad-token"] = Scenario(
            steps: [{ session, now in _ = session.authenticate("not.a.jwt", now: now) }],
            verify: { outcome in
                guard case .failure(let failure)? = firstResult(outcome), failure.code == .remote, let error = failure.remote else {
                    return XCTFail("expected a remote error")
                }
                XCTAssertEqual(error.name, "AuthTokenInvalidError")
                XCTAssertEqual(error.message, "invalid token")
                XCTAssertEqual(outcome.removedTokens, 1)
            })
        all["client-deauthenticate"] = Scenario(
            storedToken: validToken,
            steps: [{ session, now in session.deauthenticate(now: now) }, invoke("echo", "sync")],
            verify: { outcome in
                XCTAssertEqual(outcome.session?.auth.state, .unauthenticated)
                XCTAssertNil(outcome.session?.tokenForNextHandshake)
            })
        all["subscribe"] = Scenario(
            steps: [subscribe("news")],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.subscribed(.init(channel: "news", options: SubscriptionOptions()))))
            })
        all["subscribe-with-data"] = Scenario(
            steps: [subscribe("news", SubscriptionOptions(data: ["since": 5]))],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.subscribed(.init(channel: "news", options: SubscriptionOptions(data: ["since": 5])))))
                XCTAssertEqual(outcome.session?.channelState("news"), .pending, "kept for resubscription after the close")
            })
        all["subscribe-rejected"] = Scenario(
            steps: [subscribe("private/secret")],
            verify: { outcome in
                XCTAssertTrue(
                    outcome.events.contains {
                        if case .subscribeFailed(let failure) = $0, failure.channel == "private/secret", !failure.willRetry {
                            return failure.error.code == .remote && failure.error.remote?.name == "PrivateChannelError"
                        }
                        return false
                    })
                XCTAssertEqual(outcome.session?.channelState("private/secret"), .unsubscribed)
            })
        all["subscribe-private-authenticated"] = Scenario(
            storedToken: validToken, steps: [subscribe("private/secret")],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.subscribed(.init(channel: "private/secret", options: SubscriptionOptions()))))
            })
        all["publish-receive-own"] = Scenario(
            steps: [
                subscribe("news"),
                { session, now in _ = session.publishWithAck("news", data: ["headline": "hi"], now: now) },
                { session, now in try? session.publish("news", data: "second", now: now) },
            ],
            verify: { outcome in
                XCTAssertEqual(
                    outcome.events.filter { if case .publication = $0 { return true } else { return false } },
                    [.publication(.init(channel: "news", data: ["headline": "hi"])), .publication(.init(channel: "news", data: "second"))])
                XCTAssertEqual(firstResult(outcome), .success(nil))
            })
        all["publish-rejected"] = Scenario(
            steps: [{ session, now in _ = session.publishWithAck("readonly/x", data: 1, now: now) }],
            verify: { outcome in
                guard case .failure(let failure)? = firstResult(outcome), failure.code == .remote, let error = failure.remote else {
                    return XCTFail("expected a remote error")
                }
                XCTAssertEqual(error.name, "ReadOnlyChannelError")
            })
        all["unsubscribe"] = Scenario(
            steps: [subscribe("news"), { session, now in session.unsubscribe("news", now: now) }, invoke("echo", "sync")],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.unsubscribed(.init(channel: "news"))))
            })
        all["server-invoke"] = Scenario(
            steps: [invoke("serverInvoke", ["payload": "what?"])],
            answer: { event, data in
                XCTAssertEqual(event, "ask")
                XCTAssertEqual(data, "what?")
                return .success(["answer": 42])
            }, verify: { XCTAssertEqual(firstResult($0), .success(["answer": 42])) })
        all["server-invoke-error"] = Scenario(
            steps: [invoke("serverInvoke", ["payload": "what?"])],
            answer: { _, _ in .failure(RemoteError(name: "AskError", message: "nope")) },
            verify: { outcome in
                XCTAssertEqual(firstResult(outcome), .failure(.remote(RemoteError(name: "AskError", message: "nope"))))
            })
        all["server-emit"] = Scenario(
            steps: [invoke("serverEmit", ["event": "note", "payload": ["x": 1]])],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.message(.init(event: "note", data: ["x": 1]))))
            })
        all["server-publish"] = Scenario(
            steps: [subscribe("alerts"), invoke("serverPublish", ["channel": "alerts", "payload": "fire"])],
            verify: { XCTAssertTrue($0.events.contains(.publication(.init(channel: "alerts", data: "fire")))) })
        all["chat-broadcast"] = Scenario(
            steps: [subscribe("chat"), transmit("chat", ["text": "yo"])],
            verify: { XCTAssertTrue($0.events.contains(.publication(.init(channel: "chat", data: ["text": "yo"])))) })
        all["server-disconnect-4321"] = Scenario(
            steps: [invoke("disconnectMe", nil)],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.disconnected(.init(code: 4321, reason: "asked"))))
                XCTAssertTrue(outcome.events.contains(.error(.socketProtocol(code: 4321, reason: "asked"))))
                XCTAssertEqual(outcome.session?.state, .closed)
            })
        all["batch-server"] = Scenario(
            steps: [invoke("batchEmit", ["event": "b", "payloads": [1, 2, 3]])],
            verify: { outcome in
                XCTAssertEqual(
                    outcome.events.filter { if case .message = $0 { return true } else { return false } },
                    [.message(.init(event: "b", data: 1)), .message(.init(event: "b", data: 2)), .message(.init(event: "b", data: 3))])
                XCTAssertEqual(firstResult(outcome), .success(3))
            })
        all["batch-client"] = Scenario(
            steps: [
                { session, now in
                    session.startBatch()
                    try? session.transmit("tick", data: "a", now: now)
                    try? session.transmit("tick", data: "b", now: now)
                    _ = session.invoke("echo", data: "x", now: now)
                    session.flushBatch()
                }
            ], verify: { XCTAssertEqual(firstResult($0), .success("x")) })
        for name in ["handshake-expired-token", "handshake-bad-signature-token", "handshake-garbage-token"] {
            all[name]?.storedToken = handshakeToken("\(name).proto2.jsonl")
        }
        return all
    }

    func testEveryJSClientScenarioIsScripted() throws {
        let names = try Recording.scenarioNames()
        XCTAssertEqual(names.count, 33)
        XCTAssertEqual(Set(names).subtracting(Self.scenarios().keys), [], "recordings without a replay script")
    }

    func testEveryProtocol2RecordingReplays() throws {
        try replayAll(suffix: "proto2")
    }

    func testEveryProtocol1RecordingReplays() throws {
        try replayAll(suffix: "proto1")
    }

    private func replayAll(suffix: String) throws {
        var exact = 0
        var equivalent = 0
        for (name, scenario) in Self.scenarios().sorted(by: { $0.key < $1.key }) {
            let replayer = RecordingReplayer(
                fileName: "\(name).\(suffix).jsonl", storedToken: scenario.storedToken,
                steps: scenario.steps, answer: scenario.answer)
            let outcome = try replayer.run()
            scenario.verify(outcome)
            exact += outcome.exactFrames
            equivalent += outcome.equivalentFrames
        }
        XCTAssertEqual(equivalent, 0, "every client frame should match byte for byte")
        XCTAssertGreaterThan(exact, 60)
    }
}
