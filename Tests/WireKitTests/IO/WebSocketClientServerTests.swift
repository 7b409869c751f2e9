import Dispatch
import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// Our client against our server over loopback TCP.
final class WebSocketClientServerTests: XCTestCase {
    /// A server echoing every message through the callback API.
    private func makeEchoServer(options: WebSocketServerOptions = WebSocketServerOptions()) throws -> WebSocketServer {
        try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { connection in
            connection.onText = { [weak connection] text in try? connection?.write(text: text) }
            connection.onBinary = { [weak connection] data in try? connection?.write(data: data) }
        }
    }

    func testAsyncClientEchoesTextAndBinaryOfEveryLengthClass() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/echo?x=1")
        try await client.connect()
        var iterator = client.messages.makeAsyncIterator()
        for length in [0, 1, 125, 126, 65535, 65536, 1 << 20] {
            let bytes = testBytes(count: length, seed: UInt64(length) + 1)
            try await client.send(data: Data(bytes))
            let message = await iterator.next()
            XCTAssertEqual(message, .binary(Data(bytes)), "binary of \(length) bytes")
            let text = String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "a" : "")
            try await client.send(text: text)
            let echoed = await iterator.next()
            XCTAssertEqual(echoed, .text(text), "text of \(length) bytes")
        }
        let info = await client.close(code: .normalClosure, reason: "done")
        XCTAssertEqual(info.code, .normalClosure)
        XCTAssertTrue(info.wasClean)
        XCTAssertNil(info.error)
        let end = await iterator.next()
        XCTAssertNil(end, "messages finishes once closed")
        await server.stop()
    }

    /// `messages` is made when first read or yielded to: what arrived before it was read waits
    /// in it, and one first read after the close is finished at once.
    func testMessagesFirstReadAfterTheCloseHoldWhatArrivedThenFinish() async throws {
        let server = try WebSocketServer.start()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        var connections = server.connections.makeAsyncIterator()
        let next = await connections.next()
        let connection = try XCTUnwrap(next)
        try await connection.send(text: "kept")
        try await connection.send(text: "and this")
        _ = await connection.close(code: .normalClosure, reason: "")
        // The client has not read `messages` yet; the close came after both messages.
        let info = await client.closed
        XCTAssertEqual(info.code, .normalClosure)
        var iterator = client.messages.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        let end = await iterator.next()
        XCTAssertEqual(first, .text("kept"))
        XCTAssertEqual(second, .text("and this"))
        XCTAssertNil(end)

        let quiet = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await quiet.connect()
        _ = await quiet.close(code: .normalClosure, reason: "")
        var quietIterator = quiet.messages.makeAsyncIterator()
        let nothing = await quietIterator.next()
        XCTAssertNil(nothing, "a stream first read after the close is finished")
        await server.stop()
    }

    func testServerSeesRequestPathHeadersAndNegotiatedSubprotocol() async throws {
        let seen = LockedBox<WebSocketHandshakeInfo?>(nil)
        let server = try WebSocketServer.start(options: configured(WebSocketServerOptions()) { $0.subprotocols = ["chat.v2", "chat.v1"] }) { connection in
            seen.value = connection.handshakeInfo
        }
        var options = configured(WebSocketOptions()) {
            $0.origin = "http://example.test"; $0.subprotocols = ["chat.v1", "chat.v2"]
        }
        options.headers.add(name: "Authorization", value: "Bearer 123")
        let client = try WebSocket(url: "ws://localhost:\(server.port)/room/7?user=ann", options: options)
        try await client.connect()
        XCTAssertEqual(client.handshakeInfo?.subprotocol, "chat.v2")
        let request = try XCTUnwrap(seen.value)
        XCTAssertEqual(request.resourceName, "/room/7?user=ann")
        XCTAssertEqual(request.headers.first(name: "Host"), "localhost:\(server.port)")
        XCTAssertEqual(request.headers.first(name: "Origin"), "http://example.test")
        XCTAssertEqual(request.headers.first(name: "authorization"), "Bearer 123")
        await client.close()
        await server.stop()
    }

    func testCallbacksDeliverOpenMessagesAndCloseOnTheChosenQueue() throws {
        let server = try makeEchoServer()
        let callbackQueue = DispatchQueue(label: "callbacks")
        let key = DispatchSpecificKey<Int>()
        callbackQueue.setSpecific(key: key, value: 42)
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/", callbackQueue: callbackQueue)
        let log = LockedBox<[String]>([])
        let opened = expectation(description: "open")
        let gotBoth = expectation(description: "messages")
        gotBoth.expectedFulfillmentCount = 2
        let closed = expectation(description: "close")
        client.onOpen = { _ in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), 42)
            log.mutate { $0.append("open") }
            opened.fulfill()
        }
        client.onText = { text in
            log.mutate { $0.append("text:\(text)") }; gotBoth.fulfill()
        }
        client.onBinary = { data in
            log.mutate { $0.append("binary:\(data.count)") }; gotBoth.fulfill()
        }
        client.onClose = { info in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), 42)
            log.mutate { $0.append("close:\(info.code.rawValue):\(info.wasClean)") }
            closed.fulfill()
        }
        client.onError = { error in XCTFail("unexpected error \(error)") }
        client.open()
        wait(for: [opened], timeout: 10)
        try client.write(text: "hello")
        try client.write(data: Data([1, 2, 3]))
        wait(for: [gotBoth], timeout: 10)
        client.disconnect(code: WebSocketCloseCode(4000), reason: "bye")
        wait(for: [closed], timeout: 10)
        XCTAssertEqual(log.value, ["open", "text:hello", "binary:3", "close:4000:true"])
        server.stop {}
    }

    func testCloseStartedByTheServerReachesTheClientWithCodeAndReason() async throws {
        let serverSide = LockedBox<WebSocketCloseInfo?>(nil)
        let server = try WebSocketServer.start { connection in
            connection.onText = { [weak connection] text in
                guard text == "close me", let connection else { return }
                Task {
                    let info = await connection.close(code: .policyViolation, reason: "asked to")
                    serverSide.value = info
                }
            }
        }
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)")
        try await client.connect()
        try await client.send(text: "close me")
        let info = await client.closed
        XCTAssertEqual(info.code, .policyViolation)
        XCTAssertEqual(info.reason, "asked to")
        XCTAssertTrue(info.wasClean)
        for _ in 0..<100 where serverSide.value == nil { try await Task.sleep(for: .milliseconds(10)) }
        // The server sees the client's echo of its own code.
        XCTAssertEqual(serverSide.value?.code, .policyViolation)
        XCTAssertEqual(serverSide.value?.wasClean, true)
        await server.stop()
    }

    func testPingCompletesWhenThePongArrives() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)")
        try await client.connect()
        try await client.ping()
        try await client.ping(timeout: .seconds(5))
        await client.close()
        do {
            try await client.ping()
            XCTFail("ping after close must throw")
        } catch {
            XCTAssertEqual(error, .closed)
        }
        await server.stop()
    }

    func testSendBeforeConnectThrowsNotOpenAndAfterCloseThrowsClosed() async throws {
        let server = try makeEchoServer()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)")
        XCTAssertThrowsError(try client.write(text: "early")) { XCTAssertEqual($0 as? WebSocketError, .notOpen) }
        try await client.connect()
        await client.close()
        do {
            try await client.send(text: "late")
            XCTFail("send after close must throw")
        } catch {
            XCTAssertEqual(error, .closed)
        }
        await server.stop()
    }

    func testRefusedConnectionThrowsConnectionFailed() async throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        try await Task.sleep(for: .milliseconds(50))
        let client = try WebSocket(url: "ws://127.0.0.1:\(port)")
        do {
            try await client.connect()
            XCTFail("connect must fail")
        } catch {
            XCTAssertEqual(error, .transport(.connectionRefused(host: "127.0.0.1", port: port)))
            XCTAssertTrue(error.description.contains("refused"), error.description)
        }
        XCTAssertEqual(client.closeInfo?.code, .abnormalClosure)
    }

    func testWssThroughThePlainTCPFactoryFailsWithUnsupported() async throws {
        let client = try WebSocket(url: "wss://127.0.0.1:1/", options: configured(WebSocketOptions()) { $0.transportFactory = .plainTCP })
        do {
            try await client.connect()
            XCTFail("wss must fail without TLS")
        } catch {
            guard error.code == .transport, error.transportError?.code == .unsupported else { return XCTFail("got \(error)") }
        }
    }

    func testUnknownHostIsATypedTransportError() async throws {
        let client = try WebSocket(url: "ws://no-such-host.invalid:8080/")
        do {
            try await client.connect()
            XCTFail("connect must fail")
        } catch {
            guard case .transport = error.code, let failure = error.transportError, case .hostNotFound = failure.code else {
                return XCTFail("got \(error)")
            }
            XCTAssertEqual(failure.host, "no-such-host.invalid")
        }
    }

    func testServerOnATakenPortThrowsAddressInUse() throws {
        let first = try WebSocketServer.start()
        defer { first.stop {} }
        XCTAssertThrowsError(try WebSocketServer.start(port: first.port)) { error in
            XCTAssertEqual(error as? WebSocketError, .transport(.addressInUse(host: "127.0.0.1", port: first.port)))
        }
    }

    func testInvalidURLIsRejectedAtInit() {
        XCTAssertThrowsError(try WebSocket(url: "http://example.com/")) { error in
            guard case WebSocketError.Code.invalidURL = error else { return XCTFail("got \(error)") }
        }
    }

    func testServerAnswersBadUpgradeRequestsWith400And426() throws {
        let server = try makeEchoServer()
        defer { server.stop {} }
        let notWebSocket = try rawExchange(port: server.port, request: "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(notWebSocket.hasPrefix("HTTP/1.1 400"), notWebSocket)
        let oldVersion = try rawExchange(
            port: server.port,
            request:
                "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n"
        )
        XCTAssertTrue(oldVersion.hasPrefix("HTTP/1.1 426"), oldVersion)
        XCTAssertTrue(oldVersion.contains("Sec-WebSocket-Version: 13"), oldVersion)
        let good = try rawExchange(
            port: server.port,
            request:
                "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            untilClosed: false)
        XCTAssertTrue(good.hasPrefix("HTTP/1.1 101"), good)
        XCTAssertTrue(good.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), good)
    }

    func testUnmaskedFrameFromAClientFailsTheConnectionWith1002() throws {
        let server = try makeEchoServer()
        defer { server.stop {} }
        // A valid upgrade followed by an unmasked text frame "hi".
        let reply = try rawExchangeBytes(
            port: server.port,
            request:
                "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            extra: [0x81, 0x02, 0x68, 0x69])
        let headEnd = try XCTUnwrap((0..<max(0, reply.count - 3)).first { reply[$0..<$0 + 4] == [13, 10, 13, 10] })
        XCTAssertTrue(String(decoding: reply[..<headEnd], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
        let frame = Array(reply[(headEnd + 4)...])
        XCTAssertGreaterThanOrEqual(frame.count, 4, "a close frame follows the 101")
        XCTAssertEqual(frame.first, 0x88)
        XCTAssertEqual(frame.count >= 4 ? UInt16(frame[2]) << 8 | UInt16(frame[3]) : 0, 1002)
    }

    func testAsyncSendWaitsAboveTheHighWaterMarkUntilThePeerReads() async throws {
        // A peer that completes the handshake and then does not read.
        let peer = try StalledWebSocketPeer()
        var options = WebSocketOptions()
        options.sendHighWaterMark = 256 << 10
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        try await client.connect()
        let chunk = Data(testBytes(count: 1 << 20))
        let sent = LockedBox(0)
        let sender = Task {
            for _ in 0..<32 {
                try await client.send(data: chunk)
                sent.mutate { $0 += 1 }
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let stalledAt = sent.value
        XCTAssertLessThan(stalledAt, 32, "send must wait while the peer does not read")
        // Buffered bytes stay bounded: the mark plus at most one message.
        XCTAssertLessThanOrEqual(client.bufferedAmount, options.sendHighWaterMark + chunk.count + 1024)
        XCTAssertGreaterThan(client.bufferedAmount, 0)
        peer.startDraining()
        try await sender.value
        XCTAssertEqual(sent.value, 32)
        for _ in 0..<200 where client.bufferedAmount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(client.bufferedAmount, 0)
        peer.stop()
    }

    func testRejectedUpgradeThrowsHandshakeRejectedWithStatusAndBody() async throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let queue = DispatchQueue(label: "rejecting server")
        listener.start { transport in
            transport.start(queue: queue) { event in
                if case .received = event {
                    transport.write(Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 7\r\n\r\nno way!".utf8))
                    transport.close()
                }
            }
        }
        let client = try WebSocket(url: "ws://127.0.0.1:\(listener.port)/")
        do {
            try await client.connect()
            XCTFail("connect must fail")
        } catch {
            guard case .handshakeRejected = error.code else { return XCTFail("got \(error)") }
            XCTAssertEqual(error.httpStatus, 403)
            XCTAssertEqual(error.body, Array("no way!".utf8))
        }
    }

    func testKeepaliveFailsASilentConnection() async throws {
        let peer = try StalledWebSocketPeer()
        defer { peer.stop() }
        var options = WebSocketOptions()
        options.keepalive = WebSocketKeepalive(interval: .milliseconds(100), timeout: .milliseconds(200))
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        try await client.connect()
        let info = await client.closed
        XCTAssertEqual(info.code, .abnormalClosure)
        XCTAssertFalse(info.wasClean)
        XCTAssertEqual(info.error, .timedOut(.keepalive(limit: .milliseconds(200))))
    }

    func testCloseTimeoutBoundsTheWaitForASilentPeer() async throws {
        let peer = try StalledWebSocketPeer()
        defer { peer.stop() }
        var options = WebSocketOptions()
        options.closeTimeout = .milliseconds(200)
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        try await client.connect()
        let started = DispatchTime.now()
        let info = await client.close()
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        XCTAssertFalse(info.wasClean)
        XCTAssertLessThan(waited, 3, "close must give up after closeTimeout")
    }

    func testDroppingAnOpenClientClosesItWithGoingAway() async throws {
        let closes = LockedBox<[WebSocketCloseInfo]>([])
        let server = try WebSocketServer.start { connection in
            connection.onClose = { info in closes.mutate { $0.append(info) } }
        }
        do {
            let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
            try await client.connect()
        }
        for _ in 0..<300 where closes.value.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(closes.value.first?.code, .goingAway)
        await server.stop()
    }

    func testServerWithoutAHandlerHandsOutConnectionsAsAnAsyncSequenceWithTheirFirstMessages() async throws {
        let server = try WebSocketServer.start()
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/seq")
        try await client.connect()
        // Sent before the server side is even picked up: it must wait in the connection's messages.
        try await client.send(text: "first")
        try await client.send(data: Data([9, 8, 7]))
        var connections = server.connections.makeAsyncIterator()
        let next = await connections.next()
        let connection = try XCTUnwrap(next)
        XCTAssertEqual(connection.role, .server)
        XCTAssertEqual(connection.handshakeInfo?.resourceName, "/seq")
        var messages = connection.messages.makeAsyncIterator()
        let first = await messages.next()
        let second = await messages.next()
        XCTAssertEqual(first, .text("first"))
        XCTAssertEqual(second, .binary(Data([9, 8, 7])))
        try await connection.send(text: "reply")
        var clientMessages = client.messages.makeAsyncIterator()
        let reply = await clientMessages.next()
        XCTAssertEqual(reply, .text("reply"))
        await server.stop()
        let info = await client.closed
        XCTAssertEqual(info.code, .goingAway)
        let ended = await connections.next()
        XCTAssertNil(ended, "connections finishes on stop")
    }

    func testServerRunsConnectionsOverTheWrappedAcceptedTransport() async throws {
        let wrapped = LockedBox(0)
        var options = WebSocketServerOptions()
        options.acceptedTransport = { tcp in
            wrapped.mutate { $0 += 1 }
            return ForwardingTransport(tcp)
        }
        let server = try WebSocketServer.start(options: options) { connection in
            connection.onText = { [weak connection] text in try? connection?.write(text: text.uppercased()) }
        }
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        try await client.send(text: "wrapped")
        var iterator = client.messages.makeAsyncIterator()
        let echo = await iterator.next()
        XCTAssertEqual(echo, .text("WRAPPED"))
        XCTAssertEqual(wrapped.value, 1)
        await client.close()
        await server.stop()
    }

    func testAClientWhoseConnectHangsFailsWithConnectTimedOutAtItsConnectTimeout() async throws {
        // A listener that never accepts, with a backlog of 0: once its queue is full the kernel
        // drops further SYNs, so a connect can only end by the client's timer (the driver's one
        // timer, which times the TCP connect as well as the handshake).
        let (listener, port) = try loopbackListener(backlog: 0)
        defer { close(listener) }
        let options = configured(WebSocketOptions()) {
            $0.connectTimeout = .milliseconds(1500)
            $0.handshakeTimeout = .milliseconds(1500)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let errors = await withTaskGroup(of: WebSocketError?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do throws(WebSocketError) {
                        try await WebSocket(url: "ws://127.0.0.1:\(port)/", options: options).connect()
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var errors: [WebSocketError?] = []
            for await error in group { errors.append(error) }
            return errors
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let timedOut = WebSocketError.transport(.connectTimedOut(host: "127.0.0.1", port: port, timeout: .milliseconds(1500)))
        XCTAssertTrue(errors.contains(timedOut), "\(errors)")
        XCTAssertLessThan(seconds, 6, "the attempts took \(seconds) s to end")
    }

    func testAPeerThatAcceptsAndClosesAtOnceFailsConnectPromptlyEveryTime() async throws {
        // Like a proxy in "refuse" mode: accept, then close before any HTTP response.
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        listener.start { transport in transport.close() }
        for round in 0..<200 {
            let client = try WebSocket(url: "ws://127.0.0.1:\(listener.port)/", options: configured(WebSocketOptions()) { $0.connectTimeout = .seconds(20) })
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                try await client.connect()
                XCTFail("round \(round): connect must fail")
            } catch {
                XCTAssertEqual(client.closeInfo?.code, .abnormalClosure, "round \(round): \(error)")
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            XCTAssertLessThan(seconds, 2, "round \(round): connect took \(seconds) s to fail")
            if seconds >= 2 { break }
        }
    }

    func testAcceptRequestRefusesByPathBeforeTheUpgradeAndLetsTheRestThrough() async throws {
        let handled = LockedBox<[String]>([])
        var options = WebSocketServerOptions()
        options.acceptRequest = { head in head.target.hasPrefix("/socketcluster/") ? .accept : .refuse(status: 400) }
        let server = try WebSocketServer.start(options: options) { connection in
            handled.mutate { $0.append(connection.handshakeInfo?.resourceName ?? "?") }
            connection.onText = { [weak connection] text in try? connection?.write(text: text) }
        }
        let refused = try rawExchange(
            port: server.port,
            request:
                "GET /elsewhere HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 400"), refused)
        XCTAssertFalse(refused.contains("101"), refused)

        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/socketcluster/?x=1")
        try await client.connect()
        try await client.send(text: "through")
        var iterator = client.messages.makeAsyncIterator()
        let echo = await iterator.next()
        XCTAssertEqual(echo, .text("through"))
        await client.close()

        let clientRefused = try WebSocket(url: "ws://127.0.0.1:\(server.port)/nope")
        do {
            try await clientRefused.connect()
            XCTFail("the upgrade must be refused")
        } catch {
            guard case .handshakeRejected = error.code else { return XCTFail("got \(error)") }
            XCTAssertEqual(error.httpStatus, 400)
        }
        XCTAssertEqual(handled.value, ["/socketcluster/?x=1"])
        await server.stop()
    }

    func testAThousandConcurrentConnectionsEchoWithoutAThreadEach() async throws {
        try raiseOpenFileLimit(to: 8192)
        let server = try makeEchoServer()
        let count = 1000
        let clients = try (0..<count).map { _ in try WebSocket(url: "ws://127.0.0.1:\(server.port)/") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { try await client.connect() } }
            try await group.waitForAll()
        }
        XCTAssertEqual(server.connectionCount, count)
        XCTAssertLessThan(threadCount(), 200, "connections must not get a thread each")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, client) in clients.enumerated() {
                group.addTask {
                    try await client.send(text: "client \(i)")
                    var iterator = client.messages.makeAsyncIterator()
                    let echo = await iterator.next()
                    XCTAssertEqual(echo, .text("client \(i)"))
                }
            }
            try await group.waitForAll()
        }
        await server.stop()
        XCTAssertEqual(server.connectionCount, 0)
        for client in clients {
            let info = await client.closed
            XCTAssertEqual(info.code, .goingAway)
            XCTAssertTrue(info.wasClean)
        }
    }
}

/// A value behind a lock, for results gathered from callbacks.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value  // guarded by `lock`
    init(_ value: Value) { _value = value }
    var value: Value {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&_value) } }
}

/// A transport that forwards to another one, standing in for a TLS layer in tests.
final class ForwardingTransport: Transport, @unchecked Sendable {
    private let inner: any Transport
    init(_ inner: any Transport) { self.inner = inner }
    func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) { inner.start(queue: queue, handler: handler) }
    func write(_ bytes: [UInt8]) { inner.write(bytes) }
    var bufferedAmount: Int { inner.bufferedAmount }
    func close() { inner.close() }
}
