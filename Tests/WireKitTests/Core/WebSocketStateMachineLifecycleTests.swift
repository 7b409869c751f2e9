import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// The whole life of a connection in both roles, driven with a manual clock.
final class WebSocketStateMachineLifecycleTests: XCTestCase {
    private func closedInfo(_ events: [WebSocketEvent], file: StaticString = #filePath, line: UInt = #line) -> WebSocketCloseInfo? {
        let closed = events.compactMap { event -> WebSocketCloseInfo? in
            if case .closed(let info) = event { return info }
            return nil
        }
        XCTAssertEqual(closed.count, 1, "expected one closed event in \(events)", file: file, line: line)
        return closed.first
    }

    // MARK: Client handshake

    func testLeftoverBytesAfterResponseHeadAreTheFirstFrames() throws {
        var machine = try openClient(extraBytes: wireFrame(.text, "one", masked: false) + wireFrame(.binary, [9], masked: false) + [0x81])
        XCTAssertEqual(machine.drainEvents().dropFirst(), [.text("one"), .binary(Data([9]))])
        machine.receive([0x03] + Array("two".utf8), now: ManualClock().now)
        XCTAssertEqual(machine.drainEvents(), [.text("two")])
    }

    func testResponseSplitByteByByteOpensOnce() throws {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"))
        var machine = WebSocketStateMachine(client: handshake)
        machine.start(now: ManualClock().now)
        let response = Array(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(handshake.expectedAccept)\r\n\r\n".utf8)
        for byte in response + wireFrame(.text, "x", masked: false) { machine.receive([byte], now: ManualClock().now) }
        let events = machine.drainEvents()
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.last, .text("x"))
    }

