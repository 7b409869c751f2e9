import CUTF8Blocks
import XCTest
@testable import WireKit

/// The validator checks long inputs in blocks (32 bytes with AVX2, 16 otherwise); these tests put every kind of invalid and
/// boundary sequence at every offset of inputs long enough for that path, split the input at the
/// bytes around it, and compare with a byte-by-byte reference of Unicode Table 3-7.
final class UTF8ValidatorBlockTests: XCTestCase {
    /// The reference: offset of the first byte that cannot continue a well-formed prefix (`nil`
    /// when there is none), and whether the bytes end on a code point boundary.
    private func reference(_ bytes: [UInt8]) -> (invalidAt: Int?, complete: Bool) {
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return (i, false)
            }
            for k in 1..<length {
                guard i + k < bytes.count else { return (nil, false) }
                let byte = bytes[i + k]
                let (min, max) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= min && byte <= max else { return (i + k, false) }
            }
            i += length
        }
        return (nil, true)
    }

    /// Validates `bytes` in the pieces `cuts` make and checks the result against the reference.
    private func assertAgreesWithReference(_ bytes: [UInt8], cuts: [Int], _ context: @autoclosure () -> String, line: UInt = #line) {
        let expected = reference(bytes)
        var validator = UTF8Validator()
        var previous = 0
        bytes.withUnsafeBytes { all in
            for cut in cuts + [bytes.count] where cut >= previous {
                validator.validate(UnsafeRawBufferPointer(rebasing: all[previous..<cut]))
                previous = cut
            }
        }
        XCTAssertEqual(validator.invalidByteOffset, expected.invalidAt, "first invalid byte, \(context()), cuts \(cuts)", line: line)
        XCTAssertEqual(validator.isAtCharacterBoundary, expected.complete, "complete, \(context()), cuts \(cuts)", line: line)
        XCTAssertEqual(
            String(validating: bytes, as: UTF8.self) != nil, expected.complete, "the reference agrees with the standard library, \(context())", line: line)
    }

    /// Sequences that are valid, invalid, or valid only when followed by more bytes.
    private let sequences: [(name: String, bytes: [UInt8])] = [
        ("U+0080", [0xC2, 0x80]), ("U+07FF", [0xDF, 0xBF]), ("U+0800", [0xE0, 0xA0, 0x80]),
        ("U+D7FF", [0xED, 0x9F, 0xBF]), ("U+E000", [0xEE, 0x80, 0x80]), ("U+FFFF", [0xEF, 0xBF, 0xBF]),
        ("U+10000", [0xF0, 0x90, 0x80, 0x80]), ("U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF]), ("U+40000", [0xF1, 0x80, 0x80, 0x80]),
        ("overlong C0", [0xC0, 0xAF]), ("overlong C1", [0xC1, 0xBF]), ("overlong E0", [0xE0, 0x9F, 0xBF]),
        ("overlong F0", [0xF0, 0x8F, 0xBF, 0xBF]), ("surrogate D800", [0xED, 0xA0, 0x80]), ("surrogate DFFF", [0xED, 0xBF, 0xBF]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]), ("F5", [0xF5, 0x80, 0x80, 0x80]), ("F8", [0xF8, 0x88, 0x80, 0x80, 0x80]),
        ("FF", [0xFF]), ("lone continuation", [0x80]), ("two continuations", [0xBF, 0xBF]),
        ("truncated 2", [0xC3]), ("truncated 3", [0xE2, 0x82]), ("truncated 4", [0xF0, 0x9F, 0x99]),
        ("lead after lead", [0xE2, 0xE2, 0x82, 0xAC]), ("five continuations", [0xF0, 0x90, 0x80, 0x80, 0x80]),
    ]

    func testEverySequenceAtEveryOffsetAgreesWithTheReferenceWholeAndSplitAroundIt() {
        let backgrounds: [[UInt8]] = [
            Array(String(repeating: "abcdefgh", count: 25).utf8),
            Array(String(repeating: "ü€𝄞κa", count: 8).utf8),
        ]
        for background in backgrounds {
            for (name, sequence) in sequences {
                // Every offset of the first 16-byte blocks, then a sample deep in long runs.
                for offset in Array(0..<40) + Array(stride(from: 40, to: 150, by: 7)) where offset < background.count {
                    // Keep the background's code points whole around the sequence.
                    var start = offset
                    while start < background.count && background[start] & 0xC0 == 0x80 { start += 1 }
                    let bytes = Array(background[..<start]) + sequence + Array(background[start...])
                    let truncatedAtEnd = Array(background[..<start]) + sequence
                    let around = Array(max(0, start - 4)...min(bytes.count, start + sequence.count + 4))
                    assertAgreesWithReference(bytes, cuts: [], "\(name) at \(start)")
                    assertAgreesWithReference(truncatedAtEnd, cuts: [], "\(name) at the end, \(start)")
                    for cut in around {
                        assertAgreesWithReference(bytes, cuts: [cut], "\(name) at \(start)")
                    }
                    assertAgreesWithReference(bytes, cuts: Array(stride(from: 1, to: bytes.count, by: 7)), "\(name) at \(start)")
                }
            }
        }
    }

    func testRandomMixedTextWithOneChangedByteAgreesWithTheReference() {
        var random = SplitMix64(seed: 0x5EED)
        let pieces = ["a", "Z", " ", "ü", "ß", "κ", "€", "你", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "𝄞", "🙂", "\u{10FFFF}", "\u{800}"].map { Array($0.utf8) }
        let replacements: [UInt8] = [0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x41]
        for round in 0..<600 {
            var bytes: [UInt8] = []
            let length = Int(random.next() % 120) + 20
            while bytes.count < length { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            if round % 4 != 0 {
                bytes[Int(random.next() % UInt64(bytes.count))] = replacements[Int(random.next() % UInt64(replacements.count))]
            }
            let cut = Int(random.next() % UInt64(bytes.count + 1))
            assertAgreesWithReference(bytes, cuts: [], "round \(round)")
            assertAgreesWithReference(bytes, cuts: [cut], "round \(round)")
        }
    }

    /// Every pair of bytes, followed by none, one or two continuation bytes, across the boundary
    /// of two 32-byte blocks and across the end of the blocks the AVX2 check takes (where the
    /// CPU has it; the 16-byte Swift check and the byte-by-byte one take over there), agrees
    /// with the standard library's validation.
    func testEveryBytePairAcrossBlockBoundariesAgreesWithTheStandardLibrary() {
        let filler = UInt8(ascii: "a")
        var disagreements: [String] = []
        // The blocks start at offset 3: with 34 bytes before it, the pair straddles the first
        // two blocks' boundary (and, in 58–60 bytes, the end of the blocks); with 66, the end.
        for (before, after) in [(34, 20), (66, 20), (34, 80)] {
            var bytes = [UInt8](repeating: filler, count: before + 4 + after)
            for first in 0...255 {
                for second in 0...255 {
                    for continuations in 0...2 {
                        bytes[before] = UInt8(first)
                        bytes[before + 1] = UInt8(second)
                        bytes[before + 2] = continuations > 0 ? 0x80 : filler
                        bytes[before + 3] = continuations > 1 ? 0x80 : filler
                        let accepted = UTF8Validator.isValid(bytes)
                        if accepted != (String(validating: bytes, as: UTF8.self) != nil) {
                            disagreements.append("\(before): \(bytes[before..<(before + 2 + continuations)].map { String($0, radix: 16) })")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(disagreements.prefix(20), [], "AVX2 block check in use: \(cutf8_blocks_available() == 1)")
    }

    func testLongValidTextIsAcceptedInOnePieceAndInOddPieces() {
        let text = Array(String(repeating: "Grüße, κόσμε, 你好, 🙂 and some ASCII. \u{10FFFF}\u{D7FF}\u{E000}", count: 40).utf8)
        assertAgreesWithReference(text, cuts: [], "whole")
        assertAgreesWithReference(text, cuts: Array(stride(from: 5, to: text.count, by: 61)), "pieces of 61")
        XCTAssertTrue(UTF8Validator.isValid(text))
    }
}

/// A small deterministic generator for the randomized tests.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
