import XCTest
@testable import WireKit

/// The server role answering a request that is not upgraded (`WebSocketUpgradeDecision.respond`):
/// the bytes written, what the server frames itself, HEAD, and how long the connection lingers
/// to read what the client still sends of a body.
final class PlainHTTPAnswerTests: XCTestCase {
    /// A machine that answers every plain request with `response` and accepts upgrades.
    private func machine(_ response: PlainHTTPResponse, configuration: WebSocketConfiguration = WebSocketConfiguration()) -> WebSocketStateMachine {
        WebSocketStateMachine(server: configuration) { head in head.isWebSocketUpgrade ? .accept : .respond(response) }
    }

    /// Head and body of the machine's output.
    private func answer(_ machine: inout WebSocketStateMachine) -> (head: String, body: [UInt8]) {
        let bytes = machine.takeOutput()
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: Array("\r\n\r\n".utf8)) }) else {
            XCTFail("no complete head in \(String(decoding: bytes, as: UTF8.self))")
            return ("", [])
        }
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
    }

    func testGetIsAnsweredWithStatusHeadersBodyAndClosesWithoutAnError() {
        let clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 200, headers: ["Cache-Control": "no-store"], text: "OK\n"))
        machine.start(now: clock.now)
        // Byte by byte: the decision waits for the whole head.
        for byte in Array("GET /health-check HTTP/1.1\r\nHost: x\r\n\r\n".utf8) { machine.receive([byte], now: clock.now) }
        let (head, body) = answer(&machine)
        XCTAssertEqual(
            head,
            "HTTP/1.1 200 OK\r\nCache-Control: no-store\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 3\r\nConnection: close")
        XCTAssertEqual(body, Array("OK\n".utf8))
        XCTAssertEqual(machine.drainEvents(), [.closed(WebSocketCloseInfo(code: .abnormalClosure, reason: "", wasClean: false, error: nil))])
        XCTAssertTrue(machine.wantsTransportClosed)
        XCTAssertEqual(machine.phase, .closed)
    }

    func testHeadGetsTheHeadersOfGetAndNoBody() {
        let clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 404, text: "no such page\n"))
        machine.start(now: clock.now)
        machine.receive(Array("HEAD /nowhere HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: clock.now)
        let (head, body) = answer(&machine)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 404 Not Found\r\n"), head)
        XCTAssertTrue(head.contains("\r\nContent-Length: 13\r\n"), head)
        XCTAssertEqual(body, [])
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testNoContentAndNotModifiedCarryNeitherBodyNorLength() {
        for status in [204, 304] {
            let clock = ManualClock()
            var machine = machine(PlainHTTPResponse(status: status, body: Array("ignored".utf8)))
            machine.start(now: clock.now)
            machine.receive(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: clock.now)
            let (head, body) = answer(&machine)
            XCTAssertTrue(head.hasPrefix("HTTP/1.1 \(status) "), head)
            XCTAssertFalse(head.contains("Content-Length"), head)
            XCTAssertEqual(body, [], "status \(status)")
        }
    }

    func testFieldsTheServerFramesOrThatWouldBreakTheHeadAreLeftOut() {
        let clock = ManualClock()
        let headers = HTTPHeaders([
            ("Content-Length", "999"), ("transfer-encoding", "chunked"), ("Connection", "keep-alive"),
            ("X-Injected", "a\r\nSet-Cookie: stolen=1"), ("Bad Name", "x"), ("X-Tab", "a\tb"), ("X-Kept", "yes"),
        ])
        var machine = machine(PlainHTTPResponse(status: 200, headers: headers, body: [0x41]))
        machine.start(now: clock.now)
        machine.receive(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: clock.now)
        let (head, body) = answer(&machine)
        XCTAssertEqual(head, "HTTP/1.1 200 OK\r\nX-Tab: a\tb\r\nX-Kept: yes\r\nContent-Length: 1\r\nConnection: close")
        XCTAssertEqual(body, [0x41])
    }

    func testAStatusOutsideTheRangeIsAnsweredAs500WithoutTheCallersHeadersAndBody() {
        for status in [101, 0, -1, 199, 600, Int.max] {
            let clock = ManualClock()
            var machine = machine(PlainHTTPResponse(status: status, headers: ["Upgrade": "websocket"], body: Array("secret".utf8)))
            machine.start(now: clock.now)
            machine.receive(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: clock.now)
            let (head, body) = answer(&machine)
            XCTAssertEqual(head, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close", "status \(status)")
            XCTAssertEqual(body, [])
        }
    }

    func testAnAnnouncedBodyIsReadAndDroppedBeforeTheTransportCloses() {
        var clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 405, text: "GET or HEAD\n"))
        machine.start(now: clock.now)
        machine.receive(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123".utf8), now: clock.now)
        XCTAssertTrue(answer(&machine).head.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        XCTAssertEqual(machine.drainEvents().count, 1)
        XCTAssertFalse(machine.wantsTransportClosed, "6 bytes of the body are still on their way")
        clock.advance(.milliseconds(10))
        machine.receive(Array("45678".utf8), now: clock.now)
        XCTAssertFalse(machine.wantsTransportClosed)
        machine.receive(Array("9".utf8), now: clock.now)
        XCTAssertTrue(machine.wantsTransportClosed)
        XCTAssertNil(machine.nextDeadline)
        XCTAssertEqual(machine.drainEvents(), [], "the connection ended once")
        XCTAssertFalse(machine.hasOutput)
    }

    func testABodyThatNeverComesIsWaitedForAtMostTheCloseTimeout() {
        var clock = ManualClock()
        var configuration = WebSocketConfiguration()
        configuration.closeTimeout = .seconds(2)
        var machine = machine(PlainHTTPResponse(status: 404), configuration: configuration)
        machine.start(now: clock.now)
        machine.receive(Array("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n".utf8), now: clock.now)
        XCTAssertFalse(machine.wantsTransportClosed)
        XCTAssertEqual(machine.nextDeadline, clock.now + .seconds(2))
        clock.advance(.milliseconds(1999))
        machine.timeElapsed(now: clock.now)
        XCTAssertFalse(machine.wantsTransportClosed)
        clock.advance(.milliseconds(1))
        machine.timeElapsed(now: clock.now)
        XCTAssertTrue(machine.wantsTransportClosed)
        XCTAssertNil(machine.nextDeadline)
    }

    func testAtMost64KiBOfABodyAreRead() {
        let clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 404))
        machine.start(now: clock.now)
        machine.receive(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n".utf8), now: clock.now)
        let chunk = [UInt8](repeating: 0x61, count: 16 << 10)
        for _ in 0..<3 { machine.receive(chunk, now: clock.now) }
        XCTAssertFalse(machine.wantsTransportClosed)
        machine.receive(chunk, now: clock.now)
        XCTAssertTrue(machine.wantsTransportClosed, "64 KiB read: the rest is not waited for")
    }

    func testAChunkedBodyIsReadUntilThePeerClosesIt() {
        let clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 404))
        machine.start(now: clock.now)
        machine.receive(Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n".utf8), now: clock.now)
        XCTAssertFalse(machine.wantsTransportClosed)
        machine.receive(Array("0\r\n\r\n".utf8), now: clock.now)
        XCTAssertFalse(machine.wantsTransportClosed)
        machine.transportClosed(now: clock.now)
        XCTAssertTrue(machine.wantsTransportClosed)
        XCTAssertNil(machine.nextDeadline)
        XCTAssertEqual(machine.drainEvents().count, 1, "closed once, at the answer")
    }

    func testAMalformedOrRepeatedContentLengthClosesAtOnce() {
        for lengths in [["abc"], ["-5"], ["5", "5"], ["0"], [""]] {
            let clock = ManualClock()
            var machine = machine(PlainHTTPResponse(status: 404))
            machine.start(now: clock.now)
            let fields = lengths.map { "Content-Length: \($0)\r\n" }.joined()
            machine.receive(Array("POST / HTTP/1.1\r\nHost: x\r\n\(fields)\r\n".utf8), now: clock.now)
            XCTAssertTrue(machine.answerWritten, "\(lengths)")
            XCTAssertTrue(machine.wantsTransportClosed, "\(lengths)")
        }
    }

    func testPipelinedRequestsGetOneAnswer() {
        let clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 200, text: "OK"))
        machine.start(now: clock.now)
        machine.receive(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n".utf8), now: clock.now)
        let output = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertEqual(output.components(separatedBy: "HTTP/1.1 ").count - 1, 1, output)
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testAnUpgradeRequestCanStillBeAcceptedNextToPlainAnswers() {
        let clock = ManualClock()
        var machine = machine(PlainHTTPResponse(status: 404))
        machine.start(now: clock.now)
        machine.receive(
            Array(
                "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: WebSocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .utf8), now: clock.now)
        XCTAssertTrue(String(decoding: machine.takeOutput(), as: UTF8.self).hasPrefix("HTTP/1.1 101 "))
        XCTAssertEqual(machine.phase, .open)
    }

    func testOversizedAndMalformedHeadsAreRefusedBeforeAnyDecision() {
        var configuration = WebSocketConfiguration()
        configuration.maxHandshakeHeadSize = 1024
        let heads: [[UInt8]] = [
            Array("GET / HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "a", count: 2000))\r\n\r\n".utf8),
            Array("GET / HTTP/1.1\r\nHost: x\r\n\u{0}\r\n\r\n".utf8),
            Array("GET /\r\n\r\n".utf8),
            Array("GET / HTTP/1.1\r\nHost x\r\n\r\n".utf8),
            Array("GET / HTTP/1.1\r\n folded: x\r\n\r\n".utf8),
            [0x16, 0x03, 0x01, 0x00, 0xA5],
        ]
        for head in heads {
            let clock = ManualClock()
            let decided = LockedBox(false)
            var machine = WebSocketStateMachine(server: configuration) { _ in
                decided.mutate { $0 = true }
                return .respond(status: 200)
            }
            machine.start(now: clock.now)
            machine.receive(head, now: clock.now)
            let output = String(decoding: machine.takeOutput(), as: UTF8.self)
            XCTAssertTrue(output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), output)
            XCTAssertFalse(decided.value)
            XCTAssertTrue(machine.wantsTransportClosed)
        }
    }

    func testAHeadThatNeverEndsTimesOutLikeAnUpgrade() {
        var clock = ManualClock()
        var configuration = WebSocketConfiguration()
        configuration.handshakeTimeout = .seconds(3)
        var machine = machine(PlainHTTPResponse(status: 200), configuration: configuration)
        machine.start(now: clock.now)
        machine.receive(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8), now: clock.now)
        clock.advance(.seconds(3))
        machine.timeElapsed(now: clock.now)
        XCTAssertTrue(machine.wantsTransportClosed)
        guard case .closed(let info) = machine.drainEvents().last else { return XCTFail("no closed event") }
        XCTAssertEqual(info.error?.code, .timedOut)
    }

    func testDecisionHelpers() {
        let respond = WebSocketUpgradeDecision.respond(status: 404, headers: ["A": "b"], body: [1])
        XCTAssertFalse(respond.isAccepted)
        XCTAssertEqual(respond.refusalStatus, 404)
        XCTAssertEqual(respond.response, PlainHTTPResponse(status: 404, headers: ["A": "b"], body: [1]))
        XCTAssertNil(WebSocketUpgradeDecision.refuse(status: 403).response)
        XCTAssertTrue(WebSocketUpgradeDecision.accept.isAccepted)
        XCTAssertEqual(PlainHTTPResponse(status: 200, headers: ["content-type": "text/html"], text: "x").headers.count, 1)
        let upgrade = HTTPRequestHead(method: "GET", target: "/", headers: ["Upgrade": "h2c, WebSocket"])
        XCTAssertTrue(upgrade.isWebSocketUpgrade)
        XCTAssertFalse(HTTPRequestHead(method: "GET", target: "/", headers: ["Upgrade": "h2c"]).isWebSocketUpgrade)
        XCTAssertFalse(HTTPRequestHead(method: "GET", target: "/", headers: [:]).isWebSocketUpgrade)
    }
}

