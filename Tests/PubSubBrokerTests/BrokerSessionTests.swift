import Foundation
import XCTest
@testable import PubSubBroker

/// Behaviour the recordings do not show, driven through the sans-I/O engine with a manual clock.
final class BrokerSessionTests: XCTestCase {
    private let secret = "test-secret"
    private let handshake = ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##

    private func makeDriver(_ configure: (inout BrokerOptions) -> Void = { _ in }) -> BrokerDriver {
        var options = BrokerOptions(authKey: secret)
        configure(&options)
        return BrokerDriver(options: options)
    }

    private func texts(_ outputs: [CapturingTransport.Output]) -> [String] {
        outputs.compactMap { if case .text(let text) = $0 { return text } else { return nil } }
    }

    private func connected(_ driver: BrokerDriver) -> BrokerConnectionID {
        let connection = driver.open()
        driver.send(handshake, on: connection)
        return connection
    }

    func testSocketIDsAreTwentyURLSafeCharactersWithCountingSuffix() {
        var generator = SocketIDGenerator()
        let first = generator.next()
        let second = generator.next()
        XCTAssertEqual(first.count, 20)
        XCTAssertTrue(first.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        XCTAssertTrue(first.hasSuffix("AAAA"))
        XCTAssertTrue(second.hasSuffix("AAAB"))
        XCTAssertNotEqual(first.prefix(14), second.prefix(14))
    }

    func testPublishFansOutToEverySubscriberInSubscriptionOrder() {
        let driver = makeDriver()
        let connections = (0..<3).map { _ in connected(driver) }
        for connection in connections.reversed() {
            driver.send(##"{"event":"#subscribe","data":{"channel":"room"},"cid":2}"##, on: connection)
        }
        driver.broker.publish(channel: "room", data: ["n": 1])
        driver.settle()
        for connection in connections {
            XCTAssertEqual(texts(driver.outputs(of: connection)).last, ##"{"event":"#publish","data":{"channel":"room","data":{"n":1}}}"##)
        }
        XCTAssertEqual(driver.broker.subscriberCount(channel: "room"), 3)
        driver.clientCloses(connections[0])
        XCTAssertEqual(driver.broker.subscriberCount(channel: "room"), 2)
    }

    func testFanOutOrderFollowsSubscriptionOrder() {
        let driver = makeDriver()
        let (a, b) = (connected(driver), connected(driver))
        var order: [BrokerConnectionID] = []
        driver.send(##"{"event":"#subscribe","data":{"channel":"room"},"cid":2}"##, on: b)
        driver.send(##"{"event":"#subscribe","data":{"channel":"room"},"cid":2}"##, on: a)
        // A copy of the core shows the order of the send actions one publish produces.
        var copy = driver.engine.read { $0 }
        copy.publish(channel: "room", data: 1)
        while let action = copy.nextAction() {
            if case .send(let connection, _) = action { order.append(connection) }
        }
        XCTAssertEqual(order, [b, a])
    }

    func testTransmitSubscribeDoesNotSubscribe() {
        let driver = makeDriver()
        let connection = connected(driver)
        driver.send(##"{"event":"#subscribe","data":{"channel":"room"}}"##, on: connection)
        XCTAssertEqual(driver.broker.subscriberCount(channel: "room"), 0)
        XCTAssertEqual(texts(driver.outputs(of: connection)).count, 1)
    }

    func testUnsubscribeInvokeAnswersAndStopsDelivery() {
        let driver = makeDriver()
        let connection = connected(driver)
        driver.send(##"{"event":"#subscribe","data":{"channel":"room"},"cid":2}"##, on: connection)
        driver.send(##"{"event":"#unsubscribe","data":"room","cid":3}"##, on: connection)
        driver.broker.publish(channel: "room", data: 1)
        XCTAssertEqual(Array(texts(driver.outputs(of: connection)).dropFirst()), [##"{"rid":2}"##, ##"{"rid":3}"##])
        driver.send(##"{"event":"#unsubscribe","data":5,"cid":4}"##, on: connection)
        XCTAssertEqual(
            texts(driver.outputs(of: connection)).last,
            ##"{"rid":4,"error":{"message":"Unsubscribe channel name was malformatted","name":"InvalidActionError"}}"##)
    }

    func testClientPublishCanBeDisabled() {
        let driver = makeDriver { $0.allowClientPublish = false }
        let connection = connected(driver)
        driver.send(##"{"event":"#publish","data":{"channel":"room","data":1},"cid":2}"##, on: connection)
        XCTAssertEqual(
            texts(driver.outputs(of: connection)).last,
            ##"{"rid":2,"error":{"message":"Client publish feature is disabled","name":"InvalidActionError"}}"##)
    }

    func testAuthenticateWithNotYetValidTokenAnswersDataWithAuthError() {
        let driver = makeDriver()
        let connection = connected(driver)
        let now = Int64(driver.clock.now.timeIntervalSince1970)
        let token = JWT.sign(payload: ["username": "bob", "nbf": .int(now + 60)], secret: secret)
        driver.send(##"{"event":"#authenticate","data":"\##(token)","cid":2}"##, on: connection)
        let answer = texts(driver.outputs(of: connection)).last.flatMap { try? JSONValue(parsing: $0) }
        XCTAssertEqual(answer?["data"]?["isAuthenticated"], false)
        XCTAssertEqual(answer?["data"]?["authError"]?["name"], "AuthTokenNotBeforeError")
        XCTAssertEqual(answer?["data"]?["authError"]?["isBadToken"], false)
        XCTAssertEqual(texts(driver.outputs(of: connection)).count, 2, "no #removeAuthToken for a not-yet-valid token")
    }

    func testAuthenticateWithNonStringTokenIsABadToken() {
        let driver = makeDriver()
        let connection = connected(driver)
        driver.send(##"{"event":"#authenticate","data":42,"cid":2}"##, on: connection)
        XCTAssertEqual(
            Array(texts(driver.outputs(of: connection)).dropFirst()),
            [
                ##"{"rid":2,"error":{"message":"Invalid token format - Token must be a string","name":"AuthTokenError","isBadToken":true}}"##,
                ##"{"event":"#removeAuthToken"}"##,
            ])
    }

    func testExpiredTokenIsRemovedOnTheNextPong() {
        let driver = makeDriver()
        let connection = driver.open()
        let now = Int64(driver.clock.now.timeIntervalSince1970)
        let token = JWT.sign(payload: ["username": "bob", "iat": .int(now), "exp": .int(now + 5)], secret: secret)
        driver.send(##"{"event":"#handshake","data":{"authToken":"\##(token)"},"cid":1}"##, on: connection)
        XCTAssertTrue(driver.broker.sockets.first?.isAuthenticated ?? false)
        driver.clock.advance(by: 6)
        driver.send("", on: connection)
        XCTAssertEqual(texts(driver.outputs(of: connection)).last, ##"{"event":"#removeAuthToken"}"##)
        XCTAssertFalse(driver.broker.sockets.first?.isAuthenticated ?? true)
    }

    func testExpiredTokenIsRemovedBeforeTheNextEventIsHandled() {
        let driver = makeDriver()
        driver.broker.procedure("whoami") { request in .bool(request.socket.isAuthenticated) }
        let connection = driver.open()
        let now = Int64(driver.clock.now.timeIntervalSince1970)
        let token = JWT.sign(payload: ["iat": .int(now), "exp": .int(now + 5)], secret: secret)
        driver.send(##"{"event":"#handshake","data":{"authToken":"\##(token)"},"cid":1}"##, on: connection)
        driver.clock.advance(by: 6)
        driver.send(##"{"event":"whoami","cid":2}"##, on: connection)
        XCTAssertEqual(
            Array(texts(driver.outputs(of: connection)).dropFirst()),
            [
                ##"{"event":"#removeAuthToken"}"##, ##"{"rid":2,"data":false}"##,
            ])
    }

    func testSetAuthTokenAddsIssuedAtAndDefaultExpiry() throws {
        let driver = makeDriver { $0.authDefaultExpiry = .seconds(60) }
        let connection = connected(driver)
        let socket = try XCTUnwrap(driver.broker.sockets.first)
        let token = try socket.setAuthToken(["username": "bob"])
        let now = Int64(driver.clock.now.timeIntervalSince1970)
        guard case .success(let payload) = JWT.verify(token, secret: secret, now: driver.clock.now) else {
            return XCTFail("token does not verify")
        }
        XCTAssertEqual(payload["iat"], .int(now))
        XCTAssertEqual(payload["exp"], .int(now + 60))
        XCTAssertEqual(socket.authToken?["username"], "bob")
        XCTAssertEqual(texts(driver.outputs(of: connection)).last, ##"{"event":"#setAuthToken","data":{"token":"\##(token)"}}"##)
    }

    func testSetAuthTokenBeforeHandshakeThrows() {
        let driver = makeDriver()
        let connection = driver.open()
        let socket = BrokerSocket(id: "x", connection: connection, engine: driver.engine)
        XCTAssertThrowsError(try socket.setAuthToken(["a": 1])) { error in
            XCTAssertEqual(error as? PubSubBrokerError, .socketNotOpen(socketID: "x"))
        }
    }

    func testServerInvokeTimesOutAfterAckTimeout() async throws {
        let driver = makeDriver { $0.ackTimeout = .milliseconds(500) }
        let connection = connected(driver)
        let socket = try XCTUnwrap(driver.broker.sockets.first)
        async let answer = socket.invoke("ask", "q")
        while texts(driver.outputs(of: connection)).count < 2 { await Task.yield() }
        XCTAssertEqual(texts(driver.outputs(of: connection)).last, ##"{"event":"ask","cid":1,"data":"q"}"##)
        XCTAssertTrue(driver.scheduler.fireNext(moving: driver.clock))
        do {
            _ = try await answer
            XCTFail("invoke should time out")
        } catch {
            XCTAssertEqual(error as? PubSubBrokerError, .invokeTimedOut(event: "ask"))
        }
    }

    func testServerInvokeFailsWhenTheConnectionCloses() async throws {
        let driver = makeDriver()
        let connection = connected(driver)
        let socket = try XCTUnwrap(driver.broker.sockets.first)
        async let answer = socket.invoke("ask")
        while texts(driver.outputs(of: connection)).count < 2 { await Task.yield() }
        driver.clientCloses(connection, code: 1001)
        do {
            _ = try await answer
            XCTFail("invoke should fail")
        } catch {
            XCTAssertEqual(error as? PubSubBrokerError, .connectionClosed(event: "ask"))
        }
    }

    func testKickOutWithoutChannelLeavesEveryChannel() throws {
        let driver = makeDriver()
        let connection = connected(driver)
        driver.send(##"{"event":"#subscribe","data":{"channel":"a"},"cid":2}"##, on: connection)
        driver.send(##"{"event":"#subscribe","data":{"channel":"b"},"cid":3}"##, on: connection)
        let socket = try XCTUnwrap(driver.broker.sockets.first)
        XCTAssertEqual(socket.subscriptions, ["a", "b"])
        socket.kickOut()
        driver.settle()
        XCTAssertEqual(
            Array(texts(driver.outputs(of: connection)).suffix(2)),
            [
                ##"{"event":"#kickOut","data":{"channel":"a"}}"##, ##"{"event":"#kickOut","data":{"channel":"b"}}"##,
            ])
        XCTAssertEqual(socket.subscriptions, [])
        XCTAssertEqual(driver.broker.subscriberCount(channel: "a"), 0)
    }

    func testConnectionAndDisconnectionAreReportedOnce() {
        let driver = makeDriver()
        let events = EventLog()
        driver.broker.onConnection { socket in events.append("join \(socket.id.count)") }
        driver.broker.onDisconnection { left in events.append("leave \(left.code) \(left.reason)") }
        let connection = connected(driver)
        driver.send(##"{"event":"#handshake","cid":2}"##, on: connection)
        driver.clientCloses(connection, code: 1001, reason: "bye")
        XCTAssertEqual(events.entries, ["join 20", "leave 1001 bye"])
    }

    func testHandshakeTimeoutDoesNotReportADisconnection() {
        let driver = makeDriver()
        let events = EventLog()
        driver.broker.onDisconnection { left in events.append("leave \(left.code)") }
        let connection = driver.open()
        XCTAssertTrue(driver.run(until: 2, on: connection))
        XCTAssertEqual(driver.outputs(of: connection), [.text(""), .close(code: 4005, reason: "")], "ping at 8 s, 4005 at 10 s")
        XCTAssertEqual(events.entries, [])
    }

    func testNoPingsWhenPingTimeoutIsDisabled() {
        let driver = makeDriver { $0.pingTimeoutDisabled = true }
        let connection = connected(driver)
        XCTAssertNil(driver.scheduler.nextDeadline)
        XCTAssertEqual(texts(driver.outputs(of: connection)).count, 1)
    }

    func testGarbageNeverCrashesAndLeavesTheSocketUsable() {
        let driver = makeDriver()
        driver.broker.procedure("echo") { request in request.data }
        let connection = connected(driver)
        let garbage = [
            "[", "]", "[]", "[[]]", "[1,2,3]", "{}", "null", "#1", "#2", ##"{"event":5}"##, ##"{"event":"x","cid":1.5}"##,
            ##"{"rid":"1"}"##, ##"{"event":"#publish","data":"room","cid":3}"##, ##"{"event":"#subscribe","cid":4}"##,
            ##"{"event":"#publish","data":{"channel":7},"cid":5}"##, String(repeating: "[", count: 10_000),
            ##"{"event":"#kickOut","data":{"channel":"x"}}"##, ##"{"event":"#setAuthToken","data":{}}"##,
        ]
        for text in garbage { driver.send(text, on: connection) }
        driver.sendBinary([0xFF, 0xFE, 0x00], on: connection)
        driver.send(##"{"event":"echo","data":"ok","cid":9}"##, on: connection)
        XCTAssertEqual(texts(driver.outputs(of: connection)).last, ##"{"rid":9,"data":"ok"}"##)
        XCTAssertFalse(driver.outputs(of: connection).contains { if case .close = $0 { return true } else { return false } })
    }

    func testHooksMayUseTheBrokerAndBatchesKeepTheirOrderAcrossAuthorizations() {
        let driver = makeDriver()
        let seen = EventLog()
        driver.broker.authorizePublish { [weak broker = driver.broker] request in
            // Reading broker state from a hook is safe: hooks run between two core inputs.
            seen.append("\(request.channel) \(broker?.subscriberCount(channel: request.channel) ?? -1)")
            if request.channel == "no" { throw RemoteError(name: "NoError", message: "no") }
        }
        driver.broker.authorizeSubscribe { _ in }
        driver.broker.procedure("echo") { request in request.data }
        let connection = connected(driver)
        driver.send(
            ##"[{"event":"#subscribe","data":{"channel":"a"},"cid":2},{"event":"#publish","data":{"channel":"a","data":1},"cid":3},"##
                + ##"{"event":"#publish","data":{"channel":"no"},"cid":4},{"event":"echo","data":"last","cid":5}]"##,
            on: connection)
        XCTAssertEqual(
            Array(texts(driver.outputs(of: connection)).dropFirst()),
            [
                ##"{"rid":2}"##,
                ##"{"event":"#publish","data":{"channel":"a","data":1}}"##,
                ##"{"rid":3}"##,
                ##"{"rid":4,"error":{"message":"no","name":"NoError"}}"##,
                ##"{"rid":5,"data":"last"}"##,
            ])
        XCTAssertEqual(seen.entries, ["a 1", "no 0"])
    }

    func testProcedureErrorsKeepNameMessageAndFields() {
        let driver = makeDriver()
        driver.broker.procedure("fail") { _ in throw RemoteError(name: "CustomError", message: "Nope", fields: ["code": 42]) }
        let connection = connected(driver)
        driver.send(##"{"event":"fail","cid":2}"##, on: connection)
        XCTAssertEqual(texts(driver.outputs(of: connection)).last, ##"{"rid":2,"error":{"message":"Nope","name":"CustomError","code":42}}"##)
    }

    func testOnlyTheFirstAnswerToARequestIsSent() {
        let driver = makeDriver()
        driver.broker.procedure("twice") { request in
            request.end("first")
            request.error(RemoteError(message: "second"))
            return "third"
        }
        let connection = connected(driver)
        driver.send(##"{"event":"twice","cid":2}"##, on: connection)
        XCTAssertEqual(Array(texts(driver.outputs(of: connection)).dropFirst()), [##"{"rid":2,"data":"first"}"##])
    }
}

/// Strings appended from handlers, read by the test.
final class EventLog: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ entry: String) {
        lock.lock()
        items.append(entry)
        lock.unlock()
    }

    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
