/// A recognizer of RFC 8259's grammar, the oracle of the JSON target's verdict: small and
/// literal, nothing shared with the parser under test.
struct JSONGrammar {
    enum Verdict: Equatable {
        case accept
        case reject
        /// The grammar accepts it, but RFC 8259 leaves the outcome to the implementation: nesting
        /// deeper than our limit, a number beyond a double's range, an escaped lone surrogate.
        case implementationDefined
    }

    private let bytes: [UInt8]
    private var index = 0
    private var undefined = false
    private let maximumDepth: Int

    static func verdict(_ bytes: [UInt8], maximumDepth: Int) -> Verdict {
        var grammar = JSONGrammar(bytes: bytes, maximumDepth: maximumDepth)
        grammar.skipWhitespace()
        guard grammar.value(depth: 0) else { return .reject }
        grammar.skipWhitespace()
        guard grammar.index == bytes.count else { return .reject }
        return grammar.undefined ? .implementationDefined : .accept
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func literal(_ text: String) -> Bool {
        for byte in text.utf8 {
            guard current == byte else { return false }
            index += 1
        }
        return true
    }

    private mutating func value(depth: Int) -> Bool {
        guard let first = current else { return false }
        switch first {
        case UInt8(ascii: "{"):
            if depth + 1 > maximumDepth { undefined = true }
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return true }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                if current == UInt8(ascii: "}") { index += 1; return true }
                return false
            }
        case UInt8(ascii: "["):
            if depth + 1 > maximumDepth { undefined = true }
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return true }
            while true {
                skipWhitespace()
                guard value(depth: depth + 1) else { return false }
                skipWhitespace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                if current == UInt8(ascii: "]") { index += 1; return true }
                return false
            }
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return false
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func number() -> Bool {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return false }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let number = Double(text), !number.isFinite { undefined = true }
        return true
    }

    private mutating func hex4() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A string; the input is known to be valid UTF-8, so only the ASCII structure is checked.
    private mutating func string() -> Bool {
        index += 1
        var pendingHigh = false
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                if pendingHigh { undefined = true }
                return true
            case UInt8(ascii: "\\"):
                guard let escape = current else { return false }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    if pendingHigh { undefined = true; pendingHigh = false }
                case UInt8(ascii: "u"):
                    guard let unit = hex4() else { return false }
                    if (0xDC00...0xDFFF).contains(unit) {
                        if !pendingHigh { undefined = true }
                        pendingHigh = false
                    } else {
                        if pendingHigh { undefined = true }
                        pendingHigh = (0xD800...0xDBFF).contains(unit)
                    }
                default:
                    return false
                }
            case 0x00..<0x20:
                return false
            default:
                if pendingHigh { undefined = true; pendingHigh = false }
            }
        }
        return false
    }
}
