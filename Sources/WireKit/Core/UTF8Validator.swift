/// An incremental UTF-8 validator (Unicode Table 3-7 well-formed byte sequences): rejects
/// overlong forms, surrogates (U+D800–U+DFFF) and code points above U+10FFFF at the first byte
/// that cannot continue a valid sequence, so text can fail fast across frames and reads.
/// ASCII runs are checked 8 bytes at a time.
package struct UTF8Validator: Sendable, Hashable {
    /// Continuation bytes still expected for the current code point (0–3).
    private var remaining: UInt8 = 0
    /// Inclusive range allowed for the next continuation byte.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// Bytes accepted so far, across all calls.
    package private(set) var validatedCount: Int = 0
    /// Offset (across all calls since the last reset) of the first invalid byte, once one is seen.
    package private(set) var invalidByteOffset: Int?

    /// A validator at the start of a text.
    package init() {}

    /// `true` when the bytes so far end on a code point boundary (a message may end here).
    package var isAtCharacterBoundary: Bool { remaining == 0 && invalidByteOffset == nil }

    /// Starts over for a new message.
    package mutating func reset() { self = UTF8Validator() }

    /// Checks `bytes`, which continue the bytes seen so far. Returns `false` at the first invalid
    /// byte (recorded in `invalidByteOffset`); once invalid, always `false` until `reset()`.
    @discardableResult
    package mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard invalidByteOffset == nil else { return false }
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        var remaining = self.remaining, lower = self.lower, upper = self.upper
        while i < count {
            if remaining == 0 {
                // ASCII fast path, a word at a time.
                while i &+ 16 <= count {
                    let a = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let b = base.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
                    if (a | b) & 0x8080_8080_8080_8080 != 0 { break }
                    i &+= 16
                }
                while i &+ 8 <= count, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i &+= 8
                }
                guard i < count else { break }
                let byte = base.load(fromByteOffset: i, as: UInt8.self)
                if byte < 0x80 {
                    i &+= 1
                    continue
                }
                var length = 0
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                switch byte {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return fail(at: i, remaining: 0, lower: 0x80, upper: 0xBF)
                }
                if i &+ length <= count {
                    // The whole sequence is here: check it in one go.
                    let b1 = base.load(fromByteOffset: i &+ 1, as: UInt8.self)
                    guard b1 >= low && b1 <= high else { return fail(at: i &+ 1, remaining: 0, lower: 0x80, upper: 0xBF) }
                    if length >= 3 {
                        guard base.load(fromByteOffset: i &+ 2, as: UInt8.self) & 0xC0 == 0x80 else {
                            return fail(at: i &+ 2, remaining: 0, lower: 0x80, upper: 0xBF)
                        }
                        if length == 4 {
                            guard base.load(fromByteOffset: i &+ 3, as: UInt8.self) & 0xC0 == 0x80 else {
                                return fail(at: i &+ 3, remaining: 0, lower: 0x80, upper: 0xBF)
                            }
                        }
                    }
                    i &+= length
                    continue
                }
                // The sequence continues in a later call: track it byte by byte.
                remaining = UInt8(length - 1)
                lower = low
                upper = high
            } else {
                let byte = base.load(fromByteOffset: i, as: UInt8.self)
                guard byte >= lower && byte <= upper else {
                    return fail(at: i, remaining: remaining, lower: lower, upper: upper)
                }
                remaining &-= 1
                lower = 0x80
                upper = 0xBF
            }
            i &+= 1
        }
        self.remaining = remaining
        self.lower = lower
        self.upper = upper
        validatedCount &+= count
        return true
    }

    private mutating func fail(at index: Int, remaining: UInt8, lower: UInt8, upper: UInt8) -> Bool {
        self.remaining = remaining
        self.lower = lower
        self.upper = upper
        invalidByteOffset = validatedCount &+ index
        validatedCount &+= index
        return false
    }

    /// Whether `bytes` is complete, valid UTF-8 on its own.
    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isAtCharacterBoundary
    }

    /// Whether `bytes` is complete, valid UTF-8 on its own.
    package static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }
}
