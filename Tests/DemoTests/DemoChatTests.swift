import Foundation
import XCTest

/// `demo broker` and `demo chat` driven through pipes, as a person at two terminals would.
final class DemoChatTests: XCTestCase {
    /// Starts `demo broker --port 0` and returns it with the URL it listens on.
    private func startBroker() throws -> (DemoProcess, String) {
        let broker = try DemoProcess(["broker", "--port", "0"])
        XCTAssertTrue(broker.waitForOutput("(Ctrl-C stops it)"))
        let line = broker.stdout.split(separator: "\n").first { $0.hasPrefix("broker listening on ") } ?? ""
        let url = line.dropFirst("broker listening on ".count).prefix { $0 != " " }
        return (broker, String(url))
    }

    func testTwoParticipantsSeeJoinTypingMessagesAndLeave() throws {
        let (broker, url) = try startBroker()
        XCTAssertTrue(url.hasPrefix("ws://127.0.0.1:") && url.hasSuffix("/socketcluster/"), url)

        let alice = try DemoProcess(["chat", "--url", url, "--name", "alice"])
        XCTAssertTrue(alice.waitForOutput("* connected to \(url) as alice, room lobby"))
        let bob = try DemoProcess(["chat", "--url", url, "--name", "bob"])
        XCTAssertTrue(bob.waitForOutput("* connected to \(url) as bob, room lobby"))

        XCTAssertTrue(alice.waitForOutput("* bob joined"))
        XCTAssertTrue(bob.waitForOutput("* alice is here"))

        bob.type("Hel")
        XCTAssertTrue(alice.waitForOutput("* bob is typing…"))
        bob.type("lo alice\n")
        XCTAssertTrue(alice.waitForOutput("<bob> Hello alice"))
        alice.type("Hi bob\n")
        XCTAssertTrue(bob.waitForOutput("<alice> Hi bob"))

        bob.type("/quit\n")
        XCTAssertEqual(bob.waitForExit(), 0, "stderr:\n\(bob.stderr)")
        XCTAssertTrue(alice.waitForOutput("* bob left"))
        XCTAssertFalse(bob.stdout.contains("<bob>"), "one's own messages are not echoed back")

        alice.closeInput()
        XCTAssertEqual(alice.waitForExit(), 0, "stderr:\n\(alice.stderr)")
        XCTAssertEqual(alice.stderr, "")
        XCTAssertEqual(bob.stderr, "")

        // Both left with a normal close the broker saw.
        XCTAssertTrue(broker.waitForOutput("disconnect"))
        let closes = broker.stdout.split(separator: "\n").filter { $0.hasPrefix("disconnect ") }
        XCTAssertEqual(closes.count, 2, broker.stdout)
        XCTAssertTrue(closes.allSatisfy { $0.hasSuffix(" 1000") }, broker.stdout)

        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
        XCTAssertTrue(broker.stdout.contains("SIGINT, stopping\nbroker stopped\n"), broker.stdout)
    }

    func testCtrlCLeavesTheRoomLikeQuit() throws {
        let (broker, url) = try startBroker()
        let alice = try DemoProcess(["chat", "--url", url, "--name", "alice"])
        XCTAssertTrue(alice.waitForOutput("* connected to"))
        let bob = try DemoProcess(["chat", "--url", url, "--name", "bob"])
        XCTAssertTrue(alice.waitForOutput("* bob joined"))
        XCTAssertTrue(bob.waitForOutput("* connected to"))

        bob.interrupt()
        XCTAssertEqual(bob.waitForExit(), 0, "stderr:\n\(bob.stderr)")
        XCTAssertTrue(alice.waitForOutput("* bob left"))
        XCTAssertTrue(broker.waitForOutput(" 1000\n"), "bob closed normally")

        alice.closeInput()
        XCTAssertEqual(alice.waitForExit(), 0)
        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
    }

    func testParticipantWhoVanishesIsAnnouncedAsLeftByTheBroker() throws {
        let (broker, url) = try startBroker()
        let alice = try DemoProcess(["chat", "--url", url, "--name", "alice"])
        XCTAssertTrue(alice.waitForOutput("* connected to"))
        let bob = try DemoProcess(["chat", "--url", url, "--name", "bob"])
        XCTAssertTrue(alice.waitForOutput("* bob joined"))

        // SIGKILL: bob cannot say goodbye; the broker publishes his leave when his socket drops.
        kill(bob.processIdentifier, SIGKILL)
        XCTAssertTrue(alice.waitForOutput("* bob left"))

        alice.type("/quit\n")
        XCTAssertEqual(alice.waitForExit(), 0)
        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
    }

