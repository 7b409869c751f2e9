import XCTest
@testable import WireKit

/// The server role's `acceptRequest` runs inside the state machine: the request head is parsed
/// once, screened, then validated.
final class UpgradeScreeningTests: XCTestCase {
    private let request =
        "GET /chat?x=1 HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    func testRefusedRequestIsAnsweredWithItsStatusAndClosesTheConnection() {
        let clock = ManualClock()
        var machine = WebSocketStateMachine(server: WebSocketConfiguration()) { head in head.target.hasPrefix("/chat") ? .refuse(status: 404) : .accept }
        machine.start(now: clock.now)
        // Byte by byte: the decision waits for the whole head.
        for byte in Array(request.utf8) { machine.receive([byte], now: clock.now) }
        let answer = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 404 Not Found\r\n"), answer)
        XCTAssertEqual(
            machine.drainEvents(),
            [
                .closed(
                    WebSocketCloseInfo(
                        code: .abnormalClosure, reason: "", wasClean: false,
                        error: .invalidUpgradeRequest(status: 404, reason: "the server refused this request")))
            ])
        XCTAssertTrue(machine.wantsTransportClosed)
    }

    func testAcceptedRequestIsValidatedAndOpens() {
        let clock = ManualClock()
        var seen: [String] = []
        var machine = WebSocketStateMachine(server: WebSocketConfiguration()) { _ in .accept }
        machine.start(now: clock.now)
        machine.receive(Array(request.utf8), now: clock.now)
        let answer = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), answer)
        for event in machine.drainEvents() { if case .opened(let info) = event { seen.append(info.resourceName) } }
        XCTAssertEqual(seen, ["/chat?x=1"])
    }
}
