/// Why a JSON document was rejected, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        case emptyInput
        case unexpectedEndOfInput
        case unexpectedCharacter(UInt8)
        case invalidNumber
        case invalidEscape
        case invalidUnicodeEscape
        case controlCharacterInString(UInt8)
        case invalidUTF8
        case nestingTooDeep(limit: Int)
        case trailingCharacters
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
        }
        return "Invalid JSON at byte \(offset): \(what)"
    }

    private static func show(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7f { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
