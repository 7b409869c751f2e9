import XCTest
@testable import PubSubClient

/// Replays every JS-client recording of socketcluster-server 19 with `sc-codec-min-bin` 3.0.0
/// against a session using `MinBinPacketCodec`: the server's binary frames go in, and every frame
/// the core writes must equal what the JS client wrote, byte for byte.
final class MinBinRecordingReplayTests: XCTestCase {
    static let bytes: JSONValue = .binary(Data([0, 1, 2, 127, 128, 253, 254, 255]))

    static func scenarios() -> [String: RecordingReplayTests.Scenario] {
        typealias Scenario = RecordingReplayTests.Scenario
        var all = RecordingReplayTests.scenarios()
        all["binary-echo-arraybuffer"] = Scenario(
            steps: [RecordingReplayTests.invoke("echo", ["bytes": bytes])],
            verify: { outcome in
                guard case .success(let data)? = RecordingReplayTests.firstResult(outcome) else { return XCTFail("no echo") }
                XCTAssertEqual(data?["bytes"]?.binaryData, Data([0, 1, 2, 127, 128, 253, 254, 255]), "bin arrives as binary data")
            })
        let bufferMap: JSONValue = .object(
            Dictionary(uniqueKeysWithValues: [0, 1, 2, 127, 128, 253, 254, 255].enumerated().map { ("\($0.offset)", JSONValue.int(Int64($0.element))) }))
        all["binary-echo-buffer"] = Scenario(
            steps: [RecordingReplayTests.invoke("echo", ["bytes": bufferMap])],
            verify: { XCTAssertEqual(RecordingReplayTests.firstResult($0), .success(["bytes": bufferMap])) })
        all["binary-emit-arraybuffer"] = Scenario(
            steps: [
                RecordingReplayTests.transmit("tick", bytes),
                RecordingReplayTests.invoke("serverEmit", ["event": "blob", "payload": bytes]),
            ],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.message(.init(event: "blob", data: bytes))))
                XCTAssertEqual(RecordingReplayTests.firstResult(outcome), .success(nil))
            })
        all["binary-publish-arraybuffer"] = Scenario(
            steps: [
                RecordingReplayTests.subscribe("bin"),
                { session, now in _ = session.publishWithAck("bin", data: bytes, now: now) },
            ],
            verify: { outcome in
                XCTAssertTrue(outcome.events.contains(.publication(.init(channel: "bin", data: bytes))))
                XCTAssertEqual(RecordingReplayTests.firstResult(outcome), .success(nil))
            })
        return all
    }

    func testEveryMinBinJSClientScenarioIsScripted() throws {
        let names = try Recording.scenarioNames(in: Recording.minBinDirectory)
        XCTAssertEqual(names.count, 37)
        XCTAssertEqual(Set(names).subtracting(Self.scenarios().keys), [], "recordings without a replay script")
    }

    func testEveryProtocol2MinBinRecordingReplaysByteForByte() throws {
        try replayAll(suffix: "proto2")
    }

    func testEveryProtocol1MinBinRecordingReplaysByteForByte() throws {
        try replayAll(suffix: "proto1")
    }

    private func replayAll(suffix: String) throws {
        var exact = 0
        var equivalent = 0
        var files = 0
        for (name, scenario) in Self.scenarios().sorted(by: { $0.key < $1.key }) {
            let replayer = RecordingReplayer(
                fileName: "\(name).\(suffix).jsonl", storedToken: scenario.storedToken,
                steps: scenario.steps, answer: scenario.answer,
                codec: MinBinPacketCodec(), directory: Recording.minBinDirectory)
            let outcome = try replayer.run()
            scenario.verify(outcome)
            exact += outcome.exactFrames
            equivalent += outcome.equivalentFrames
            files += 1
        }
        XCTAssertEqual(files, 37)
        XCTAssertEqual(equivalent, 0, "every client frame should match byte for byte")
        XCTAssertGreaterThan(exact, 60)
    }
}
