import Foundation
import XCTest
@testable import WireKit

final class WebSocketStateMachineClientTests: XCTestCase {
    func testClientSendsRequestAndOpensOnValidResponse() throws {
        let clock = ManualClock()
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://example.com:8080/chat?x=1"), subprotocols: ["chat"])
        var machine = WebSocketStateMachine(client: handshake, configuration: WebSocketConfiguration())
        XCTAssertEqual(machine.phase, .connecting)
        machine.start(now: clock.now)
        let request = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertTrue(request.hasPrefix("GET /chat?x=1 HTTP/1.1\r\n"))
        XCTAssertTrue(request.contains("Host: example.com:8080\r\n"))
        XCTAssertTrue(request.contains("Sec-WebSocket-Key: \(handshake.key)\r\n"))
        let response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\nConnection: keep-alive, upgrade\r\nSec-WebSocket-Protocol: chat\r\nSec-WebSocket-Accept: \(handshake.expectedAccept)\r\n\r\n"
        machine.receive(Array(response.utf8) + wireFrame(.text, "hi", masked: false), now: clock.now)
        let events = machine.drainEvents()
        XCTAssertEqual(events.count, 2)
        guard case .opened(let info) = events.first else { return XCTFail("expected opened, got \(events)") }
        XCTAssertEqual(info.subprotocol, "chat")
        XCTAssertEqual(events.last, .text("hi"))
        XCTAssertEqual(machine.phase, .open)
    }

    func testPeerCloseIsEchoedAndClosedReportedOnce() throws {
        var clock = ManualClock()
        var machine = try openClient(clock: clock)
        _ = machine.drainEvents()
        machine.receive(wireFrame(.close, closePayload(1000, Array("bye".utf8)), masked: false), now: clock.now)
        XCTAssertEqual(machine.drainEvents(), [.closed(WebSocketCloseInfo(code: .normalClosure, reason: "bye", wasClean: true, error: nil))])
        let frames = machine.drainFrames()
        XCTAssertEqual(frames.count, 1)
        XCTAssertEqual(frames.first?.opcode, .close)
        XCTAssertEqual(frames.first?.payload, closePayload(1000))
        XCTAssertNotNil(frames.first?.maskingKey)
        XCTAssertFalse(machine.wantsTransportClosed, "a client waits for the server to close TCP first")
        clock.advance(.seconds(5))
        machine.timeElapsed(now: clock.now)
        XCTAssertTrue(machine.wantsTransportClosed)
        machine.transportClosed(now: clock.now)
        XCTAssertNil(machine.nextEvent())
    }
}
