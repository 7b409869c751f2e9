import Foundation
import PubSubBroker
import PubSubClient
import XCTest

/// What a peer sends reaches the demo's terminal escaped: a close reason, a chat line, an HTTP
/// refusal's body or a redirect's `Location` with ESC, CSI, CR and LF can neither clear the
/// screen nor forge a line.
final class DemoPeerTextTests: XCTestCase {
    /// Clears the screen and homes the cursor, then starts a forged line.
    private let hostile = "bye\u{1B}[2J\u{1B}[H\r\nconnect     forged"
    private let escaped = #"bye\u{1B}[2J\u{1B}[H\r\nconnect     forged"#

    /// No ESC, CSI, CR or other control byte but the newlines ending `text`'s own lines.
    private func assertNoRawControls(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let raw: [Unicode.Scalar] = text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
        XCTAssertEqual(raw, [], text.debugDescription, file: file, line: line)
    }

    func testDemoBrokerPrintsAClientsCloseReasonEscaped() async throws {
        let broker = try DemoProcess(["broker", "--port", "0"])
        XCTAssertTrue(broker.waitForOutput("(Ctrl-C stops it)"))
        let line = broker.stdout.split(separator: "\n").first { $0.hasPrefix("broker listening on ") } ?? ""
        let url = String(line.dropFirst("broker listening on ".count).prefix { $0 != " " })

        var configuration = SessionConfiguration(address: try ServerAddress(url: url))
        configuration.autoReconnect = false
        let client = PubSubClient(configuration: configuration)
        let info = try await client.connect()
        await client.close(code: 4321, reason: hostile)
        XCTAssertTrue(broker.waitForOutput("disconnect  \(info.id) 4321 \(escaped)\n"))
        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
        assertNoRawControls(broker.stdout)
        XCTAssertEqual(broker.stdout.split(separator: "\n").filter { $0.hasPrefix("connect ") }.count, 1, broker.stdout)
    }

    func testDemoChatPrintsAServersCloseReasonAndAParticipantsLineEscaped() async throws {
        let broker = try await PubSubBroker.start(host: "127.0.0.1", port: 0)
        let chat = try DemoProcess(["chat", "--url", broker.url.absoluteString, "--name", "alice", "--timeout", "2"])
        XCTAssertTrue(chat.waitForOutput("* connected to"))

        let mallory = PubSubClient(configuration: SessionConfiguration(address: try ServerAddress(url: broker.url.absoluteString)))
        try await mallory.connect()
        let line: JSONValue = ["type": "message", "name": .string("mal\u{202E}lory\n"), "text": .string(hostile), "from": "m"]
        try await mallory.publishAck("chat/lobby", line)
        XCTAssertTrue(chat.waitForOutput(#"<mal\u{202E}lory\n> \#(escaped)"#))
        await mallory.close()

        let alice = try XCTUnwrap(broker.sockets.first { $0.id != mallory.id })
        alice.disconnect(code: 4100, reason: hostile)
        XCTAssertTrue(chat.waitForOutput("* connection lost (4100 \(escaped)), reconnecting…"))
        chat.type("/quit\n")
        XCTAssertEqual(chat.waitForExit(), 0, chat.stderr)
        await broker.stop()
        assertNoRawControls(chat.stdout)
        XCTAssertFalse(chat.stdout.contains("\u{202E}"), chat.stdout)
        XCTAssertFalse(chat.stdout.split(separator: "\n").contains { $0.hasPrefix("connect ") }, chat.stdout)
    }

    func testDemoChatPrintsAnHTTPRefusalsBodyAndARedirectsLocationEscaped() throws {
        // A header with a C0 control is refused as no HTTP head at all; C1 and bidi pass as text.
        let refusal = try HTTPNotFoundServer(
            answer: Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 16\r\nConnection: close\r\n\r\nno\u{1B}[2J\r\nforged".utf8))
        defer { refusal.stop() }
        let redirect = try HTTPNotFoundServer(
            answer: Array("HTTP/1.1 302 Found\r\nLocation: ws://x/\u{9B}2J\u{202E}exe\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        defer { redirect.stop() }
        let expected = [
            (refusal.port, #"The server rejected the WebSocket upgrade with HTTP 403: no\u{1B}[2J\r\nforged"#),
            (redirect.port, #"The server redirected the WebSocket upgrade (HTTP 302) to ws://x/\u{9B}2J\u{202E}exe; redirects are not followed"#),
        ]
        for (port, message) in expected {
            let url = "ws://127.0.0.1:\(port)/socketcluster/"
            let chat = try DemoProcess(["chat", "--url", url, "--name", "alice", "--timeout", "5"])
            chat.closeInput()
            XCTAssertEqual(chat.waitForExit(), 1, chat.stderr)
            XCTAssertEqual(chat.stderr, "demo chat: cannot chat on \(url): \(message)\n")
            assertNoRawControls(chat.stderr)
            XCTAssertFalse(chat.stderr.contains("\u{202E}"), chat.stderr)
        }
    }
}
