@testable import demo
import XCTest

/// What the chat publishes on a room channel, and what it shows.
final class ChatMessageTests: XCTestCase {
    func testChatMessageRoundTripsThroughJSONAndRejectsOtherPayloads() throws {
        let message = ChatMessage(type: .message, name: "bob", text: "hi", from: "abcdefgh")
        XCTAssertEqual(message.json, ["type": "message", "name": "bob", "text": "hi", "from": "abcdefgh"])
        XCTAssertEqual(ChatMessage(message.json), message)
        XCTAssertEqual(ChatMessage(["type": "join", "name": "ann", "from": "x"])?.display, "* ann joined")
        XCTAssertNil(ChatMessage(["type": "dance", "name": "ann", "from": "x"]))
        XCTAssertNil(ChatMessage("hello"))
        XCTAssertNil(ChatMessage(nil))
    }

    func testChatShowsOthersMessagesAndOnlyTheHereAnswersToItsOwnJoin() {
        let me = "me000000"
        XCTAssertFalse(ChatMessage(type: .message, name: "me", text: "hi", from: me).isShown(to: me))
        XCTAssertTrue(ChatMessage(type: .message, name: "bob", text: "hi", from: "bob00000").isShown(to: me))
        XCTAssertTrue(ChatMessage(type: .here, name: "bob", from: "bob00000", to: me).isShown(to: me))
        XCTAssertFalse(ChatMessage(type: .here, name: "bob", from: "bob00000", to: "carol000").isShown(to: me))
        XCTAssertEqual(
            ChatMessage(type: .here, name: "bob", from: "b", to: "c").json,
            ["type": "here", "name": "bob", "from": "b", "to": "c"])
    }
}
