import XCTest
import Digests

final class SHA256Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    func testEmptyMessage() {
        XCTAssertEqual(
            hex(SHA256.hash([UInt8]())),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testFIPS180OneBlockMessageABC() {
        XCTAssertEqual(
            hex(SHA256.hash(Array("abc".utf8))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testFIPS180TwoBlock448BitMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        XCTAssertEqual(
            hex(SHA256.hash(Array(message.utf8))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testFIPS180896BitMessage() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        XCTAssertEqual(
            hex(SHA256.hash(Array(message.utf8))),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testFIPS180OneMillionA() {
        XCTAssertEqual(
            hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testOneMillionAFedInOddChunksMatchesOneShot() {
        var hasher = SHA256()
        var remaining = 1_000_000
        var chunk = 1
        while remaining > 0 {
            let n = min(chunk, remaining)
            hasher.update([UInt8](repeating: 0x61, count: n))
            remaining -= n
            chunk = chunk % 97 + 13
        }
        XCTAssertEqual(
            hex(hasher.finalize()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testIncrementalEqualsOneShotAtEveryPaddingBoundary() {
        // Lengths around 55/56/64 bytes exercise the one- vs two-block padding paths.
        for length in 0...130 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let oneShot = SHA256.hash(message)
            for split in [0, 1, length / 2, length] where split <= length {
                var hasher = SHA256()
                hasher.update(message[0..<split])
                hasher.update(message[split...])
                XCTAssertEqual(hasher.finalize(), oneShot, "length \(length) split \(split)")
            }
        }
    }

    func testNonContiguousSequenceInputIsHashed() {
        let lazy = "abc".utf8.lazy.map { $0 }
        XCTAssertEqual(
            hex(SHA256.hash(lazy)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
