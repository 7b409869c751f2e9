// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

#if canImport(os)
import os
import WireKit
import XCTest

// The bridge, as the logging guide shows it (DocSnippetsTests keeps the two in step). Compiled
// where `os` exists (Apple platforms); `os.Logger` is spelled out because this test module also
// holds the swift-log stand-in named `Logger`.
extension LogSink {
    /// Sends the library's records to the unified log, one category per subsystem.
    static func osLog(subsystem: String, minimumLevel: LogLevel = .info) -> LogSink {
        LogSink(minimumLevel: minimumLevel) { record in
            let type: OSLogType = switch record.level {
            case .trace, .debug: .debug
            case .info: .info
            case .notice, .warning: .default
            case .error: .error
            case .critical: .fault
            }
            let metadata = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            os.Logger(subsystem: subsystem, category: record.subsystem.rawValue)
                .log(level: type, "\(record.message, privacy: .public) \(metadata, privacy: .public)")
        }
    }
}

final class OSLogBridgeTests: XCTestCase {
    func testEveryLevelGoesThroughTheBridge() {
        let sink = LogSink.osLog(subsystem: "pubsub-swift.tests", minimumLevel: .trace)
        for level in LogLevel.allCases {
            XCTAssertTrue(sink.isEnabled(level))
            sink.log(level, .webSocket, "closed by the peer", metadata: ["code": "1002", "connection": "1"])
        }
    }
}
#endif