extension WebSocketStateMachine {
    /// Whether an answer is waiting in the output (read without taking it).
    fileprivate var answerWritten: Bool { hasOutput }
}

/// Arbitrary requests and bodies, split at random, against a server that answers plain requests:
/// one answer at most, `closed` exactly once, and the transport always let go within the close
/// timeout once the answer is out.
final class PlainHTTPAnswerPropertyTests: XCTestCase {
    func testRandomRequestsGetAtMostOneAnswerAndAlwaysLetTheTransportGo() {
        var rng = WebSocketFrameChunkingPropertyTests.SeededGenerator(state: 0x4854_5450)
        let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "G\u{1}T", ""]
        let lengths = ["", "0", "5", "70000", "-1", "abc", "99999999999999999999999", "5, 5"]
        for iteration in 0..<500 {
            var head = "\(methods.randomElement(using: &rng) ?? "GET") /\(iteration) HTTP/1.1\r\nHost: x\r\n"
            if Bool.random(using: &rng) { head += "Content-Length: \(lengths.randomElement(using: &rng) ?? "")\r\n" }
            if Int.random(in: 0..<4, using: &rng) == 0 { head += "Transfer-Encoding: chunked\r\n" }
            head += "\r\n"
            var input = Array(head.utf8)
            if Int.random(in: 0..<5, using: &rng) == 0, !input.isEmpty {
                input[Int.random(in: 0..<input.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            input += (0..<Int.random(in: 0...3000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var configuration = WebSocketConfiguration()
            configuration.closeTimeout = .seconds(1)
            var machine = WebSocketStateMachine(server: configuration) { request in
                request.isWebSocketUpgrade ? .accept : .respond(status: 200, body: Array("OK".utf8))
            }
            var clock = ManualClock()
            machine.start(now: clock.now)
            var output: [UInt8] = []
            var closed = 0
            var index = 0
            while index < input.count, !machine.wantsTransportClosed {
                let end = min(input.count, index + Int.random(in: 1...400, using: &rng))
                machine.receive(Array(input[index..<end]), now: clock.now)
                index = end
                clock.advance(.milliseconds(Int64.random(in: 0...300, using: &rng)))
                machine.timeElapsed(now: clock.now)
                output += machine.takeOutput()
                while let event = machine.nextEvent() { if case .closed = event { closed += 1 } }
            }
            if machine.phase == .closed {
                // Answered or refused: the transport goes within the close timeout at the latest.
                clock.advance(.seconds(1))
                machine.timeElapsed(now: clock.now)
                XCTAssertTrue(machine.wantsTransportClosed, "iteration \(iteration): the transport is held")
                XCTAssertNil(machine.nextDeadline, "iteration \(iteration)")
            }
            machine.transportClosed(now: clock.now)
            output += machine.takeOutput()
            while let event = machine.nextEvent() { if case .closed = event { closed += 1 } }
            XCTAssertEqual(closed, 1, "iteration \(iteration)")
            let text = String(decoding: output, as: UTF8.self)
            XCTAssertLessThanOrEqual(text.components(separatedBy: "HTTP/1.1 ").count - 1, 1, "iteration \(iteration): \(text)")
        }
    }
}
