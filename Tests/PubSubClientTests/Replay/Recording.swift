import Foundation
import XCTest
@testable import PubSubClient

/// One frame of a recording in `Tests/Fixtures/socketcluster-server-19/` or
/// `Tests/Fixtures/socketcluster-server-19-minbin/` (binary frames as their payload's base64).
enum RecordedFrame: Equatable {
    case clientText(String)
    case serverText(String)
    case clientClose(code: UInt16, reason: String)
    case serverClose(code: UInt16, reason: String)
    case clientBinary(String)
    case serverBinary(String)
}

enum Recording {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let directory = fixtures.appendingPathComponent("socketcluster-server-19")
    static let minBinDirectory = fixtures.appendingPathComponent("socketcluster-server-19-minbin")

    static func load(_ fileName: String, from directory: URL = Recording.directory) throws -> [RecordedFrame] {
        let text = try String(contentsOf: directory.appendingPathComponent(fileName), encoding: .utf8)
        var frames: [RecordedFrame] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            let record = try JSONValue(parsing: String(line))
            let fromClient = record["dir"]?.stringValue == "client->server"
            if let text = record["text"]?.stringValue {
                frames.append(fromClient ? .clientText(text) : .serverText(text))
            } else if let close = record["close"] {
                let code = UInt16(close["code"]?.intValue ?? 0)
                let reason = close["reason"]?.stringValue ?? ""
                frames.append(fromClient ? .clientClose(code: code, reason: reason) : .serverClose(code: code, reason: reason))
            } else if let binary = record["binary"]?.stringValue {
                frames.append(fromClient ? .clientBinary(binary) : .serverBinary(binary))
            }
        }
        return frames
    }

    /// Every JS-client scenario name (the files that are not `raw-*` probes).
    static func scenarioNames(in directory: URL = Recording.directory) throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return Set(
            files.filter { $0.hasSuffix(".proto2.jsonl") && !$0.hasPrefix("raw-") }
                .map { String($0.dropLast(".proto2.jsonl".count)) }
        ).sorted()
    }
}