    func testNon101ResponseIsRejectionWithStatusHeadersAndBodyUpToContentLength() throws {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"))
        var machine = WebSocketStateMachine(client: handshake)
        machine.start(now: ManualClock().now)
        machine.receive(Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 11\r\nX-Why: token\r\n\r\nnot ".utf8), now: ManualClock().now)
        XCTAssertNil(machine.nextEvent(), "waits for the announced body")
        machine.receive(Array("allowed-and-more".utf8), now: ManualClock().now)
        let info = closedInfo(machine.drainEvents())
        guard let error = info?.error, error.code == .handshakeRejected, let body = error.body else {
            return XCTFail("\(String(describing: info))")
        }
        XCTAssertEqual(error.httpStatus, 403)
        XCTAssertEqual(error.headers?.first(name: "x-why"), "token")
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "not allowed")
        XCTAssertEqual(info?.code, .abnormalClosure)
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    /// Fuzz finding (handshake): bytes after the announced body, in the same read as the head,
    /// were added to the body, so the body depended on how the response was split.
    func testRejectionBodyStopsAtContentLengthWithinOneRead() throws {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"))
        var machine = WebSocketStateMachine(client: handshake)
        machine.start(now: ManualClock().now)
        machine.receive(Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 10\r\n\r\nforbidden\nUnsafe".utf8), now: ManualClock().now)
        guard let error = closedInfo(machine.drainEvents())?.error, error.code == .handshakeRejected, error.httpStatus == 403,
            let body = error.body
        else { return XCTFail() }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "forbidden\n")
    }

    func testRejectionBodyIsCappedAndEndsAtEOF() throws {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"))
        var machine = WebSocketStateMachine(client: handshake, configuration: configured(WebSocketConfiguration()) { $0.maxRejectionBodySize = 4 })
        machine.start(now: ManualClock().now)
        machine.receive(Array("HTTP/1.1 500 Oops\r\nContent-Length: 100\r\n\r\nab".utf8), now: ManualClock().now)
        machine.transportClosed(now: ManualClock().now)
        guard let error = closedInfo(machine.drainEvents())?.error, error.code == .handshakeRejected, error.httpStatus == 500,
            let body = error.body
        else { return XCTFail() }
        XCTAssertEqual(body, Array("ab".utf8))

        var capped = WebSocketStateMachine(client: handshake, configuration: configured(WebSocketConfiguration()) { $0.maxRejectionBodySize = 4 })
        capped.start(now: ManualClock().now)
        capped.receive(Array("HTTP/1.1 500 Oops\r\nContent-Length: 100\r\n\r\nabcdefgh".utf8), now: ManualClock().now)
        guard let cappedError = closedInfo(capped.drainEvents())?.error, cappedError.code == .handshakeRejected,
            cappedError.httpStatus == 500, let cappedBody = cappedError.body
        else { return XCTFail() }
        XCTAssertEqual(cappedBody, Array("abcd".utf8))
    }

    func testRedirectIsReportedNotFollowed() throws {
        var machine = WebSocketStateMachine(client: try ClientHandshake(url: try WebSocketURL("ws://h/")))
        machine.start(now: ManualClock().now)
        _ = machine.takeOutput()
        machine.receive(Array("HTTP/1.1 301 Moved Permanently\r\nLocation: ws://other/\r\n\r\n".utf8), now: ManualClock().now)
        guard let error = closedInfo(machine.drainEvents())?.error, error.code == .redirected, error.httpStatus == 301 else {
            return XCTFail()
        }
        XCTAssertEqual(error.location, "ws://other/")
        XCTAssertFalse(machine.hasOutput, "no new request is sent")
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testInvalidAcceptFailsTheHandshake() throws {
        var machine = WebSocketStateMachine(client: try ClientHandshake(url: try WebSocketURL("ws://h/")))
        machine.start(now: ManualClock().now)
        machine.receive(
            Array(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
                    .utf8), now: ManualClock().now)
        guard case .invalidHandshakeResponse? = closedInfo(machine.drainEvents())?.error else { return XCTFail() }
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testHandshakeTimeout() throws {
        var clock = ManualClock()
        var machine = WebSocketStateMachine(
            client: try ClientHandshake(url: try WebSocketURL("ws://h/")),
            configuration: configured(WebSocketConfiguration()) { $0.handshakeTimeout = .seconds(3) })
        machine.start(now: clock.now)
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(3))
        clock.advance(.milliseconds(2999))
        machine.timeElapsed(now: clock.now)
        XCTAssertNil(machine.nextEvent())
        clock.advance(.milliseconds(1))
        machine.timeElapsed(now: clock.now)
        XCTAssertEqual(closedInfo(machine.drainEvents())?.error, .timedOut(.handshake(limit: .seconds(3))))
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testSendingBeforeOpenThrowsNotOpen() throws {
        var machine = WebSocketStateMachine(client: try ClientHandshake(url: try WebSocketURL("ws://h/")))
        XCTAssertThrowsError(try machine.sendText("x")) { XCTAssertEqual($0 as? WebSocketError, .notOpen) }
    }

    func testTrustedUTF8TextIsFramedLikeTheSameString() throws {
        var server = openServer()
        _ = server.takeOutput()
        let text = "{\"event\":\"é\",\"cid\":1}"
        try server.sendText(trustedUTF8: Array(text.utf8))
        try server.sendText(text)
        XCTAssertEqual(
            server.drainFrames(),
            [
                WebSocketFrame(opcode: .text, payload: Array(text.utf8)),
                WebSocketFrame(opcode: .text, payload: Array(text.utf8)),
            ])
        var notOpen = WebSocketStateMachine(client: try ClientHandshake(url: try WebSocketURL("ws://h/")))
        XCTAssertThrowsError(try notOpen.sendText(trustedUTF8: [0x78])) { XCTAssertEqual($0 as? WebSocketError, .notOpen) }
    }

    // MARK: Server handshake

    func testServerAnswers101AndDeliversLeftoverFrames() {
        var machine = openServer(extraBytes: wireFrame(.text, "hello", masked: true))
        let response = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        XCTAssertTrue(response.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        let events = machine.drainEvents()
        guard case .opened(let info) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(info.resourceName, "/chat")
        XCTAssertEqual(events.last, .text("hello"))
    }

    func testServerAnswers426ForWrongVersionAnd400ForBadKey() {
        for (request, status) in [
            (
                "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n",
                426
            ),
            ("GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: nope\r\nSec-WebSocket-Version: 13\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
            ("garbage\r\n\r\n", 400),
        ] {
            var machine = WebSocketStateMachine(server: WebSocketConfiguration())
            machine.receive(Array(request.utf8), now: ManualClock().now)
            let response = String(decoding: machine.takeOutput(), as: UTF8.self)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(status) "), response)
            if status == 426 { XCTAssertTrue(response.contains("Sec-WebSocket-Version: 13\r\n")) }
            guard let error = closedInfo(machine.drainEvents())?.error, error.code == .invalidUpgradeRequest, error.httpStatus == status
            else { return XCTFail() }
            XCTAssertTrue(machine.wantsTransportClosed)
        }
    }

    func testServerAnswers400AtOnceToATLSClientHello() {
        // The first bytes of a TLS 1.2/1.3 ClientHello record: no empty line will ever follow.
        let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
        var machine = WebSocketStateMachine(server: WebSocketConfiguration())
        machine.receive(clientHello, now: ManualClock().now)
        let response = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 400 "), response)
        guard let error = closedInfo(machine.drainEvents())?.error, error.code == .invalidUpgradeRequest, error.httpStatus == 400
        else { return XCTFail() }
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testHeadParserFailsAtTheFirstControlByte() {
        var parser = HTTPHeadParser()
        XCTAssertNil(try Array("GET / HTTP/1.1\r\nA:\tb\r\n".utf8).withUnsafeBytes { try parser.append($0) })
        XCTAssertThrowsError(try [UInt8(ascii: "X"), 0x00].withUnsafeBytes { try parser.append($0) }) { error in
            XCTAssertTrue("\(error)".contains("offset 23"), "\(error)")
        }
    }

    func testServerSendsUnmaskedFramesAndClientSendsMaskedWithFreshKeys() throws {
        var server = openServer()
        _ = server.takeOutput()
        try server.sendText("hi")
        try server.sendBinary([1, 2, 3])
        let serverFrames = server.drainFrames()
        XCTAssertEqual(serverFrames, [WebSocketFrame(opcode: .text, payload: Array("hi".utf8)), WebSocketFrame(opcode: .binary, payload: [1, 2, 3])])

        var client = try openClient()
        for _ in 0..<20 { try client.sendBinary([UInt8](repeating: 0, count: 4)) }
        let clientFrames = client.drainFrames()
        XCTAssertEqual(clientFrames.count, 20)
        XCTAssertTrue(clientFrames.allSatisfy { $0.payload == [0, 0, 0, 0] && $0.maskingKey != nil })
        XCTAssertGreaterThan(Set(clientFrames.compactMap(\.maskingKey)).count, 15)
    }

    // MARK: Messages, ping, pong

    func testFragmentedTextAcrossReadsIsReassembled() throws {
        var machine = try openClient()
        _ = machine.drainEvents()
        let euro = Array("€".utf8)
        let bytes =
            wireFrame(.text, [0x61, euro[0]], fin: false, masked: false) + wireFrame(.ping, [7], masked: false)
            + wireFrame(.continuation, [euro[1]], fin: false, masked: false) + wireFrame(.continuation, [euro[2], 0x62], masked: false)
        for chunk in stride(from: 0, to: bytes.count, by: 3) {
            machine.receive(Array(bytes[chunk..<min(bytes.count, chunk + 3)]), now: ManualClock().now)
        }
        XCTAssertEqual(machine.drainEvents(), [.ping(Data([7])), .text("a€b")])
    }

    func testPingIsAnsweredWithPongCarryingThePayload() throws {
        var machine = openServer()
        _ = machine.takeOutput()
        _ = machine.drainEvents()
        machine.receive(wireFrame(.ping, Array("Hello".utf8), masked: true), now: ManualClock().now)
        XCTAssertEqual(machine.drainEvents(), [.ping(Data("Hello".utf8))])
        XCTAssertEqual(machine.takeOutput(), [0x8A, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    }

    func testPingCompletesOnMatchingPongAndTimesOutOtherwise() throws {
        var clock = ManualClock()
        var machine = try openClient(clock: clock)
        _ = machine.drainEvents()
        let first = try machine.ping(timeout: .seconds(2), now: clock.now)
        let second = try machine.ping(timeout: .seconds(2), now: clock.now)
        let frames = machine.drainFrames()
        XCTAssertEqual(frames.map(\.opcode), [.ping, .ping])
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(2))
        // Answer the first only: it completes, the second times out.
        machine.receive(wireFrame(.pong, frames[0].payload, masked: false), now: clock.now)
        XCTAssertEqual(machine.drainEvents(), [.pong(Data(frames[0].payload)), .pingCompleted(first)])
        clock.advance(.seconds(2))
        machine.timeElapsed(now: clock.now)
        XCTAssertEqual(machine.drainEvents(), [.pingTimedOut(second)])
        XCTAssertEqual(machine.phase, .open)
        // A pong for a later ping completes earlier ones too.
        let third = try machine.ping(timeout: nil, now: clock.now)
        let fourth = try machine.ping(timeout: nil, now: clock.now)
        let payloads = machine.drainFrames().map(\.payload)
        machine.receive(wireFrame(.pong, payloads[1], masked: false), now: clock.now)
        XCTAssertEqual(machine.drainEvents(), [.pong(Data(payloads[1])), .pingCompleted(third), .pingCompleted(fourth)])
    }

    func testPingPayloadOver125BytesIsRefused() throws {
        var machine = try openClient()
        XCTAssertThrowsError(try machine.sendPing([UInt8](repeating: 0, count: 126)))
        XCTAssertNoThrow(try machine.sendPing([UInt8](repeating: 0, count: 125)))
    }

    func testSendFragmentEnforcesOrder() throws {
        var machine = try openClient()
        XCTAssertThrowsError(try machine.sendFragment(opcode: .continuation, [1], fin: true))
        try machine.sendFragment(opcode: .binary, [1], fin: false)
        XCTAssertThrowsError(try machine.sendText("interleaved"))
        try machine.sendPing([])
        try machine.sendFragment(opcode: .continuation, [2], fin: true)
        XCTAssertEqual(machine.drainFrames().map(\.opcode), [.binary, .ping, .continuation])
    }

    // MARK: Close handshake

    func testLocalCloseWaitsForPeerCloseThenServerClosesTransport() throws {
        let clock = ManualClock()
        var machine = openServer(clock: clock)
        _ = machine.takeOutput()
        _ = machine.drainEvents()
        machine.close(code: .goingAway, reason: "bye", now: clock.now)
        XCTAssertEqual(machine.phase, .closing)
        XCTAssertEqual(machine.drainFrames(), [WebSocketFrame(opcode: .close, payload: closePayload(1001, Array("bye".utf8)))])
        XCTAssertThrowsError(try machine.sendText("no data after close")) { XCTAssertEqual($0 as? WebSocketError, .closed) }
        XCTAssertFalse(machine.hasOutput)
        // Data still arriving before the peer's close is delivered.
        machine.receive(wireFrame(.text, "late", masked: true), now: clock.now)
        machine.receive(wireFrame(.close, closePayload(1001), masked: true), now: clock.now)
        XCTAssertEqual(machine.drainEvents(), [.text("late"), .closed(WebSocketCloseInfo(code: .goingAway, reason: "", wasClean: true, error: nil))])
        XCTAssertFalse(machine.hasOutput, "the close handshake is not answered twice")
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testCloseTimeoutClosesTransportAndReportsUncleanClose() throws {
        var clock = ManualClock()
        var machine = try openClient(configuration: configured(WebSocketConfiguration()) { $0.closeTimeout = .seconds(5) }, clock: clock)
        _ = machine.drainEvents()
        machine.close(now: clock.now)
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(5))
        clock.advance(.seconds(4))
        machine.timeElapsed(now: clock.now)
        XCTAssertNil(machine.nextEvent())
        XCTAssertFalse(machine.wantsTransportClosed)
        clock.advance(.seconds(1))
        machine.timeElapsed(now: clock.now)
        let info = closedInfo(machine.drainEvents())
        XCTAssertEqual(info?.code, .abnormalClosure)
        XCTAssertEqual(info?.wasClean, false)
        XCTAssertEqual(info?.error, .timedOut(.closingHandshake(limit: .seconds(5))))
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testPeerCloseIsEchoedByServerWhichClosesTransportAtOnce() {
        var machine = openServer()
        _ = machine.takeOutput()
        _ = machine.drainEvents()
        machine.receive(
            wireFrame(.close, closePayload(4000, Array("app".utf8)), masked: true) + wireFrame(.text, "ignored", masked: true), now: ManualClock().now)
        XCTAssertEqual(machine.drainEvents(), [.closed(WebSocketCloseInfo(code: WebSocketCloseCode(4000), reason: "app", wasClean: true, error: nil))])
        XCTAssertEqual(machine.drainFrames(), [WebSocketFrame(opcode: .close, payload: closePayload(4000))])
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testCloseArrivingWithEOFIsStillEchoed() {
        var machine = openServer()
        _ = machine.takeOutput()
        _ = machine.drainEvents()
        machine.receive(wireFrame(.close, closePayload(1000), masked: true), now: ManualClock().now)
        machine.transportClosed(now: ManualClock().now)
        XCTAssertEqual(machine.drainEvents(), [.closed(WebSocketCloseInfo(code: .normalClosure, reason: "", wasClean: true, error: nil))])
        XCTAssertEqual(machine.drainFrames(), [WebSocketFrame(opcode: .close, payload: closePayload(1000))])
    }

    func testEmptyPeerCloseReportsNoStatusAndEchoesEmptyClose() throws {
        var machine = try openClient()
        _ = machine.drainEvents()
        machine.receive(wireFrame(.close, [], masked: false), now: ManualClock().now)
        XCTAssertEqual(closedInfo(machine.drainEvents())?.code, .noStatusReceived)
        XCTAssertEqual(machine.drainFrames().map(\.payload), [[]])
    }

    func testTransportEOFWithoutCloseIsAbnormal() throws {
        var machine = try openClient()
        _ = machine.drainEvents()
        machine.transportClosed(now: ManualClock().now)
        let info = closedInfo(machine.drainEvents())
        XCTAssertEqual(info?.code, .abnormalClosure)
        XCTAssertEqual(info?.wasClean, false)
        machine.transportClosed(now: ManualClock().now)
        machine.close(now: ManualClock().now)
        XCTAssertNil(machine.nextEvent())
    }

    func testCloseReasonIsCutTo123BytesOnACharacterBoundary() throws {
        var machine = try openClient()
        machine.close(code: .normalClosure, reason: String(repeating: "€", count: 100), now: ManualClock().now)
        let payload = machine.drainFrames().first?.payload ?? []
        XCTAssertEqual(payload.count, 2 + 123)
        XCTAssertTrue(UTF8Validator.isValid(Array(payload[2...])))
    }

    // MARK: Keepalive

    func testKeepalivePingsAQuietConnectionAndFailsItWhenNothingComesBack() throws {
        var clock = ManualClock()
        let configuration = configured(WebSocketConfiguration()) { $0.keepalive = WebSocketKeepalive(interval: .seconds(10), timeout: .seconds(3)) }
        var machine = try openClient(configuration: configuration, clock: clock)
        _ = machine.drainEvents()
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(10))
        clock.advance(.seconds(10))
        machine.timeElapsed(now: clock.now)
        XCTAssertEqual(machine.drainFrames().map(\.opcode), [.ping])
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(3))
        clock.advance(.seconds(3))
        machine.timeElapsed(now: clock.now)
        let info = closedInfo(machine.drainEvents())
        XCTAssertEqual(info?.code, .abnormalClosure)
        XCTAssertEqual(info?.error, .timedOut(.keepalive(limit: .seconds(3))))
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testKeepaliveIsSatisfiedByAnyIncomingData() throws {
        var clock = ManualClock()
        let configuration = configured(WebSocketConfiguration()) { $0.keepalive = WebSocketKeepalive(interval: .seconds(10), timeout: .seconds(3)) }
        var machine = try openClient(configuration: configuration, clock: clock)
        _ = machine.drainEvents()
        clock.advance(.seconds(10))
        machine.timeElapsed(now: clock.now)
        XCTAssertEqual(machine.drainFrames().map(\.opcode), [.ping])
        clock.advance(.seconds(2))
        machine.receive(wireFrame(.pong, [], masked: false), now: clock.now)
        clock.advance(.seconds(2))
        machine.timeElapsed(now: clock.now)
        XCTAssertEqual(machine.drainEvents(), [.pong(Data())])
        XCTAssertEqual(machine.phase, .open)
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(8))
    }

    func testTakeOutputAppendingSwapsOrAppends() throws {
        var machine = try openClient()
        try machine.sendBinary([1])
        var buffer: [UInt8] = []
        machine.takeOutput(appendingTo: &buffer)
        XCTAssertEqual(buffer.count, 7)
        XCTAssertFalse(machine.hasOutput)
        try machine.sendBinary([2])
        machine.takeOutput(appendingTo: &buffer)
        XCTAssertEqual(buffer.count, 14)
        XCTAssertEqual(machine.pendingOutputCount, 0)
    }
}