    func testBrokerStopsCleanlyOnSIGTERMAndTheChatSaysItIsReconnecting() throws {
        let (broker, url) = try startBroker()
        let alice = try DemoProcess(["chat", "--url", url, "--name", "alice", "--timeout", "1"])
        XCTAssertTrue(alice.waitForOutput("* connected to"))

        kill(broker.processIdentifier, SIGTERM)
        XCTAssertEqual(broker.waitForExit(), 0)
        XCTAssertTrue(broker.stdout.contains("SIGTERM, stopping\n"), broker.stdout)
        XCTAssertTrue(broker.stdout.hasSuffix(" 1001\nbroker stopped\n"), "alice closed with 1001 first: \(broker.stdout)")
        XCTAssertTrue(alice.waitForOutput("* connection lost (1001 Socket was disconnected), reconnecting…"))

        alice.type("/quit\n")
        XCTAssertEqual(alice.waitForExit(), 0, "leaving works without a server too")
    }

    func testMalformedURLIsOneLineAndANonZeroExit() throws {
        for url in ["http://127.0.0.1:8000/socketcluster/", "ws://", "127.0.0.1:8000"] {
            let chat = try DemoProcess(["chat", "--url", url, "--name", "alice"])
            chat.closeInput()
            let status = chat.waitForExit()
            XCTAssertNotNil(status)
            XCTAssertNotEqual(status, 0, url)
            XCTAssertEqual(Self.lines(chat.stderr).count, 1, chat.stderr)
            XCTAssertTrue(chat.stderr.hasPrefix("demo chat: "), chat.stderr)
            XCTAssertEqual(chat.stdout, "")
        }
    }

    func testRefusedConnectionIsOneLineAndANonZeroExit() throws {
        try assertChatFailsWithOneLine(
            url: "ws://127.0.0.1:\(try closedPort())/socketcluster/",
            saying: "Connection failed: connection refused")
    }

    func testWrongPathOnTheBrokerIsOneLineAndANonZeroExit() throws {
        // The broker refuses any other path than /socketcluster/.
        let (broker, url) = try startBroker()
        let wrongPath = url.replacingOccurrences(of: "/socketcluster/", with: "/not-socketcluster/")
        try assertChatFailsWithOneLine(url: wrongPath)
        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
    }

    func testWebServerAnsweringHTTP404IsOneLineAndANonZeroExit() throws {
        let server = try HTTPNotFoundServer()
        defer { server.stop() }
        try assertChatFailsWithOneLine(
            url: "ws://127.0.0.1:\(server.port)/socketcluster/",
            saying: "The server rejected the WebSocket upgrade with HTTP 404")
    }

    func testWebSocketServerThatNeverAnswersTheHandshakeIsOneLineAndANonZeroExit() async throws {
        let server = try startSilentWebSocketServer()
        let url = "ws://127.0.0.1:\(server.port)/socketcluster/"
        try assertChatFailsWithOneLine(url: url, timeout: 1, saying: "no answer to the SocketCluster handshake")
        await server.stop()
    }

    /// `demo chat --url url` exits non-zero with exactly one line on stderr naming the URL.
    private func assertChatFailsWithOneLine(
        url: String, timeout: Int = 10, saying reason: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let chat = try DemoProcess(["chat", "--url", url, "--name", "alice", "--timeout", "\(timeout)"])
        chat.closeInput()
        let status = chat.waitForExit()
        XCTAssertNotNil(status, "still running", file: file, line: line)
        XCTAssertNotEqual(status, 0, file: file, line: line)
        XCTAssertEqual(Self.lines(chat.stderr).count, 1, chat.stderr, file: file, line: line)
        XCTAssertTrue(chat.stderr.hasPrefix("demo chat: cannot chat on \(url): \(reason)"), chat.stderr, file: file, line: line)
        XCTAssertEqual(chat.stdout, "", file: file, line: line)
    }

    func testBrokerOnABusyPortIsOneLineAndANonZeroExit() throws {
        let (first, url) = try startBroker()
        let port = url.split(separator: ":").last?.prefix { $0.isNumber } ?? ""
        let second = try DemoProcess(["broker", "--port", String(port)])
        XCTAssertEqual(second.waitForExit(), 1)
        XCTAssertEqual(Self.lines(second.stderr).count, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("address already in use"), second.stderr)
        XCTAssertEqual(second.stdout, "")
        first.interrupt()
        XCTAssertEqual(first.waitForExit(), 0)
    }

    func testUnknownCommandPrintsOneLineAndTheHintAndExitsTwo() throws {
        let demo = try DemoProcess(["dance"])
        XCTAssertEqual(demo.waitForExit(), 2)
        XCTAssertEqual(demo.stderr, "demo: unknown command dance\nRun 'demo --help' for usage.\n")
        XCTAssertEqual(demo.stdout, "")
    }

    private static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: true)
    }
}
