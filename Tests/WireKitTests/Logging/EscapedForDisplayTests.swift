import TestSupport
import WireKit
import XCTest

/// `escapedForDisplay`: the one escaping of a peer's text before it meets a terminal or a log.
final class EscapedForDisplayTests: XCTestCase {
    func testPrintableASCIIOtherThanTheBackslashIsUntouched() {
        let printable = String(String.UnicodeScalarView((0x20...0x7E).compactMap(Unicode.Scalar.init).filter { $0 != "\\" }))
        XCTAssertEqual(printable.escapedForDisplay, printable)
    }

    func testLettersOfEveryScriptAndEmojiAreUntouched() {
        // ZWNJ in Persian, ZWJ in a family emoji, VS16 in a heart, tag characters in a flag.
        let text =
            "Zoë Ωμέγα 日本語 한국어 العربية עברית می\u{200C}خواهم 👨\u{200D}👩\u{200D}👧 ❤\u{FE0F} 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} \u{AD}"
        XCTAssertEqual(text.escapedForDisplay, text)
    }

    func testControlsBecomeSwiftEscapes() {
        XCTAssertEqual("a\nb\rc\td".escapedForDisplay, #"a\nb\rc\td"#)
        XCTAssertEqual("\u{1B}[2J\u{0}\u{7F}".escapedForDisplay, #"\u{1B}[2J\u{0}\u{7F}"#)
        XCTAssertEqual("\u{9B}31m\u{85}".escapedForDisplay, #"\u{9B}31m\u{85}"#)
        XCTAssertEqual("x\u{2028}y\u{2029}".escapedForDisplay, #"x\u{2028}y\u{2029}"#)
    }

    func testBidiAndInvisibleFormatCharactersAreEscaped() {
        for value: UInt32 in [0x061C, 0x200B, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060]
            + [0x2066, 0x2067, 0x2068, 0x2069, 0x206A, 0x206F, 0xFEFF]
        {
            let scalar = Unicode.Scalar(value) ?? "?"
            let hex = String(value, radix: 16, uppercase: true)
            XCTAssertEqual("a\(scalar)b".escapedForDisplay, "a\\u{\(hex)}b", hex)
        }
    }

    func testAPeersOwnBackslashStaysDistinctFromAnEscape() {
        XCTAssertEqual(#"C:\dir"#.escapedForDisplay, #"C:\\dir"#)
        let forged = #"\u{1B}"#, real = "\u{1B}"
        XCTAssertEqual(forged.escapedForDisplay, #"\\u{1B}"#)
        XCTAssertNotEqual(forged.escapedForDisplay, real.escapedForDisplay)
    }

    func testTextWithNothingToEscapeComesBackEqualAndSubstringsWork() {
        XCTAssertEqual("".escapedForDisplay, "")
        XCTAssertEqual("closed by the server".escapedForDisplay, "closed by the server")
        let line = "reason: bye\u{1B}[2J"
        XCTAssertEqual(line.dropFirst(8).escapedForDisplay, #"bye\u{1B}[2J"#)
    }

    func testRandomPeerTextComesOutWithNoRawControlAndReadsBackExactly() {
        var generator = HostilePeerText.Generator(seed: 0x5AFE)
        for round in 0..<5_000 {
            let text = HostilePeerText.random(using: &generator)
            let escaped = text.escapedForDisplay
            XCTAssertEqual(HostilePeerText.rawScalars(in: escaped), [], "round \(round): \(text.debugDescription)")
            XCTAssertEqual(Self.unescape(escaped).map { Array($0.unicodeScalars) }, Array(text.unicodeScalars), "round \(round): \(text.debugDescription)")
        }
        for text in HostilePeerText.samples {
            XCTAssertEqual(HostilePeerText.rawScalars(in: text.escapedForDisplay), [], text.debugDescription)
            XCTAssertEqual(Self.unescape(text.escapedForDisplay), text)
        }
    }

    /// The inverse: `\\`, `\n`, `\r`, `\t` and `\u{X}` read back; any other backslash fails.
    private static func unescape(_ text: String) -> String? {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            switch scalars.next() {
            case "\\": result.append("\\")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u":
                guard scalars.next() == "{" else { return nil }
                var hex = ""
                while let digit = scalars.next(), digit != "}" { hex.unicodeScalars.append(digit) }
                guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                result.append(decoded)
            default: return nil
            }
        }
        return String(result)
    }
}
