import Foundation
import PubSubBroker

/// One socketcluster-server 19 transcript from `Tests/Fixtures/socketcluster-server-19` or
/// `Tests/Fixtures/socketcluster-server-19-minbin`.
struct Recording {
    enum Frame: Equatable {
        case clientText(String)
        case clientBinary([UInt8])
        case clientClose(code: UInt16, reason: String)
        case serverText(String)
        case serverBinary([UInt8])
        case serverClose(code: UInt16, reason: String)

        var isServer: Bool {
            switch self {
            case .serverText, .serverBinary, .serverClose: return true
            default: return false
            }
        }
    }

    enum LoadError: Error, CustomStringConvertible {
        case unreadableLine(file: String, line: Int)

        var description: String {
            switch self {
            case .unreadableLine(let file, let line): return "\(file):\(line) is not a recording record"
            }
        }
    }

    /// The file name without `.jsonl`, e.g. `handshake.proto2`.
    let name: String
    let frames: [Frame]
    /// Whether the recording is of the `sc-codec-min-bin` codec.
    let isMinBin: Bool

    static var directory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/socketcluster-server-19")
    }

    static var minBinDirectory: URL {
        directory.deletingLastPathComponent().appendingPathComponent("socketcluster-server-19-minbin")
    }

    /// Every `.jsonl` file name (without extension) in the fixtures directory.
    static func allNames(in directory: URL = Recording.directory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".jsonl") }
            .map { String($0.dropLast(".jsonl".count)) }
            .sorted()
    }

    init(named name: String, in directory: URL = Recording.directory) throws {
        self.name = name
        self.isMinBin = directory == Recording.minBinDirectory
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
        var frames: [Frame] = []
        for (index, line) in text.split(separator: "\n").enumerated() {
            guard let record = try? JSONValue(parsing: String(line)),
                let direction = record["dir"]?.stringValue
            else {
                throw LoadError.unreadableLine(file: name, line: index + 1)
            }
            let fromClient = direction == "client->server"
            if let text = record["text"]?.stringValue {
                frames.append(fromClient ? .clientText(text) : .serverText(text))
            } else if let binary = record["binary"]?.stringValue, let data = Data(base64Encoded: binary) {
                frames.append(fromClient ? .clientBinary(Array(data)) : .serverBinary(Array(data)))
            } else if let close = record["close"], let code = close["code"]?.intValue,
                let reason = close["reason"]?.stringValue, let code16 = UInt16(exactly: code)
            {
                frames.append(fromClient ? .clientClose(code: code16, reason: reason) : .serverClose(code: code16, reason: reason))
            } else {
                throw LoadError.unreadableLine(file: name, line: index + 1)
            }
        }
        self.frames = frames
    }

    /// The scenario name without the protocol suffix, e.g. `handshake`.
    var scenario: String {
        if name.hasSuffix(".proto1") || name.hasSuffix(".proto2") { return String(name.dropLast(".protoN".count)) }
        return name
    }

    /// The server's ping protocol: the file suffix, or v1 for `raw-pong-wrong-protocol`.
    var protocolVersion: SocketClusterProtocolVersion {
        if name.hasSuffix(".proto2") { return .v2 }
        return .v1
    }

    var serverFrames: [Frame] { frames.filter(\.isServer) }
}
