import XCTest
import Digests

/// RFC 4231 HMAC-SHA256 test cases 1–7.
final class HMACTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private func mac(key: [UInt8], data: [UInt8]) -> String {
        hex(HMAC.authenticationCode(for: data, key: key))
    }

    func testRFC4231Case1() {
        XCTAssertEqual(
            mac(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8)),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    func testRFC4231Case2KeyShorterThanOutput() {
        XCTAssertEqual(
            mac(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testRFC4231Case3() {
        XCTAssertEqual(
            mac(key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50)),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    func testRFC4231Case4() {
        XCTAssertEqual(
            mac(key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50)),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
    }

    func testRFC4231Case5TruncatedTo128Bits() {
        let full = HMAC.authenticationCode(
            for: Array("Test With Truncation".utf8),
            key: [UInt8](repeating: 0x0c, count: 20))
        XCTAssertEqual(hex(Array(full.prefix(16))), "a3b6167473100ee06e0c796c2955552b")
    }

    func testRFC4231Case6KeyLargerThanBlockIsHashedFirst() {
        XCTAssertEqual(
            mac(
                key: [UInt8](repeating: 0xaa, count: 131),
                data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testRFC4231Case7LargeKeyAndLargeData() {
        let data =
            "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
        XCTAssertEqual(
            mac(key: [UInt8](repeating: 0xaa, count: 131), data: Array(data.utf8)),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    func testIncrementalUpdatesEqualOneShot() {
        var mac = HMAC(key: Array("Jefe".utf8))
        mac.update(Array("what do ya ".utf8))
        mac.update(Array("want for nothing?".utf8))
        XCTAssertEqual(
            hex(mac.finalize()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testConstantTimeEquals() {
        XCTAssertTrue(HMAC.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(HMAC.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(HMAC.constantTimeEquals([1, 2, 3], [1, 2]))
    }
}
