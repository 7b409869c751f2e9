// swift-format-ignore-file
// (its lines are the docs' snippets, verbatim: DocSnippetsTests checks them)

import WireKit
import XCTest

// A minimal stand-in for swift-log's `Logger` with the same names and signatures the bridge in the
// logging guide uses, so that the bridge is compiled here without a package dependency. (The
// real one: apple/swift-log, `Sources/Logging/Logger.swift`.)
struct Logger: Sendable {
    enum Level: String, CaseIterable, Sendable { case trace, debug, info, notice, warning, error, critical }
    enum MetadataValue: Equatable, Sendable { case string(String) }
    typealias Metadata = [String: MetadataValue]
    struct Message: ExpressibleByStringInterpolation, Equatable, Sendable {
        var value: String
        init(stringLiteral value: String) { self.value = value }
    }
    struct Entry: Equatable, Sendable {
        var level: Level, message: String, metadata: Metadata?, source: String?, file: String, line: UInt
    }
    /// Where the stand-in keeps what it was given. `@unchecked Sendable`: guarded by `lock`.
    final class Store: @unchecked Sendable {
        let lock = NSLock()
        var entries: [Entry] = []
    }

    let label: String
    let store = Store()

    init(label: String) { self.label = label }

    func log(
        level: Logger.Level, _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil, source: @autoclosure () -> String? = nil,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        let entry = Entry(level: level, message: message().value, metadata: metadata(), source: source(), file: file, line: line)
        store.lock.withLock { store.entries.append(entry) }
    }
}

// The bridge, as the logging guide shows it (DocSnippetsTests keeps the two in step).
extension LogSink {
    /// Sends the library's records to a swift-log `Logger`, the subsystem as the source.
    static func swiftLog(_ logger: Logger, minimumLevel: LogLevel = .info) -> LogSink {
        LogSink(minimumLevel: minimumLevel) { record in
            let level: Logger.Level = switch record.level {
            case .trace: .trace
            case .debug: .debug
            case .info: .info
            case .notice: .notice
            case .warning: .warning
            case .error: .error
            case .critical: .critical
            }
            logger.log(
                level: level, "\(record.message)", metadata: record.metadata.mapValues { .string($0) },
                source: record.subsystem.rawValue, file: record.file, line: UInt(record.line))
        }
    }
}

final class SwiftLogBridgeTests: XCTestCase {
    func testEveryLevelAndTheMetadataReachTheLogger() {
        let logger = Logger(label: "pubsub")
        let sink = LogSink.swiftLog(logger, minimumLevel: .trace)
        for level in LogLevel.allCases {
            sink.log(level, .webSocket, "closed by the peer", metadata: ["code": "1002"])
        }
        let entries = logger.store.lock.withLock { logger.store.entries }
        XCTAssertEqual(entries.map(\.level), [.trace, .debug, .info, .notice, .warning, .error, .critical])
        XCTAssertEqual(Set(entries.map(\.message)), ["closed by the peer"])
        XCTAssertEqual(Set(entries.compactMap(\.source)), ["websocket"])
        XCTAssertEqual(entries.first?.metadata, ["code": .string("1002")])
        XCTAssertEqual(entries.first?.file, "WireKitTests/SwiftLogBridgeTests.swift")
    }
}
