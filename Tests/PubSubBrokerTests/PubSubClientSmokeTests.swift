import Foundation
import XCTest
import PubSubBroker
import PubSubClient

/// Our own client against the broker over loopback: a smoke test that the two agree on the wire
/// (PubSubClient's full end-to-end suite lives with the client).
final class PubSubClientSmokeTests: XCTestCase {
    func testClientInvokesSubscribesPublishesAndLogsIn() async throws {
        let broker = try await PubSubBroker.start(port: 0, options: BrokerOptions(authKey: "k"))
        broker.procedure("echo") { request in request.data }
        broker.procedure("login") { request in
            try request.socket.setAuthToken(["username": request.data?["username"] ?? nil])
            return "ok"
        }
        let client = try PubSubClient(url: broker.url.absoluteString)
        let handshake = try await client.connect()
        XCTAssertEqual(handshake.id.count, 20)
        XCTAssertEqual(handshake.pingTimeout, .seconds(20))
        XCTAssertFalse(handshake.isAuthenticated)

        let echoed = try await client.invoke("echo", ["list": [1, 2, 3], "flag": true])
        XCTAssertEqual(echoed, ["list": [1, 2, 3], "flag": true])

        try await client.subscribe("room")
        XCTAssertEqual(broker.subscriberCount(channel: "room"), 1)
        let publications = client.channel("room")
        try await client.publishAck("room", ["text": "hi"])
        var iterator = publications.makeAsyncIterator()
        let received = await iterator.next()
        XCTAssertEqual(received, ["text": "hi"])

        let login = try await client.invoke("login", ["username": "bob"])
        XCTAssertEqual(login, "ok")
        XCTAssertEqual(client.auth.state, .authenticated)
        XCTAssertEqual(client.auth.token?["username"], "bob")
        XCTAssertEqual(broker.sockets.first?.authToken?["username"], "bob")

        client.disconnect()
        await broker.stop()
    }

    func testServerInvokeIsAnsweredByTheClientsProcedure() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let client = try PubSubClient(url: broker.url.absoluteString)
        let requests = client.procedure("ask")
        let answering = Task {
            for await request in requests {
                try? request.respond(["answer": 42])
                break
            }
        }
        _ = try await client.connect()
        let socket = try XCTUnwrap(broker.sockets.first)
        let answer = try await socket.invoke("ask", "what?")
        XCTAssertEqual(answer, ["answer": 42])
        answering.cancel()
        client.disconnect()
        await broker.stop()
    }
}
