import Foundation
import PubSubProtocol

/// One line of a Tests/Fixtures/socketcluster-server-19/*.jsonl recording.
struct RecordedFrame {
    var file: String
    var line: Int
    var direction: String
    /// Text frame content; nil for binary and close records.
    var text: String?
    var binary: Data?
    var closeCode: Int64?

    static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/socketcluster-server-19")
    }

    static func allFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)
            .filter { $0.hasSuffix(".jsonl") }
            .sorted()
    }

    static func load(_ file: String) throws -> [RecordedFrame] {
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent(file))
        var frames: [RecordedFrame] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            let record = try JSONValue(parsing: line)
            frames.append(
                RecordedFrame(
                    file: file,
                    line: index + 1,
                    direction: record["dir"]?.stringValue ?? "",
                    text: record["text"]?.stringValue,
                    binary: record["binary"]?.stringValue.flatMap { Data(base64Encoded: $0) },
                    closeCode: record["close"]?["code"]?.intValue))
        }
        return frames
    }
}
