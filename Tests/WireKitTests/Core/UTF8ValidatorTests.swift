import XCTest
@testable import WireKit

final class UTF8ValidatorTests: XCTestCase {
    private func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        var validator = UTF8Validator()
        _ = bytes.withUnsafeBytes { validator.validate($0) }
        return validator.invalidByteOffset
    }

    func testAcceptsASCIIAndMultibyteText() {
        XCTAssertTrue(UTF8Validator.isValid(Array("Hello, world! κόσμε €𝄞 \u{10FFFF} \u{FFFF}".utf8)))
        XCTAssertTrue(UTF8Validator.isValid(Array(String(repeating: "0123456789abcdef", count: 10).utf8)))
        XCTAssertTrue(UTF8Validator.isValid([]))
    }

    func testRejectsOverlongForms() {
        XCTAssertFalse(UTF8Validator.isValid([0xC0, 0xAF]))
        XCTAssertFalse(UTF8Validator.isValid([0xC1, 0xBF]))
        XCTAssertFalse(UTF8Validator.isValid([0xE0, 0x80, 0xAF]))
        XCTAssertFalse(UTF8Validator.isValid([0xF0, 0x80, 0x80, 0xAF]))
    }

    func testRejectsSurrogates() {
        XCTAssertFalse(UTF8Validator.isValid([0xED, 0xA0, 0x80]))
        XCTAssertFalse(UTF8Validator.isValid([0xED, 0xBF, 0xBF]))
        XCTAssertTrue(UTF8Validator.isValid([0xED, 0x9F, 0xBF]))
    }

    func testRejectsCodePointsAboveU10FFFF() {
        XCTAssertFalse(UTF8Validator.isValid([0xF4, 0x90, 0x80, 0x80]))
        XCTAssertFalse(UTF8Validator.isValid([0xF5, 0x80, 0x80, 0x80]))
        XCTAssertFalse(UTF8Validator.isValid([0xFF]))
    }

    func testRejectsTruncatedSequenceAtEnd() {
        XCTAssertFalse(UTF8Validator.isValid([0x41, 0xE2, 0x82]))
    }

    func testFailsAtTheFirstBadByteAfterAsciiRun() {
        let bytes = Array("κόσμε-0123456789abcdef".utf8) + [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64]
        let expected = Array("κόσμε-0123456789abcdef".utf8).count + 12  // 0xA0 after 0xED
        XCTAssertEqual(firstInvalidOffset(bytes), expected)
    }

    func testIncrementalValidationAcrossSplitsMatchesWholeForEveryCut() {
        let samples: [[UInt8]] = [
            Array("€𝄞κόσμε ascii text that is long enough".utf8),
            Array("abc€".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("x".utf8),
            [0xE2, 0x82, 0xAC, 0xED, 0xA0, 0x80],
        ]
        for sample in samples {
            let expected = firstInvalidOffset(sample)
            for cut in 0...sample.count {
                var validator = UTF8Validator()
                sample.withUnsafeBytes { all in
                    if validator.validate(UnsafeRawBufferPointer(rebasing: all[..<cut])) {
                        validator.validate(UnsafeRawBufferPointer(rebasing: all[cut...]))
                    }
                }
                XCTAssertEqual(validator.invalidByteOffset, expected, "cut \(cut)")
                XCTAssertEqual(validator.isAtCharacterBoundary, UTF8Validator.isValid(sample), "cut \(cut)")
            }
        }
    }

    func testAgreesWithStandardLibraryOnAllTwoByteAndSampledThreeByteSequences() {
        for a in 0...255 {
            for b in 0...255 {
                let bytes = [UInt8(a), UInt8(b)]
                XCTAssertEqual(UTF8Validator.isValid(bytes), String(validating: bytes, as: UTF8.self) != nil, "\(bytes)")
            }
        }
        for a: UInt8 in [0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5] {
            for b in stride(from: 0x70, through: 0xC0, by: 1) {
                for c: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
                    let bytes = [a, UInt8(b), c, 0x80]
                    XCTAssertEqual(UTF8Validator.isValid(bytes), String(validating: bytes, as: UTF8.self) != nil, "\(bytes)")
                }
            }
        }
    }
}
