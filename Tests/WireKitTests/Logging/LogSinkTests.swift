import WireKit
import XCTest

final class LogSinkTests: XCTestCase {
    /// Collects records; `@unchecked Sendable`: `records` is only touched under `lock`.
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [LogRecord] = []
        var records: [LogRecord] { lock.withLock { stored } }
        func append(_ record: LogRecord) { lock.withLock { stored.append(record) } }
    }

    /// Counts how often a message was built.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func next() -> String {
            lock.withLock {
                count += 1; return "message \(count)"
            }
        }
    }

    func testOffBuildsNeitherMessageNorMetadata() {
        let counter = Counter()
        let sink = LogSink.off
        for level in LogLevel.allCases {
            XCTAssertFalse(sink.isEnabled(level))
            sink.log(level, .transport, counter.next(), metadata: ["built": counter.next()])
        }
        XCTAssertEqual(counter.value, 0)
    }

    func testRecordsBelowTheMinimumLevelAreNotBuilt() {
        let counter = Counter()
        let collector = Collector()
        let sink = LogSink(minimumLevel: .warning) { collector.append($0) }
        sink.log(.debug, .webSocket, counter.next())
        sink.log(.notice, .webSocket, counter.next())
        sink.log(.warning, .tls, counter.next(), metadata: ["reason": "certificate verify failed"])
        sink.log(.error, .session, counter.next())
        XCTAssertEqual(counter.value, 2)
        XCTAssertEqual(collector.records.map(\.level), [.warning, .error])
        XCTAssertEqual(collector.records.map(\.subsystem), [.tls, .session])
        XCTAssertEqual(collector.records.first?.metadata, ["reason": "certificate verify failed"])
        XCTAssertEqual(collector.records.first?.file, "WireKitTests/LogSinkTests.swift")
    }

    func testLevelsAreOrderedFromTraceToError() {
        XCTAssertEqual(LogLevel.allCases.sorted(), [.trace, .debug, .info, .notice, .warning, .error, .critical])
        XCTAssertEqual(LogLevel.critical.description, "critical")
        XCTAssertTrue(LogLevel.trace < .error)
    }

    func testDescriptionIsLevelSubsystemMessageAndSortedMetadata() {
        let record = LogRecord(
            level: .notice, subsystem: .broker, message: "slow consumer closed",
            metadata: ["socket": "abc", "code": "4100"])
        XCTAssertEqual(record.description, "notice broker: slow consumer closed code=4100 socket=abc")
    }
}
