/// Why a MessagePack document was rejected, with the byte offset where decoding stopped.
public struct MessagePackDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// No bytes at all (msgpack-lite reports this as `BUFFER_SHORTAGE`).
        case emptyInput
        /// The input stops inside a format header (a length, a number).
        case unexpectedEndOfInput
        /// A str, bin, array or map announces more than the bytes left can hold: `announced`
        /// bytes (str, bin) or elements (array, map; each element takes at least one byte, a map
        /// member two), with `available` bytes left. Checked before anything is allocated.
        case lengthExceedsInput(announced: Int, available: Int)
        /// The format byte `0xc1`, which MessagePack never uses.
        case neverUsedFormat
        /// An extension type (`fixext`, `ext 8/16/32`): neither JSON values nor msgpack-lite as
        /// `sc-codec-min-bin` configures it (`preset: false`) have any.
        case unsupportedExtension(type: Int8)
        /// A map key that is not a str (`format` is its first byte); JavaScript object keys are
        /// always strings.
        case nonStringMapKey(format: UInt8)
        /// A str whose bytes are not valid UTF-8.
        case invalidUTF8
        /// Arrays/maps nested deeper than the limit.
        case nestingTooDeep(limit: Int)
        /// More values (map keys included) than the limit.
        case tooManyValues(limit: Int)
        /// The input is longer than the limit, in bytes; nothing was decoded.
        case inputTooLarge(size: Int, limit: Int)
        /// Bytes left after the one value (msgpack-lite ignores them; a frame holds one value).
        case trailingBytes(count: Int)
    }

    /// What went wrong.
    public let reason: Reason
    /// Offset in bytes from the start of the input.
    public let offset: Int

    /// Creates an error for `reason` at byte `offset`.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `Invalid MessagePack at byte <offset>: <what>`.
    public var description: String {
        let what: String
        switch reason {
        case .emptyInput: what = "empty input"
        case .unexpectedEndOfInput: what = "unexpected end of input"
        case .lengthExceedsInput(let announced, let available):
            what = "announced length \(announced) exceeds the \(available) bytes left"
        case .neverUsedFormat: what = "format byte 0xC1 is never used"
        case .unsupportedExtension(let type): what = "extension type \(type) is not supported"
        case .nonStringMapKey(let format): what = "map key is not a string (format \(MessagePackDecodingError.hex(format)))"
        case .invalidUTF8: what = "invalid UTF-8 in string"
        case .nestingTooDeep(let limit): what = "arrays/maps nested deeper than \(limit)"
        case .tooManyValues(let limit): what = "more than \(limit) values"
        case .inputTooLarge(let size, let limit): what = "\(size) bytes exceed the limit of \(limit)"
        case .trailingBytes(let count): what = "\(count) bytes after the value"
        }
        return "Invalid MessagePack at byte \(offset): \(what)"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }
}
