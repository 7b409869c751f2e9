import XCTest

/// `demo` with no arguments: the story runs to its end, in order, and exits 0.
final class DemoStoryTests: XCTestCase {
    func testStoryTellsEveryStepInOrderAndExitsZero() throws {
        let demo = try DemoProcess([])
        let status = demo.waitForExit(timeout: 30)
        XCTAssertEqual(status, 0, "stderr:\n\(demo.stderr)")
        XCTAssertEqual(demo.stderr, "")

        // Key lines, in the order the story tells them.
        let expected = [
            "broker  listening on ws://127.0.0.1:",
            "alice   → #handshake {authToken: null}  ← id ",
            "bob     → #handshake {authToken: null}  ← id ",
            "bob     → invoke whoami  ← error AuthRequiredError: Log in first {\"code\":401}",
            "alice   → invoke login {username: alice}  ← #setAuthToken eyJ",
            "\"username\":\"alice\"",
            "alice   → invoke whoami  ← {\"socketId\":",
            "alice   → #subscribe chat/lobby  ← subscribed",
            "bob     → #subscribe chat/lobby  ← subscribed",
            "alice sees \"* bob joined\"",
            "alice sees \"* bob is typing…\"",
            "alice sees \"<bob> Hi alice!\"",
            "bob sees \"<alice> Hello bob\"",
            "alice's receiver gets {\"text\":\"Welcome to the lobby\"}",
            "alice's procedure answers {\"status\":\"online\"}",
            "alice: disconnected 4100 \"Dropped by the demo\", reconnect in 200 ms",
            "alice   → #handshake {authToken: eyJ",
            "isAuthenticated true",
            "alice   → #subscribe chat/lobby again (automatic)  ← subscribed",
            "alice sees \"<bob> Welcome back\"",
            "bob     → #publish chat/lobby leave, close 1000 (clean)  ⇒ alice sees \"* bob left\"",
            "alice   → #publish chat/lobby leave, close 1000 (clean)",
            "broker  stopped",
            "The story is complete.",
        ]
        let output = demo.stdout
        var searchFrom = output.startIndex
        for text in expected {
            guard let range = output.range(of: text, range: searchFrom..<output.endIndex) else {
                XCTFail("missing, or out of order: \(text)\n\(output)")
                return
            }
            searchFrom = range.upperBound
        }
    }

    func testStoryReconnectsWithANewSocketID() throws {
        let demo = try DemoProcess([])
        XCTAssertEqual(demo.waitForExit(timeout: 30), 0, "stderr:\n\(demo.stderr)")
        let lines = demo.stdout.split(separator: "\n").map(String.init)
        let first = lines.first { $0.hasPrefix("alice   → #handshake {authToken: null}") }.flatMap { Self.socketID(in: $0, after: "← id ") }
        let second = lines.first { $0.contains("(automatic,") }.flatMap { Self.socketID(in: $0, after: "← new id ") }
        XCTAssertNotNil(first)
        XCTAssertNotNil(second)
        XCTAssertNotEqual(first, second)
    }

    func testTraceShowsTheFramesOnTheWire() throws {
        let demo = try DemoProcess(["--trace"])
        XCTAssertEqual(demo.waitForExit(timeout: 30), 0, "stderr:\n\(demo.stderr)")
        let lines = demo.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // The first handshake carries no token and is call 1.
        XCTAssertTrue(lines.contains(##"alice sends    {"event":"#handshake","data":{"authToken":null},"cid":1}"##), demo.stdout)
        // A server invoke is answered with the server's cid as rid.
        XCTAssertTrue(lines.contains(##"alice receives {"event":"presence","cid":1}"##), demo.stdout)
        XCTAssertTrue(lines.contains(##"alice sends    {"rid":1,"data":{"status":"online"}}"##), demo.stdout)
        // A publish without ack is a transmit: no cid.
        let typing = lines.first { $0.hasPrefix("bob   sends") && $0.contains(##""type":"typing""##) }
        XCTAssertEqual(typing?.hasSuffix("}}}"), true, typing ?? "no typing frame")
        // After the reconnect, the handshake sends the stored token, with a cid that was not reset.
        let second = try XCTUnwrap(lines.first { $0.hasPrefix(##"alice sends    {"event":"#handshake","data":{"authToken":"eyJ"##) })
        let cid = second.split(separator: ":").last.flatMap { Int($0.dropLast()) }
        XCTAssertGreaterThan(cid ?? 0, 1, second)
    }

    private static func socketID(in line: String, after marker: String) -> String? {
        guard let range = line.range(of: marker) else { return nil }
        return line[range.upperBound...].prefix { $0 != "," }.description
    }
}
