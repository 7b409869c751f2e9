import PubSubClient
import XCTest

@testable import demo

/// `demo chat` says in one line why it could not start, from the error's code and context.
final class ChatCommandExplainTests: XCTestCase {
    func testEachFailureIsExplainedInOneLine() {
        let cases: [(any Error, String)] = [
            (PubSubError.connectionFailed(code: 4000, reason: ""), "no answer to the SocketCluster handshake (is this a SocketCluster server?)"),
            (PubSubError.connectionFailed(code: 4003, reason: "x"), "no answer to the SocketCluster handshake (is this a SocketCluster server?)"),
            (PubSubError.connectionFailed(code: 4500, reason: ""), "the connection closed with code 4500"),
            (PubSubError.connectionFailed(code: 4500, reason: "full\r\n"), #"full\r\n"#),
            (
                PubSubError.handshakeRejected(RemoteError(name: "BannedError", message: "go"), code: 4501),
                "the server refused the handshake with code 4501: BannedError: go"
            ),
            (PubSubError.remote(RemoteError(name: "FailError", message: "boom")), "FailError: boom"),
            (PubSubError.timeout(event: "#handshake"), "Event response for #handshake event timed out"),
            (CocoaError(.fileNoSuchFile), "\(CocoaError(.fileNoSuchFile))"),
        ]
        for (error, line) in cases {
            XCTAssertEqual(ChatCommand.explain(error), line, "\(error)")
        }
    }
}
