import Foundation
import XCTest
import PubSubProtocol

/// Protocol.md §2 classification rules, one per test.
final class PacketClassificationTests: XCTestCase {
    private func classify(_ text: String) -> InboundFrame { InboundFrame(text: text) }

    func testTransmitWithAndWithoutData() {
        XCTAssertEqual(classify(#"{"event":"news","data":"hello"}"#), .packets([.transmit(event: "news", data: "hello")]))
        XCTAssertEqual(classify(##"{"event":"#removeAuthToken"}"##), .packets([.transmit(event: "#removeAuthToken", data: nil)]))
        XCTAssertEqual(classify(#"{"event":"x","data":null}"#), .packets([.transmit(event: "x", data: .null)]))
    }

    func testInvokeRequiresNumericCid() {
        XCTAssertEqual(classify(#"{"event":"ask","cid":1,"data":{"q":1}}"#), .packets([.invoke(event: "ask", data: ["q": 1], cid: 1)]))
        XCTAssertEqual(classify(#"{"event":"ask","cid":"1"}"#), .packets([.transmit(event: "ask", data: nil)]))
        XCTAssertEqual(classify(#"{"event":"ask","cid":null}"#), .packets([.transmit(event: "ask", data: nil)]))
        XCTAssertEqual(classify(#"{"event":"ask","cid":true}"#), .packets([.transmit(event: "ask", data: nil)]))
        XCTAssertEqual(classify(#"{"event":"ask","cid":4.0}"#), .packets([.invoke(event: "ask", data: nil, cid: 4)]))
    }

    func testNumericButNonIntegralCidIsRawBecauseItCannotBeEchoed() {
        XCTAssertEqual(classify(#"{"event":"ask","cid":1.5}"#), .raw(#"{"event":"ask","cid":1.5}"#))
        XCTAssertEqual(classify(#"[{"event":"ask","cid":1e30}]"#), .packets([.raw(["event": "ask", "cid": .double(1e30)])]))
    }

    func testEventMustBeAString() {
        XCTAssertEqual(classify(#"{"event":5,"data":1}"#), .raw(#"{"event":5,"data":1}"#))
        XCTAssertEqual(classify(#"{"event":null,"rid":3}"#), .packets([.response(rid: 3, result: .success(nil))]))
    }

    func testResponseSuccessAndFailure() {
        XCTAssertEqual(classify(#"{"rid":4,"data":"ok"}"#), .packets([.response(rid: 4, result: .success("ok"))]))
        XCTAssertEqual(classify(#"{"rid":2}"#), .packets([.response(rid: 2, result: .success(nil))]))
        XCTAssertEqual(classify(#"{"rid":2,"data":null}"#), .packets([.response(rid: 2, result: .success(.null))]))
        XCTAssertEqual(
            classify(#"{"rid":5,"error":{"message":"Nope","name":"CustomError","code":42}}"#),
            .packets([.response(rid: 5, result: .failure(RemoteError(name: "CustomError", message: "Nope", fields: ["code": 42])))]))
    }

    func testErrorWinsOverDataAndNullErrorIsSuccess() {
        XCTAssertEqual(
            classify(#"{"rid":1,"data":"ignored","error":"bad"}"#),
            .packets([.response(rid: 1, result: .failure(RemoteError(hydrating: "bad")))]))
        XCTAssertEqual(classify(#"{"rid":1,"data":"kept","error":null}"#), .packets([.response(rid: 1, result: .success("kept"))]))
    }

    func testRidMustBeANumber() {
        XCTAssertEqual(classify(#"{"rid":"1","data":1}"#), .raw(#"{"rid":"1","data":1}"#))
    }

    func testEventTakesPrecedenceOverRid() {
        XCTAssertEqual(classify(#"{"event":"e","rid":1}"#), .packets([.transmit(event: "e", data: nil)]))
    }

    func testPacketsWithManyMembersClassifyAsWithFew() {
        // Up to four members are found by comparing keys, more by hash: both must agree.
        let extra = #""a":1,"b":2,"c":3,"d":4"#
        XCTAssertEqual(classify(#"{\#(extra),"event":"ask","cid":7,"data":"q"}"#), .packets([.invoke(event: "ask", data: "q", cid: 7)]))
        XCTAssertEqual(classify(#"{"event":"ask","cid":7,"data":"q","a":1}"#), .packets([.invoke(event: "ask", data: "q", cid: 7)]))
        XCTAssertEqual(classify(#"{\#(extra),"rid":3,"error":"bad"}"#), .packets([.response(rid: 3, result: .failure(RemoteError(hydrating: "bad")))]))
        XCTAssertEqual(classify(#"{"rid":3,"data":[1],"a":1,"b":2}"#), .packets([.response(rid: 3, result: .success([1]))]))
        XCTAssertEqual(classify(#"{\#(extra),"rid":"3"}"#), .raw(#"{\#(extra),"rid":"3"}"#))
        XCTAssertEqual(classify(#"{"a":1,"b":2,"c":3}"#), .raw(#"{"a":1,"b":2,"c":3}"#))
    }

    func testPingPongFrames() {
        XCTAssertEqual(classify(""), .ping(.v2))
        XCTAssertEqual(classify("#1"), .ping(.v1))
        XCTAssertEqual(classify("#2"), .pong)
        XCTAssertEqual(classify("#3"), .raw("#3"))
        XCTAssertEqual(classify(" "), .raw(" "))
        XCTAssertEqual(classify("#1 "), .raw("#1 "))
    }

    func testLeadingWhitespaceBeforeJSON() {
        XCTAssertEqual(classify(" \t\r\n{\"event\":\"e\"}"), .packets([.transmit(event: "e", data: nil)]))
        XCTAssertEqual(classify("\u{0B}{\"event\":\"e\"}"), .raw("\u{0B}{\"event\":\"e\"}"))
    }

    func testNonObjectJSONIsRaw() {
        XCTAssertEqual(classify("42"), .raw("42"))
        XCTAssertEqual(classify("\"text\""), .raw("\"text\""))
        XCTAssertEqual(classify("null"), .raw("null"))
        XCTAssertEqual(classify("{}"), .raw("{}"))
        XCTAssertEqual(classify(#"{"foo":1}"#), .raw(#"{"foo":1}"#))
        XCTAssertEqual(classify("{\"event\":\"e\"} trailing"), .raw("{\"event\":\"e\"} trailing"))
    }

    func testBatchElementsAreClassifiedInOrderAndNestedArraysAreRaw() {
        XCTAssertEqual(
            classify(#"[{"event":"chat","data":1},[{"event":"x"}],5,{"rid":1},{"nope":true}]"#),
            .packets([
                .transmit(event: "chat", data: 1),
                .raw([["event": "x"]]),
                .raw(5),
                .response(rid: 1, result: .success(nil)),
                .raw(["nope": true]),
            ]))
        XCTAssertEqual(classify("[]"), .packets([]))
    }

    func testInboundFrameFromBytesHandlesInvalidUTF8() {
        XCTAssertEqual(InboundFrame(utf8: Array(#"{"event":"e"}"#.utf8)), .packets([.transmit(event: "e", data: nil)]))
        XCTAssertEqual(InboundFrame(utf8: [0x7B, 0xFF, 0x7D]), .raw("{\u{FFFD}}"))
        XCTAssertEqual(InboundFrame(utf8: [UInt8]()), .ping(.v2))
        XCTAssertEqual(InboundFrame(utf8: Array("#2".utf8)), .pong)
    }

    func testSerializationUsesJavaScriptKeyOrder() {
        XCTAssertEqual(Packet.transmit(event: "chat", data: ["text": "hi"]).serialized(), #"{"event":"chat","data":{"text":"hi"}}"#)
        XCTAssertEqual(Packet.transmit(event: "#removeAuthToken", data: nil).serialized(), ##"{"event":"#removeAuthToken"}"##)
        XCTAssertEqual(
            Packet.invoke(event: "#handshake", data: ["authToken": nil], cid: 1).serialized(),
            ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##)
        XCTAssertEqual(Packet.invoke(event: "ask", data: nil, cid: 3).serialized(keyOrder: .server), #"{"event":"ask","cid":3}"#)
        XCTAssertEqual(Packet.response(rid: 2, result: .success(nil)).serialized(), #"{"rid":2}"#)
        XCTAssertEqual(Packet.response(rid: 2, result: .success(.null)).serialized(), #"{"rid":2,"data":null}"#)
        XCTAssertEqual(
            Packet.response(
                rid: 1,
                result: .failure(
                    RemoteError(
                        name: "AuthTokenInvalidError", message: "invalid signature",
                        fields: ["isBadToken": true]))
            ).serialized(),
            #"{"rid":1,"error":{"message":"invalid signature","name":"AuthTokenInvalidError","isBadToken":true}}"#)
        XCTAssertEqual(Packet.response(rid: 1, result: .failure(RemoteError(hydrating: "text"))).serialized(), #"{"rid":1,"error":"text"}"#)
        XCTAssertEqual(Packet.raw(["a": 1]).serialized(), #"{"a":1}"#)
    }

    func testBatchSerialization() {
        let batch: [Packet] = [.transmit(event: "chat", data: 1), .transmit(event: "chat", data: 2)]
        XCTAssertEqual(batch.serialized(), #"[{"event":"chat","data":1},{"event":"chat","data":2}]"#)
        XCTAssertEqual([Packet]().serialized(), "[]")
        XCTAssertEqual(batch.serializedBytes(), Array(batch.serialized().utf8))
    }

    func testBooleansAndIntegersSurviveAPacketRoundTrip() {
        let packet = Packet.invoke(event: "#publish", data: ["channel": "room", "data": .binary(Data("hello".utf8))], cid: 3)
        let text = packet.serialized()
        XCTAssertEqual(text, ##"{"event":"#publish","data":{"channel":"room","data":{"base64":true,"data":"aGVsbG8="}},"cid":3}"##)
        XCTAssertEqual(InboundFrame(text: text), .packets([packet]))
    }

    func testPacketJSONValueMatchesSerialization() throws {
        let packets: [Packet] = [
            .transmit(event: "a", data: nil), .invoke(event: "b", data: [1], cid: 9),
            .response(rid: 9, result: .success("x")), .response(rid: 9, result: .failure(RemoteError(message: "m"))),
        ]
        for packet in packets {
            XCTAssertEqual(try JSONValue(parsing: packet.serialized()), packet.jsonValue)
            XCTAssertEqual(Packet(classifying: packet.jsonValue), packet)
        }
    }
}
