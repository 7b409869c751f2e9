/// Skips the plain part of a JSON string a word (8 bytes) at a time: bytes that are printable
/// ASCII and neither `"` nor `\`, which the parser copies and the serializer writes unchanged.
enum JSONStringScanner {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first 8-byte word at or after `index` that may hold a quote, a backslash,
    /// a control character or a non-ASCII byte (or the start of the last partial word); the
    /// caller checks from there byte by byte. Every byte before the result is plain.
    @inline(__always)
    static func skipPlain(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        guard let base = bytes.baseAddress else { return index }
        let raw = UnsafeRawPointer(base)
        var index = index
        while index &+ 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // Exact "some byte is zero" / "some byte is below 0x20" tests (SWAR); a set high bit
            // in `word` itself means non-ASCII, which the byte loop handles.
            let hasQuote = (quote &- ones) & ~quote
            let hasBackslash = (backslash &- ones) & ~backslash
            let hasControl = (word &- ones &* 0x20) & ~word
            if (hasQuote | hasBackslash | hasControl | word) & highBits != 0 { break }
            index &+= 8
        }
        return index
    }
}
