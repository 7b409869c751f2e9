import WireKit
import XCTest

/// The logging guide's first snippet, compiled (DocSnippetsTests checks the guide against it).
final class LoggingGuideTests: XCTestCase {
    func testThePrintingSinkOfTheGuide() {
        var options = WebSocketOptions()
        options.logSink = LogSink(minimumLevel: .debug) { record in
            print(record)  // warning transport: connection refused connection=1 host=example.com outcome=refused ...
        }
        XCTAssertTrue(options.logSink.isEnabled(.debug))
        XCTAssertFalse(options.logSink.isEnabled(.trace))
    }
}
