@testable import demo
import PubSubBroker
import PubSubClient
import XCTest

/// The demo broker's procedures and hooks, through a real client.
final class ChatServicesTests: XCTestCase {
    func testLoginIssuesATokenThatWhoamiReadsBack() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        ChatServices(broker: broker).install()
        let client = try PubSubClient(url: broker.url.absoluteString)
        try await client.connect()

        do {
            _ = try await client.invoke("login", ["username": ""])
            XCTFail("an empty username was accepted")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.name, "LoginError")
            XCTAssertEqual(error.remote?["field"], "username")
        }
        _ = try await client.invoke("login", ["username": "ann"])
        XCTAssertEqual(client.auth.token?["username"], "ann")
        let whoami = try await client.invoke("whoami")
        XCTAssertEqual(whoami?["username"], "ann")
        XCTAssertEqual(whoami?["socketId"]?.stringValue, client.id)

        _ = await client.close()
        await broker.stop()
    }

    func testChatChannelsOnlyTakeChatMessages() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        ChatServices(broker: broker).install()
        let client = try PubSubClient(url: broker.url.absoluteString)
        try await client.connect()

        do {
            try await client.publishAck("chat/lobby", ["text": "no type, no name"])
            XCTFail("a malformed chat publication was accepted")
        } catch let error as PubSubError where error.code == .remote {
            XCTAssertEqual(error.name, "InvalidChatMessageError")
        }
        try await client.publishAck("chat/lobby", ChatMessage(type: .message, name: "ann", text: "hi", from: "a").json)
        try await client.publishAck("news", ["anything": "goes"])  // other channels are not checked

        _ = await client.close()
        await broker.stop()
    }
}
