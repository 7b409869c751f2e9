import XCTest
@testable import PubSubClient
import TestSupport

final class ScClientFaceTests: XCTestCase {
    private let queueKey = DispatchSpecificKey<String>()

    private func makeClient(_ server: FakeServer, queue: DispatchQueue) -> ScClient {
        ScClient(
            configuration: configured(SessionConfiguration(address: ServerAddress(hostname: "fake", port: 1))) {
                $0.autoReconnect = false
            },
            tokenStore: InMemoryTokenStore(), callbackQueue: queue, transportFactory: server)
    }

    func testCallbacksRunOnTheChosenQueueWithTheOldClientNames() {
        let queue = DispatchQueue(label: "user-callbacks")
        queue.setSpecific(key: queueKey, value: "user")
        let server = FakeServer()
        let client = makeClient(server, queue: queue)
        let key = queueKey
        let connected = expectation(description: "onConnect")
        let disconnected = expectation(description: "onDisconnect")
        client.setBasicListener(
            onConnect: { _ in
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), "user")
                connected.fulfill()
            }, onConnectError: nil,
            onDisconnect: { _, info in
                XCTAssertEqual(info, CloseInfo(code: 4321, reason: "asked"))
                disconnected.fulfill()
            })
        client.connect()
        wait(for: [connected], timeout: 30)
        XCTAssertTrue(client.isConnected())

        let acked = expectation(description: "emitAck")
        client.emitAck(eventName: "echo", data: ["x": 1]) { name, error, data in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "user")
            XCTAssertEqual(name, "echo")
            XCTAssertNil(error)
            XCTAssertEqual(data, ["x": 1])
            acked.fulfill()
        }
        let channelMessage = expectation(description: "onChannel")
        let eventMessage = expectation(description: "on")
        eventMessage.isInverted = true
        client.onChannel(channelName: "news") { name, data in
            XCTAssertEqual(name, "news")
            XCTAssertEqual(data, "hello")
            channelMessage.fulfill()
        }
        client.on(eventName: "news") { _, _ in eventMessage.fulfill() }  // same name, other namespace
        let subscribed = expectation(description: "subscribeAck")
        client.subscribeAck(channelName: "news") { _, error, _ in
            XCTAssertNil(error)
            subscribed.fulfill()
        }
        wait(for: [acked, subscribed], timeout: 30)
        let published = expectation(description: "publishAck")
        client.publishAck(channelName: "news", data: "hello") { _, error, _ in
            XCTAssertNil(error)
            published.fulfill()
        }
        wait(for: [published, channelMessage], timeout: 30)
        wait(for: [eventMessage], timeout: 0.1)
        client.emit(eventName: "tick")
        // From a thread other than the client's queue, an emit while open is queued and leaves
        // with the queue's next turn.
        let sentLast = { server.received.compactMap { try? JSONValue(parsing: $0) }.last?["event"] }
        for _ in 0..<500 where sentLast() != "tick" { usleep(10_000) }
        XCTAssertEqual(sentLast(), "tick")
        server.connection?.serverClose(code: 4321, reason: "asked")
        wait(for: [disconnected], timeout: 30)
        XCTAssertFalse(client.isConnected())
    }

    func testEmitsFromAnotherThreadKeepTheirOrderWithTheCallsBetweenThem() {
        let server = FakeServer()
        let queue = DispatchQueue(label: "cb")
        let client = makeClient(server, queue: queue)
        let connected = expectation(description: "connected")
        client.setBasicListener(onConnect: { _ in connected.fulfill() }, onConnectError: nil, onDisconnect: nil)
        client.connect()
        wait(for: [connected], timeout: 30)
        // This thread is not the client's queue: emits while open are queued without waiting,
        // and an emitAck between them still goes out between them.
        let acked = expectation(description: "emitAck")
        for n in 0..<50 { _ = client.emit(eventName: "a\(n)") }
        client.emitAck(eventName: "echo", data: "x") { _, _, _ in acked.fulfill() }
        for n in 0..<50 { _ = client.emit(eventName: "b\(n)") }
        wait(for: [acked], timeout: 30)
        let events = {
            server.received.compactMap { try? JSONValue(parsing: $0) }.compactMap { $0["event"]?.stringValue }.filter { $0 != "#handshake" }
        }
        for _ in 0..<500 where events().count < 101 { usleep(10_000) }
        XCTAssertEqual(events(), (0..<50).map { "a\($0)" } + ["echo"] + (0..<50).map { "b\($0)" })
    }

    func testOnAckResponderRepliesExactlyOnceAndOffRemovesListeners() {
        let queue = DispatchQueue(label: "cb")
        let server = FakeServer()
        let client = makeClient(server, queue: queue)
        let asked = expectation(description: "onAck")
        let token = client.onAck(eventName: "ask") { name, data, respond in
            XCTAssertEqual(name, "ask")
            XCTAssertEqual(data, 5)
            XCTAssertNil(respond(nil, ["ok": true]))
            XCTAssertEqual(respond(RemoteError(name: "Again", message: "twice"), nil)?.name, "InvalidActionError")
            asked.fulfill()
        }
        client.connect()
        client.emit(eventName: "askMe", data: ["payload": 5])
        wait(for: [asked], timeout: 30)
        client.off(token)
        client.emit(eventName: "askMe", data: ["payload": 6])
        let replies = expectation(description: "replies")
        DispatchQueue.global().async {
            while server.received.filter({ $0.hasPrefix(#"{"rid""#) }).count < 2 { usleep(1000) }
            replies.fulfill()
        }
        wait(for: [replies], timeout: 30)
        XCTAssertEqual(
            server.received.filter { $0.hasPrefix(#"{"rid""#) },
            [
                #"{"rid":1,"data":{"ok":true}}"#,
                #"{"rid":2,"error":{"message":"The client has no handler for procedure ask","name":"UnhandledRequestError"}}"#,
            ])
    }
}

import Foundation
