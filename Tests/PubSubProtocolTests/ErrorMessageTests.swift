import Foundation
import XCTest
import PubSubProtocol

final class ErrorMessageTests: XCTestCase {
    func testLocalizedDescriptionsCarryTheMessage() {
        XCTAssertEqual((RemoteError(name: "FailError", message: "boom") as any Error).localizedDescription, "FailError: boom")
        XCTAssertEqual(
            (JWTVerificationError.invalid(message: "invalid signature") as any Error).localizedDescription,
            "AuthTokenInvalidError: invalid signature")
        XCTAssertEqual(
            (JSONParseError(.trailingCharacters, offset: 3) as any Error).localizedDescription,
            "Invalid JSON at byte 3: unexpected characters after the JSON value")
        XCTAssertEqual((MalformedResponseError(message: "bad") as any Error).localizedDescription, "bad")
    }
}
