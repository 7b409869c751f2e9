import Foundation
import PubSubProtocol

/// One binary frame of a `Tests/Fixtures/socketcluster-server-19-minbin/*.jsonl` recording
/// (socketcluster-server 19.1.1 and socketcluster-client 20.0.2, both with sc-codec-min-bin 3.0.0).
struct MinBinFrame {
    var file: String
    var line: Int
    var direction: String
    /// The frame's payload, exactly as recorded.
    var bytes: [UInt8]
    /// msgpack-lite's own reading of those bytes (the recording's `msgpack` field, `{"$bin":…}`
    /// turned into the ``JSONValue/binary(_:)`` wrapper); nil where msgpack-lite failed.
    var msgpackLiteReading: JSONValue?

    var location: String { "\(file):\(line)" }

    static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/socketcluster-server-19-minbin")
    }

    static func allFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)
            .filter { $0.hasSuffix(".jsonl") }
            .sorted()
    }

    /// Every binary frame of every recording, in file and line order.
    static func all() throws -> [MinBinFrame] {
        var frames: [MinBinFrame] = []
        for file in try allFiles() {
            let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent(file))
            for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
                let record = try JSONValue(parsing: line)
                guard let encoded = record["binary"]?.stringValue, let payload = Data(base64Encoded: encoded) else { continue }
                frames.append(
                    MinBinFrame(
                        file: file, line: index + 1, direction: record["dir"]?.stringValue ?? "", bytes: Array(payload),
                        msgpackLiteReading: record["msgpack"].map(Self.unwrappingBins)))
            }
        }
        return frames
    }

    private static func unwrappingBins(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(unwrappingBins))
        case .object(let members):
            if members.count == 1, let encoded = members["$bin"]?.stringValue, let data = Data(base64Encoded: encoded) {
                return .binary(data)
            }
            return .object(members.mapValues(unwrappingBins))
        default:
            return value
        }
    }
}
