import XCTest
@testable import WireKit

/// The errors keep their optional details behind an `IndirectValue`, `nil` while none is set:
/// built through the initializer or through the properties, an error is the same value, and a
/// copy written to does not change the original.
final class IndirectValueTests: XCTestCase {
    func testDetailsSetThroughPropertiesEqualThoseGivenToTheInitializer() {
        let built = TransportError(code: .connectionRefused, message: "refused", host: "example.org", port: 443)
        var set = TransportError(code: .connectionRefused, message: "refused")
        set.host = "example.org"
        set.port = 443
        XCTAssertEqual(set, built)
        XCTAssertEqual(set.hashValue, built.hashValue)
        XCTAssertEqual(set.host, "example.org")
        XCTAssertEqual(set.port, 443)
        XCTAssertNil(set.errnoCode)
    }

    func testClearingEveryDetailGivesTheErrorWithoutDetails() {
        var error = WebSocketError(code: .closed, message: "closed", httpStatus: 403, limit: 7)
        error.httpStatus = nil
        error.limit = nil
        XCTAssertEqual(error, WebSocketError(code: .closed, message: "closed"))
    }

    func testWritingACopyLeavesTheOriginalAsItWas() {
        let original = TransportError(code: .system, message: "socket", operation: "socket", errnoCode: 24)
        var copy = original
        copy.errnoCode = 23
        XCTAssertEqual(original.errnoCode, 24)
        XCTAssertEqual(copy.errnoCode, 23)
        XCTAssertEqual(copy.operation, "socket")
        XCTAssertNotEqual(copy, original)
    }
}
