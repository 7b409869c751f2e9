/// Text a hostile peer can send (close reasons, HTTP bodies and headers, names), and the check
/// that none of it reaches a person raw: the specification `escapedForDisplay` implements,
/// written out again here so that the tests do not take it from the code they test.
public enum HostilePeerText {
    /// Whether `scalar` must never appear raw in text composed for a person: C0 controls (TAB,
    /// CR, LF included), DEL, C1 controls, the line and paragraph separators, the bidi controls
    /// and the invisible zero-width space, word joiner and BOM.
    public static func mustBeEscaped(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value <= 0x1F || (0x7F...0x9F).contains(scalar.value) { return true }
        return [0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x2060, 0xFEFF].contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x206F).contains(scalar.value)
    }

    /// The scalars of `text` that must not appear raw (empty when it is safe to print).
    public static func rawScalars(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter(mustBeEscaped)
    }

    /// Fixed samples: an ANSI clear screen, a forged log line, a one-character CSI, a
    /// right-to-left override, a peer's own escape text, a long run of controls.
    public static let samples: [String] = [
        "bye\u{1B}[2J\u{1B}[H", "ok\r\ninfo broker: socket connected socket=forged", "\u{9B}31mred",
        "\u{202E}gnp.exe", "\\u{1B}[2J", "tab\there\u{0}nul\u{7F}del\u{85}nel\u{2028}ls",
        String(repeating: "\u{1B}", count: 300), "é 日本 👨‍👩‍👧 \u{200D}\u{FE0F}",
    ]

    /// A random string of up to `maxLength` scalars drawn mostly from the characters that must
    /// be escaped, plus backslashes, escape-looking text, ASCII, letters and emoji.
    public static func random(using generator: inout some RandomNumberGenerator, maxLength: Int = 64) -> String {
        let pieces: [String] = [
            "\\", "\\u{1B}", "\\n", "u{", "}", "[", "a", "Z", " ", "é", "日", "👍", "\u{200D}", "\u{FE0F}", "\u{E0067}",
        ]
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &generator) {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: text.append(Unicode.Scalar(UInt8.random(in: 0x00...0x1F, using: &generator)))
            case 1: text.append(Unicode.Scalar(UInt8.random(in: 0x7F...0x9F, using: &generator)))
            case 2:
                let special: [UInt32] =
                    [0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E]
                    + [0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0x206A, 0x206F, 0xFEFF]
                if let scalar = special.randomElement(using: &generator).flatMap(Unicode.Scalar.init) { text.append(scalar) }
            case 3: text.append(contentsOf: (pieces.randomElement(using: &generator) ?? "").unicodeScalars)
            case 4: text.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
            default:
                if let scalar = Unicode.Scalar(UInt32.random(in: 0xA0...0x10FFFF, using: &generator)) { text.append(scalar) }
            }
        }
        return String(text)
    }

    /// SplitMix64: a small seeded generator, so that a failure reproduces.
    public struct Generator: RandomNumberGenerator {
        private var state: UInt64
        /// A generator starting from `seed`.
        public init(seed: UInt64) { state = seed }
        /// The next 64 random bits.
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
