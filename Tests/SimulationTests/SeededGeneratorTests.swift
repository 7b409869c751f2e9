import XCTest
@testable import Simulation

final class SeededGeneratorTests: XCTestCase {
    func testTheSameSeedGivesTheSameSequence() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        for _ in 0..<1000 { XCTAssertEqual(first.next(), second.next()) }
    }

    func testDifferentSeedsGiveDifferentSequences() {
        var first = SeededGenerator(seed: 1)
        var second = SeededGenerator(seed: 2)
        let a = (0..<8).map { _ in first.next() }
        let b = (0..<8).map { _ in second.next() }
        XCTAssertNotEqual(a, b)
    }

    func testSplitMix64MatchesItsReferenceOutput() {
        // The first outputs of SplitMix64 from state 0 (Vigna's reference implementation).
        var state: UInt64 = 0
        XCTAssertEqual(SeededGenerator.splitMix64(&state), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(SeededGenerator.splitMix64(&state), 0x6E78_9E6A_A1B9_65F4)
    }

    func testDrawsStayInTheirRanges() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<10_000 {
            let unit = random.unit()
            XCTAssertTrue(unit >= 0 && unit < 1)
            XCTAssertTrue((3...9).contains(random.int(3...9)))
            let duration = random.milliseconds(5, 10)
            XCTAssertTrue(duration >= .milliseconds(5) && duration <= .milliseconds(10))
        }
    }
}
