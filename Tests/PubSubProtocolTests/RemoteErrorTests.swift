import XCTest
import PubSubProtocol

/// sc-errors hydration and dehydration (Protocol.md §6).
final class RemoteErrorTests: XCTestCase {
    func testPlainErrorWithoutNameDefaultsToError() {
        let error = RemoteError(hydrating: ["message": "plain"])
        XCTAssertEqual(error.name, "Error")
        XCTAssertEqual(error.message, "plain")
        XCTAssertEqual(error.fields, [:])
        XCTAssertNil(error.nonObjectPayload)
        XCTAssertEqual(error.description, "Error: plain")
    }

    func testNonStringMessageGetsTheInvalidFormatMessage() {
        XCTAssertEqual(RemoteError(hydrating: ["message": 42, "name": "X"]).message, "Invalid error message format")
        XCTAssertEqual(RemoteError(hydrating: ["name": "X"]).message, RemoteError.invalidMessageFormat)
        XCTAssertEqual(RemoteError(hydrating: ["message": nil]).message, RemoteError.invalidMessageFormat)
    }

    func testNonStringNameDefaultsAndIsKeptAsAField() {
        let error = RemoteError(hydrating: ["message": "m", "name": 7])
        XCTAssertEqual(error.name, "Error")
        XCTAssertEqual(error["name"], 7)
    }

    func testExtraPropertiesArePreserved() {
        let error = RemoteError(hydrating: ["message": "Nope", "name": "CustomError", "code": 42, "isBadToken": true, "statusCode": 4501])
        XCTAssertEqual(error.name, "CustomError")
        XCTAssertEqual(error.fields, ["code": 42, "isBadToken": true, "statusCode": 4501])
        XCTAssertEqual(error["statusCode"]?.intValue, 4501)
    }

    func testNonObjectErrorsAreKeptAsIs() {
        let string = RemoteError(hydrating: "just text")
        XCTAssertEqual(string.nonObjectPayload, "just text")
        XCTAssertEqual(string.message, "just text")
        XCTAssertEqual(string.name, "Error")
        XCTAssertEqual(string.dehydrated(), "just text")

        let number = RemoteError(hydrating: 404)
        XCTAssertEqual(number.nonObjectPayload, 404)
        XCTAssertEqual(number.message, "404")
        XCTAssertEqual(number.dehydrated(), 404)

        let array = RemoteError(hydrating: [1, "a"])
        XCTAssertEqual(array.message, #"[1,"a"]"#)
        XCTAssertEqual(array.dehydrated(), [1, "a"])

        XCTAssertEqual(RemoteError(hydrating: false).dehydrated(), false)
    }

    func testDehydrateHydrateRoundTrip() {
        let original = RemoteError(name: "BannedError", message: "go away", fields: ["statusCode": 4501])
        XCTAssertEqual(original.dehydrated(), ["message": "go away", "name": "BannedError", "statusCode": 4501])
        XCTAssertEqual(RemoteError(hydrating: original.dehydrated()), original)
    }
}
