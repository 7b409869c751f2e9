import XCTest
import PubSubProtocol

/// Classifies every frame of every recording of the real socketcluster-server 19.
final class RecordingClassificationTests: XCTestCase {
    private var allFrames: [RecordedFrame] = []

    override func setUpWithError() throws {
        allFrames = try RecordedFrame.allFiles().flatMap { try RecordedFrame.load($0) }
    }

    private func frames(_ file: String) throws -> [RecordedFrame] {
        try RecordedFrame.load(file)
    }

    private func isBatchText(_ text: String) -> Bool {
        text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first == "["
    }

    func testAllRecordingsAreLoaded() throws {
        XCTAssertEqual(try RecordedFrame.allFiles().count, 105)
        XCTAssertGreaterThan(allFrames.filter { $0.text != nil }.count, 400)
    }

    func testEveryTextFrameClassifiesAndSurvivesReserialization() {
        var counts: [String: Int] = [:]
        for frame in allFrames {
            guard let text = frame.text else { continue }
            let where_ = "\(frame.file):\(frame.line)"
            switch InboundFrame(text: text) {
            case .ping(let version):
                counts["ping", default: 0] += 1
                XCTAssertEqual(text, version.pingText, where_)
            case .pong:
                counts["pong", default: 0] += 1
                XCTAssertEqual(text, "#2", where_)
            case .raw(let rawText):
                counts["raw", default: 0] += 1
                XCTAssertEqual(rawText, text, where_)
            case .packets(let packets):
                counts["packets", default: 0] += packets.count
                let again = isBatchText(text) ? packets.serialized() : (packets.first?.serialized() ?? "")
                XCTAssertEqual(InboundFrame(text: again), .packets(packets), where_)
                for packet in packets {
                    if case .raw = packet { XCTFail("recorded packet classified raw at \(where_): \(text)") }
                }
            }
        }
        XCTAssertGreaterThan(counts["ping"] ?? 0, 20)
        XCTAssertGreaterThanOrEqual(counts["pong"] ?? 0, 3)
        XCTAssertEqual(counts["raw"], 6, "{not json ×4 and hello ×2")
        XCTAssertGreaterThan(counts["packets"] ?? 0, 400)
    }

    func testEmptyFramesArePingsAndHashFramesArePingPong() {
        for frame in allFrames {
            switch frame.text {
            case ""?: XCTAssertEqual(InboundFrame(text: ""), .ping(.v2))
            case "#1"?: XCTAssertEqual(InboundFrame(text: "#1"), .ping(.v1))
            case "#2"?: XCTAssertEqual(InboundFrame(text: "#2"), .pong)
            default: break
            }
        }
    }

    func testEveryServerFrameWithRidIsAResponse() throws {
        var responses = 0
        for frame in allFrames where frame.direction == "server->client" {
            guard let text = frame.text, text.hasPrefix("{\"rid\":") else { continue }
            guard case .packets(let packets) = InboundFrame(text: text), packets.count == 1,
                case .response(let rid, _) = packets[0]
            else {
                XCTFail("\(frame.file):\(frame.line) not a response: \(text)")
                continue
            }
            let recordedRid = try JSONValue(parsing: text)["rid"]?.intValue
            XCTAssertEqual(rid, recordedRid)
            responses += 1
        }
        XCTAssertGreaterThan(responses, 150)
    }

    func testEveryServerPublishPushIsATransmitWithAChannel() {
        var pushes = 0
        for frame in allFrames where frame.direction == "server->client" {
            guard let text = frame.text, text.hasPrefix("{\"event\":\"#publish\"") else { continue }
            guard case .packets(let packets) = InboundFrame(text: text),
                case .transmit(BuiltInEvent.publish, let data)? = packets.first
            else {
                XCTFail("\(frame.file):\(frame.line) not a #publish transmit")
                continue
            }
            XCTAssertNotNil(data?["channel"]?.stringValue)
            pushes += 1
        }
        XCTAssertGreaterThan(pushes, 5)
    }

