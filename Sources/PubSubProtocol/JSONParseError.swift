/// Why a JSON document was rejected, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// No bytes at all (whitespace only is `unexpectedEndOfInput`).
        case emptyInput
        /// The input stops inside a value.
        case unexpectedEndOfInput
        /// A byte that cannot start or continue the value here.
        case unexpectedCharacter(UInt8)
        /// A number not in RFC 8259 form (`01`, `1.`, `-`, `1e`).
        case invalidNumber
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \u`.
        case invalidEscape
        /// `\u` not followed by four hex digits.
        case invalidUnicodeEscape
        /// A raw byte below 0x20 inside a string.
        case controlCharacterInString(UInt8)
        /// Bytes that are not valid UTF-8 inside a string.
        case invalidUTF8
        /// Arrays/objects nested deeper than the limit.
        case nestingTooDeep(limit: Int)
        /// Something other than whitespace after the value.
        case trailingCharacters
        /// More values (scalars, arrays, objects and object keys, each counting one) than the
        /// limit the caller set.
        case tooManyValues(limit: Int)
    }

    /// What went wrong.
    public let reason: Reason
    /// Offset in bytes from the start of the UTF-8 input.
    public let offset: Int

    /// Creates an error for `reason` at byte `offset`.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `Invalid JSON at byte <offset>: <what>`.
    public var description: String {
        let what: String
        switch reason {
        case .emptyInput: what = "empty input"
        case .unexpectedEndOfInput: what = "unexpected end of input"
        case .unexpectedCharacter(let byte): what = "unexpected character \(JSONParseError.show(byte))"
        case .invalidNumber: what = "invalid number"
        case .invalidEscape: what = "invalid escape sequence in string"
        case .invalidUnicodeEscape: what = "invalid \\u escape in string"
        case .controlCharacterInString(let byte): what = "unescaped control character \(JSONParseError.show(byte)) in string"
        case .invalidUTF8: what = "invalid UTF-8"
        case .nestingTooDeep(let limit): what = "arrays/objects nested deeper than \(limit)"
        case .trailingCharacters: what = "unexpected characters after the JSON value"
        case .tooManyValues(let limit): what = "more than \(limit) values"
        }
        return "Invalid JSON at byte \(offset): \(what)"
    }

    private static func show(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7f { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
