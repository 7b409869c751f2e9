import XCTest
@testable import WireKit

final class TLSPublicKeyPinTests: XCTestCase {
    #if canImport(Glibc)
    func testPinsComputedWithOurSHA256MatchTheOpenSSLCommandLine() throws {
        for name in ["ca", "server", "expired", "wrong-host", "untrusted"] {
            let ours = try TLSPublicKeyPin.pins(ofCertificatesPEM: TLSTestCertificates.text("\(name).pem"))
            XCTAssertEqual(ours, [try TLSTestCertificates.pin(name)], name)
        }
    }

    func testPinsOfAChainFollowItsOrder() throws {
        let pins = try TLSPublicKeyPin.pins(ofCertificatesPEM: TLSTestCertificates.text("server-chain.pem"))
        XCTAssertEqual(pins, [try TLSTestCertificates.pin("server"), try TLSTestCertificates.pin("ca")])
    }
    #endif

    func testTextFormRoundTrips() throws {
        let text = "sha256/r6OVJqJfpX2ZeSL2RZzkOeY078BAAWmPScYVIbCNmDE="
        let pin = try TLSPublicKeyPin(text)
        XCTAssertEqual(pin.sha256.count, 32)
        XCTAssertEqual(pin.description, text)
    }

    func testMalformedPinsAreRejected() {
        for text in [
            "r6OVJqJfpX2ZeSL2RZzkOeY078BAAWmPScYVIbCNmDE=", "sha1/r6OVJqJfpX2ZeSL2RZzkOeY078BAAWmPScYVIbCNmDE=",
            "sha256/not base64!", "sha256/AAAA",
        ] {
            XCTAssertThrowsError(try TLSPublicKeyPin(text), text) { error in
                guard case .invalidConfiguration? = error as? TLSError else {
                    return XCTFail("expected invalidConfiguration for \(text), got \(error)")
                }
            }
        }
        XCTAssertThrowsError(try TLSPublicKeyPin(sha256: [1, 2, 3]))
    }

    func testErrorsSayWhatFailed() {
        XCTAssertEqual(TLSError.certificateExpired.description, "the peer's certificate has expired")
        XCTAssertEqual(
            TLSError.hostnameMismatch(expected: "example.com").description,
            "the certificate is not valid for example.com")
        XCTAssertTrue(TLSError.pinMismatch(presented: ["sha256/x"]).description.contains("sha256/x"))
        XCTAssertTrue(TLSError.unavailable(reason: "no libssl").description.contains("no libssl"))
    }
}