    func testEveryClientFrameWithNumericCidIsAnInvokeWithThatCid() throws {
        for frame in allFrames where frame.direction == "client->server" {
            guard let text = frame.text, text.hasPrefix("{\"event\"") else { continue }
            let value = try JSONValue(parsing: text)
            guard case .packets(let packets) = InboundFrame(text: text), let packet = packets.first else {
                XCTFail("\(frame.file):\(frame.line)")
                continue
            }
            if let cid = value["cid"], cid.isNumber {
                XCTAssertEqual(packet, .invoke(event: value["event"]?.stringValue ?? "", data: value["data"], cid: cid.intValue ?? -1))
            } else {
                XCTAssertEqual(packet, .transmit(event: value["event"]?.stringValue ?? "", data: value["data"]))
            }
        }
    }

    func testClientFramesReserializeByteForByte() {
        // JS client frames use `event, data, cid` order and the nested objects in these
        // recordings happen to have sorted keys, so our serializer reproduces them exactly.
        var exact = 0
        for frame in allFrames where frame.direction == "client->server" {
            guard let text = frame.text, case .packets(let packets) = InboundFrame(text: text) else { continue }
            // A non-numeric cid is ignored by classification, so it is not written back.
            if text.contains(#""cid":"5""#) {
                XCTAssertEqual(packets[0].serialized(), #"{"event":"echo","data":"x"}"#)
                continue
            }
            let again = isBatchText(text) ? packets.serialized() : packets[0].serialized()
            XCTAssertEqual(again, text, "\(frame.file):\(frame.line)")
            if again == text { exact += 1 }
        }
        XCTAssertGreaterThan(exact, 150)
    }

    func testServerInvokeUsesServerKeyOrder() throws {
        let text = try XCTUnwrap(try frames("server-invoke.proto2.jsonl").first { $0.text?.contains("\"ask\"") == true }?.text)
        XCTAssertEqual(text, #"{"event":"ask","cid":1,"data":"what?"}"#)
        guard case .packets(let packets) = InboundFrame(text: text) else { return XCTFail() }
        XCTAssertEqual(packets, [.invoke(event: "ask", data: "what?", cid: 1)])
        XCTAssertEqual(packets[0].serialized(keyOrder: .server), text)
        XCTAssertEqual(packets[0].serialized(keyOrder: .client), #"{"event":"ask","data":"what?","cid":1}"#)
    }

    func testErrorResponsesReserializeByteForByte() throws {
        for file in [
            "invoke-fail.proto2.jsonl", "subscribe-rejected.proto2.jsonl", "publish-rejected.proto2.jsonl",
            "raw-malformed-builtin-events.proto2.jsonl", "authenticate-bad-token.proto2.jsonl", "server-invoke-error.proto2.jsonl",
        ] {
            var found = false
            for frame in try frames(file) {
                guard let text = frame.text, text.contains("\"error\":"),
                    case .packets(let packets) = InboundFrame(text: text),
                    case .response(_, .failure)? = packets.first
                else { continue }
                XCTAssertEqual(packets[0].serialized(), text, file)
                found = true
            }
            XCTAssertTrue(found, file)
        }
    }

    func testInvokeFailHydratesTheRecordedError() throws {
        let text = try XCTUnwrap(try frames("invoke-fail.proto2.jsonl").first { $0.text?.contains("error") == true }?.text)
        guard case .packets(let packets) = InboundFrame(text: text),
            case .response(2, .failure(let error))? = packets.first
        else { return XCTFail(text) }
        XCTAssertEqual(error.name, "FailError")
        XCTAssertEqual(error.message, "boom")
        XCTAssertEqual(error.fields, [:])
    }

    func testInvalidJSONAfterHandshakeIsRaw() throws {
        let texts = try frames("raw-invalid-json-after-handshake.proto2.jsonl").compactMap(\.text)
        XCTAssertTrue(texts.contains("{not json"))
        XCTAssertEqual(InboundFrame(text: "{not json"), .raw("{not json"))
        XCTAssertEqual(InboundFrame(text: "hello"), .raw("hello"))
        let first = try frames("raw-first-message-invalid-json.proto2.jsonl").compactMap(\.text).first
        XCTAssertEqual(first.map { InboundFrame(text: $0) }, .raw("{not json"))
    }

    func testNonNumericCidIsATransmit() throws {
        let text = try XCTUnwrap(try frames("raw-non-numeric-cid.proto2.jsonl").first { $0.text?.contains(#""cid":"5""#) == true }?.text)
        XCTAssertEqual(InboundFrame(text: text), .packets([.transmit(event: "echo", data: "x")]))
    }

    func testServerBatchHasThreeEventsThenTheResponse() throws {
        let text = try XCTUnwrap(try frames("batch-server.proto2.jsonl").first { $0.text?.hasPrefix("[") == true }?.text)
        XCTAssertEqual(
            InboundFrame(text: text),
            .packets([
                .transmit(event: "b", data: 1), .transmit(event: "b", data: 2), .transmit(event: "b", data: 3),
                .response(rid: 2, result: .success(3)),
            ]))
    }

    func testClientBatchHasTwoTransmitsAndOneInvoke() throws {
        let text = try XCTUnwrap(try frames("batch-client.proto2.jsonl").first { $0.text?.hasPrefix("[") == true }?.text)
        guard case .packets(let packets) = InboundFrame(text: text) else { return XCTFail(text) }
        XCTAssertEqual(packets.count, 3)
        XCTAssertEqual(packets.filter { if case .transmit = $0 { return true } else { return false } }.count, 2)
        XCTAssertEqual(packets.filter { if case .invoke = $0 { return true } else { return false } }.count, 1)
    }

    func testBatchCarryingTheHandshake() throws {
        let text = try XCTUnwrap(try frames("raw-batch-with-handshake.proto2.jsonl").first?.text)
        XCTAssertEqual(
            InboundFrame(text: text),
            .packets([
                .invoke(event: "#handshake", data: ["authToken": nil], cid: 1),
                .invoke(event: "echo", data: "batched", cid: 2),
            ]))
    }

    func testBinaryHandshakeFrameDecodesAsUTF8JSON() throws {
        let binary = try XCTUnwrap(try frames("raw-handshake-binary-frame.proto2.jsonl").compactMap(\.binary).first)
        guard case .packets(let packets) = InboundFrame(utf8: binary),
            case .invoke(BuiltInEvent.handshake, _, _)? = packets.first
        else {
            return XCTFail("binary frame is not a #handshake invoke")
        }
    }

    func testResponsesWithoutDataHaveNoDataKey() throws {
        let text = try XCTUnwrap(try frames("invoke-echo-no-data.proto2.jsonl").first { $0.text == #"{"rid":2}"# }?.text)
        XCTAssertEqual(InboundFrame(text: text), .packets([.response(rid: 2, result: .success(nil))]))
    }

    func testHandshakeResponsesParse() throws {
        var parsed = 0
        for frame in allFrames where frame.direction == "server->client" {
            guard let text = frame.text, text.contains("\"pingTimeout\""),
                case .packets(let packets) = InboundFrame(text: text),
                case .response(_, .success(let data))? = packets.first
            else { continue }
            let response = try HandshakeResponse(parsing: data)
            XCTAssertEqual(response.id.count, 20, "\(frame.file):\(frame.line)")
            XCTAssertTrue([20000, 2000, 3000].contains(response.pingTimeout), "\(response.pingTimeout)")
            parsed += 1
        }
        XCTAssertGreaterThan(parsed, 80)

        let expired = try XCTUnwrap(try frames("handshake-expired-token.proto2.jsonl").first { $0.text?.contains("authError") == true }?.text)
        guard case .packets(let packets) = InboundFrame(text: expired), case .response(1, .success(let data))? = packets.first else {
            return XCTFail()
        }
        let response = try HandshakeResponse(parsing: data)
        XCTAssertFalse(response.isAuthenticated)
        XCTAssertEqual(response.authError?.name, "AuthTokenExpiredError")
        XCTAssertEqual(response.authError?["isBadToken"], true)
        XCTAssertEqual(response.authError?["expiry"], "2020-09-13T12:27:40.000Z")

        let valid = try XCTUnwrap(try frames("handshake-valid-token.proto2.jsonl").first { $0.text?.contains("pingTimeout") == true }?.text)
        guard case .packets(let validPackets) = InboundFrame(text: valid), case .response(_, .success(let validData))? = validPackets.first else {
            return XCTFail()
        }
        XCTAssertTrue(try HandshakeResponse(parsing: validData).isAuthenticated)
    }

    func testAuthenticateResponseParses() throws {
        let text = try XCTUnwrap(try frames("authenticate.proto2.jsonl").first { $0.text?.contains("isAuthenticated\":true") == true }?.text)
        guard case .packets(let packets) = InboundFrame(text: text), case .response(_, .success(let data))? = packets.first else {
            return XCTFail(text)
        }
        XCTAssertEqual(try AuthenticateResponse(parsing: data), AuthenticateResponse(isAuthenticated: true, authError: nil))
    }
}
