import XCTest
import PubSubProtocol

/// The answers socketcluster-server writes in its own key order (not JSONValue's sorted order).
final class ServerAnswerSerializationTests: XCTestCase {
    func testHandshakeAnswerKeepsTheServerKeyOrder() {
        let plain = HandshakeResponse(id: "abc", pingTimeout: 20000, isAuthenticated: false)
        XCTAssertEqual(
            plain.serializedResponse(rid: 1),
            #"{"rid":1,"data":{"id":"abc","pingTimeout":20000,"isAuthenticated":false}}"#)
        let rejected = HandshakeResponse(
            id: "abc", pingTimeout: 20000, isAuthenticated: false,
            authError: RemoteError(
                name: "AuthTokenInvalidError", message: "bad",
                fields: ["isBadToken": true]))
        XCTAssertEqual(
            rejected.serializedResponse(rid: 2),
            #"{"rid":2,"data":{"id":"abc","pingTimeout":20000,"authError":{"message":"bad","name":"AuthTokenInvalidError","isBadToken":true},"isAuthenticated":false}}"#
        )
        XCTAssertEqual(try HandshakeResponse(parsing: try JSONValue(parsing: rejected.serializedResponse(rid: 2))["data"]), rejected)
    }

    func testAuthenticateAnswerWritesANullAuthError() {
        XCTAssertEqual(
            AuthenticateResponse(isAuthenticated: true).serializedResponse(rid: 5),
            #"{"rid":5,"data":{"isAuthenticated":true,"authError":null}}"#)
    }

    func testBatchFrameJoinsSerializedPackets() {
        let packets = [Packet.transmit(event: "a", data: 1), .response(rid: 2, result: .success(nil))]
        XCTAssertEqual(Packet.batchFrame(packets.map { $0.serializedBytes() }), packets.serializedBytes())
    }
}
