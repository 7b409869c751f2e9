/// Validation without a tree: `JSONParser` reads a value's extent, checking it exactly as
/// `parseValue` would (RFC 8259, UTF-8, nesting limit), but allocates nothing.
extension JSONParser {
    /// Skips one value, validating it; `position` ends after it.
    mutating func skipValue(depth: Int) throws(JSONParseError) {
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        switch input[position] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"):
            try skipContainer(depth: depth + 1, close: UInt8(ascii: "}"), hasKeys: true)
        case UInt8(ascii: "["):
            try skipContainer(depth: depth + 1, close: UInt8(ascii: "]"), hasKeys: false)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
        case UInt8(ascii: "f"):
            try expectLiteral("false")
        case UInt8(ascii: "n"):
            try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        case let byte:
            throw JSONParseError(.unexpectedCharacter(byte), offset: position)
        }
    }

    private mutating func skipContainer(depth: Int, close: UInt8, hasKeys: Bool) throws(JSONParseError) {
        guard depth <= maximumDepth else { throw JSONParseError(.nestingTooDeep(limit: maximumDepth), offset: position) }
        position += 1
        skipWhitespace()
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        if input[position] == close {
            position += 1
            return
        }
        while true {
            if hasKeys {
                guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
                guard input[position] == UInt8(ascii: "\"") else {
                    throw JSONParseError(.unexpectedCharacter(input[position]), offset: position)
                }
                try skipString()
                try expectColon()
            }
            try skipValue(depth: depth)
            if try skipSeparator(close: close) { return }
        }
    }

    /// After a member or an element: skips `,` and the whitespace after it (false: another
    /// follows) or `close` (true: the container ended); anything else is an error.
    mutating func skipSeparator(close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        switch input[position] {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return false
        case close:
            position += 1
            return true
        case let byte:
            throw JSONParseError(.unexpectedCharacter(byte), offset: position)
        }
    }

    /// Skips `:` and the whitespace around it.
    mutating func expectColon() throws(JSONParseError) {
        skipWhitespace()
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        guard input[position] == UInt8(ascii: ":") else {
            throw JSONParseError(.unexpectedCharacter(input[position]), offset: position)
        }
        position += 1
        skipWhitespace()
    }

    /// Skips a string starting at its opening quote, validating escapes, control characters and
    /// (unless the input is known valid) UTF-8.
    private mutating func skipString() throws(JSONParseError) {
        let start = position + 1
        var index = start
        var sawNonASCII = false
        while true {
            index = JSONStringScanner.skipPlain(input, from: index)
            guard index < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: index) }
            let byte = input[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: index) }
                switch input[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    _ = try hexQuad(at: index + 1)
                    index += 5
                default:
                    throw JSONParseError(.invalidEscape, offset: index - 1)
                }
                continue
            }
            if byte < 0x20 { throw JSONParseError(.controlCharacterInString(byte), offset: index) }
            if byte >= 0x80 { sawNonASCII = true }
            index += 1
        }
        if sawNonASCII && !inputIsValidUTF8 && !UTF8Validation.isValid(UnsafeBufferPointer(rebasing: input[start..<index])) {
            throw JSONParseError(.invalidUTF8, offset: start)
        }
        position = index + 1
    }

    /// Skips a number, checking its grammar only.
    private mutating func skipNumber() throws(JSONParseError) {
        let start = position
        var index = position
        func digits() -> Int {
            let from = index
            while index < input.count, input[index] >= UInt8(ascii: "0"), input[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        if input[index] == UInt8(ascii: "-") { index += 1 }
        guard index < input.count else { throw JSONParseError(.invalidNumber, offset: start) }
        if input[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw JSONParseError(.invalidNumber, offset: start)
        }
        if index < input.count, input[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw JSONParseError(.invalidNumber, offset: start) }
        }
        if index < input.count, input[index] == UInt8(ascii: "e") || input[index] == UInt8(ascii: "E") {
            index += 1
            if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw JSONParseError(.invalidNumber, offset: start) }
        }
        position = index
    }
}
