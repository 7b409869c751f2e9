import XCTest
@testable import Digests

final class SHA1Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testFIPS180OneBlockMessageABC() {
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    func testFIPS180TwoBlockMessage448Bits() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        XCTAssertEqual(hex(SHA1.hash(Array(message.utf8))), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    func testFIPS180OneMillionA() {
        var hasher = SHA1()
        let chunk = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        XCTAssertEqual(hex(hasher.finalize()), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testEmptyMessage() {
        XCTAssertEqual(hex(SHA1.hash([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testSplitUpdatesMatchOneShotAcrossPaddingBoundaries() {
        for length in [55, 56, 57, 63, 64, 65, 119, 120, 128, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            let oneShot = SHA1.hash(message)
            for split in [0, 1, length / 3, length - 1, length] {
                var hasher = SHA1()
                hasher.update(Array(message[..<split]))
                hasher.update(Array(message[split...]))
                XCTAssertEqual(hasher.finalize(), oneShot, "length \(length) split \(split)")
            }
        }
    }
}
