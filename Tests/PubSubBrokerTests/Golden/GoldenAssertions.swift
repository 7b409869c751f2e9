import Foundation
import XCTest
@testable import PubSubBroker

extension XCTestCase {
    /// Replays each named recording against a fresh broker configured as the recording server
    /// and asserts the broker's frames equal the recorded server frames.
    func assertBrokerReproduces(_ names: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        try assertBrokerReproduces(names, in: Recording.directory, file: file, line: line)
    }

    /// `assertBrokerReproduces` for recordings in `directory`; returns how many frames compared.
    @discardableResult
    func assertBrokerReproduces(
        _ names: [String], in directory: URL, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        var compared = 0
        for name in names {
            let recording = try Recording(named: name, in: directory)
            let produced = try replay(recording)
            let expected = recording.serverFrames.map(GoldenFrame.init(recorded:))
            compared += expected.count
            let normalized = try normalizeSocketID(produced, against: expected, recording: name, file: file, line: line)
            XCTAssertEqual(normalized.count, expected.count, "\(name): frame count", file: file, line: line)
            for (index, pair) in zip(normalized, expected).enumerated() where pair.0 != pair.1 {
                XCTFail("\(name) frame \(index): broker sent \(pair.0), server sent \(pair.1)", file: file, line: line)
            }
            if normalized.count != expected.count {
                XCTFail("\(name): broker sent \(normalized), server sent \(expected)", file: file, line: line)
            }
        }
        return compared
    }

    func replay(_ recording: Recording) throws -> [GoldenFrame] {
        let driver = BrokerDriver(options: RecordingServer.options(for: recording), start: startTime(of: recording))
        RecordingServer.configure(driver.broker)
        let connection = driver.open()
        var expectedCount = 0
        for frame in recording.frames {
            switch frame {
            case .clientText(let text):
                driver.send(text, on: connection)
            case .clientBinary(let bytes):
                driver.sendBinary(bytes, on: connection)
            case .clientClose(let code, let reason):
                driver.clientCloses(connection, code: code, reason: reason)
            case .serverText, .serverBinary, .serverClose:
                expectedCount += 1
                _ = driver.run(until: expectedCount, on: connection)
            }
        }
        driver.waitForHandlers()
        return driver.outputs(of: connection).map(GoldenFrame.init(output:))
    }

    /// The recorded `iat` of a token the server issued, so the broker signs the same token;
    /// otherwise a fixed time in November 2026.
    private func startTime(of recording: Recording) -> Date {
        for frame in recording.serverFrames {
            guard let packet = GoldenFrame(recorded: frame).value, packet["event"]?.stringValue == "#setAuthToken",
                let token = packet["data"]?["token"]?.stringValue,
                let issuedAt = JWT.decodePayload(token)?["iat"]?.intValue
            else { continue }
            return Date(timeIntervalSince1970: TimeInterval(issuedAt))
        }
        return Date(timeIntervalSince1970: 1_795_248_000)
    }

    /// Checks the broker's socket id has the base64id shape and swaps it for the recorded one.
    private func normalizeSocketID(
        _ produced: [GoldenFrame], against expected: [GoldenFrame], recording: String, file: StaticString, line: UInt
    ) throws -> [GoldenFrame] {
        guard let ours = produced.lazy.compactMap(\.handshakeSocketID).first else { return produced }
        let pattern = try NSRegularExpression(pattern: "^[A-Za-z0-9_-]{20}$")
        XCTAssertEqual(
            pattern.numberOfMatches(in: ours, range: NSRange(ours.startIndex..., in: ours)), 1,
            "\(recording): socket id \(ours) is not 20 URL-safe base64 characters", file: file, line: line)
        guard let theirs = expected.lazy.compactMap(\.handshakeSocketID).first else { return produced }
        return produced.map { $0.replacing(ours, with: theirs) }
    }
}

/// A server frame, recorded or produced.
enum GoldenFrame: Equatable, CustomStringConvertible {
    case text(String)
    case binary([UInt8])
    case close(code: UInt16, reason: String)

    init(recorded frame: Recording.Frame) {
        switch frame {
        case .serverBinary(let bytes): self = .binary(bytes)
        case .serverClose(let code, let reason), .clientClose(let code, let reason): self = .close(code: code, reason: reason)
        case .serverText(let text), .clientText(let text): self = .text(text)
        case .clientBinary(let bytes): self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    init(output: CapturingTransport.Output) {
        switch output {
        case .text(let text): self = .text(text)
        case .binary(let bytes): self = .binary(bytes)
        case .close(let code, let reason): self = .close(code: code, reason: reason)
        }
    }

    /// The packet in a frame, in its long form (a min-bin frame expanded), or nil.
    var value: JSONValue? {
        switch self {
        case .text(let text): return try? JSONValue(parsing: text)
        case .binary(let bytes):
            let packets = bytes.withUnsafeBufferPointer {
                try? MinBinPacketCodec().decode($0, kind: .binary, maximumValues: .max)
            }
            guard let packets, packets.count == 1 else { return nil }
            return packets[0].packet.jsonValue
        case .close: return nil
        }
    }

    /// The `id` of a handshake response frame.
    var handshakeSocketID: String? {
        value?["data"]?["id"]?.stringValue
    }

    func replacing(_ id: String, with other: String) -> GoldenFrame {
        switch self {
        case .text(let text): return .text(text.replacingOccurrences(of: id, with: other))
        case .binary(let bytes):
            // A socket id is a fixstr of 20 bytes in both, so the frame keeps its length.
            let ours = Array(id.utf8)
            let theirs = Array(other.utf8)
            guard ours.count == theirs.count, let start = bytes.firstRange(of: ours)?.lowerBound else { return self }
            var replaced = bytes
            replaced.replaceSubrange(start..<start + ours.count, with: theirs)
            return .binary(replaced)
        case .close: return self
        }
    }

    var description: String {
        switch self {
        case .text(let text): return text.debugDescription
        case .binary(let bytes):
            let value = GoldenFrame.binary(bytes).value.map { "\($0)" } ?? "undecodable"
            return "binary \(bytes.map { String(format: "%02x", $0) }.joined()) (\(value))"
        case .close(let code, let reason): return "close(\(code), \(reason.debugDescription))"
        }
    }
}
