import CUTF8Blocks

/// An incremental UTF-8 validator (Unicode Table 3-7 well-formed byte sequences): rejects
/// overlong forms, surrogates (U+D800–U+DFFF) and code points above U+10FFFF at the first byte
/// that cannot continue a valid sequence, so text can fail fast across frames and reads.
///
/// Long inputs are checked 32 bytes at a time with AVX2 where the CPU has it (`CUTF8Blocks`),
/// then 16 bytes at a time with vector compares (see `validBlocks`); the byte-by-byte checker
/// handles the first and last few bytes of each call, sequences carried over from the previous
/// call, and any block the vector checks reject, so it alone decides where the first invalid
/// byte is.
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
        // Finish the sequence the previous call ended inside.
        while remaining > 0 {
            guard i < count else {
                validatedCount &+= count
                return true
            }
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            guard byte >= lower && byte <= upper else { return fail(at: i) }
            remaining &-= 1
            lower = 0x80
            upper = 0xBF
            i &+= 1
        }
        // The vector check reads the three bytes before each block, so it starts at offset 3 or
        // later; `i` is on a code point boundary from here on.
        if i < 3 {
            guard checkScalar(base, from: &i, count: count, until: min(3, count)) else { return false }
        }
        if remaining == 0 && i &+ 16 <= count {
            let start = i
            // 32 bytes at a time with AVX2 where the CPU has it; from three bytes before where
            // it stops (a block it rejects, or the last bytes) the Swift check below goes on,
            // and it finds the first bad byte.
            if i &+ 32 <= count {
                i = cutf8_valid_blocks(base.assumingMemoryBound(to: UInt8.self), i, count)
            }
            i = Self.validBlocks(base, from: i, count: count)
            i = Self.startOfSequence(endingAfter: i, in: base, notBefore: start)
        }
        guard checkScalar(base, from: &i, count: count, until: count) else { return false }
        validatedCount &+= count
        return true
    }

    /// Checks whole code points from `index` (on a boundary, or inside the sequence the state
    /// describes) while `index < limit`; a sequence cut off by the end of the bytes leaves its
    /// state for the next call. Returns `false` after recording the first invalid byte.
    private mutating func checkScalar(_ base: UnsafeRawPointer, from index: inout Int, count: Int, until limit: Int) -> Bool {
        var i = index
        defer { index = i }
        while i < limit {
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
            default: return fail(at: i)
            }
            // Byte by byte, so a sequence cut off by the end of the bytes keeps its state.
            i &+= 1
            for position in 1..<length {
                guard i < count else {
                    remaining = UInt8(length &- position)
                    lower = position == 1 ? low : 0x80
                    upper = position == 1 ? high : 0xBF
                    return true
                }
                let next = base.load(fromByteOffset: i, as: UInt8.self)
                let (min, max) = position == 1 ? (low, high) : (0x80, 0xBF)
                guard next >= min && next <= max else { return fail(at: i) }
                i &+= 1
            }
        }
        return true
    }

    private mutating func fail(at index: Int) -> Bool {
        invalidByteOffset = validatedCount &+ index
        validatedCount &+= index
        return false
    }

    /// The end of the 16-byte blocks from `start` that pass the block check: the offset of a
    /// 32- or 16-byte stretch with a rejected block, or of the last bytes that do not fill a
    /// block. `start` is at least 3, and the bytes before it have passed a check of their own
    /// (a lane's rules look only at the bytes before it, so `start` may be inside a sequence).
    /// The loop has no branch that depends on the text except the ASCII skip, so mixed text
    /// costs no mispredictions.
    @inline(__always)
    private static func validBlocks(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int {
        var i = start
        while i &+ 32 <= count {
            let first = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let second = base.loadUnaligned(fromByteOffset: i &+ 16, as: SIMD16<UInt8>.self)
            let before = base.loadUnaligned(fromByteOffset: i &- 3, as: SIMD16<UInt8>.self)
            // All ASCII, after three ASCII bytes: nothing to check.
            if !hasHighBit(first | second | before) {
                i &+= 32
                // Inside an ASCII run the bytes before need no look: 64 at a time.
                while i &+ 64 <= count {
                    let run =
                        base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self) | base.loadUnaligned(fromByteOffset: i &+ 16, as: SIMD16<UInt8>.self)
                        | base.loadUnaligned(fromByteOffset: i &+ 32, as: SIMD16<UInt8>.self)
                        | base.loadUnaligned(fromByteOffset: i &+ 48, as: SIMD16<UInt8>.self)
                    if hasHighBit(run) { break }
                    i &+= 64
                }
                continue
            }
            guard !hasHighBit(invalidLanes(first, base + i) | invalidLanes(second, base + (i &+ 16))) else { return i }
            i &+= 32
        }
        if i &+ 16 <= count {
            let block = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            guard !hasHighBit(invalidLanes(block, base + i)) else { return i }
            i &+= 16
        }
        return i
    }

    /// Bit 7 set in each lane of the 16 bytes `block` at `pointer` that is inconsistent with the
    /// bytes before it (the three before `pointer` must be readable): a byte is a continuation
    /// byte exactly when a lead byte one, two or three bytes back asks for one; no byte is C0, C1
    /// or F5–FF; and the byte after E0, ED, F0 or F4 keeps the code point out of overlong forms,
    /// surrogates and above U+10FFFF. A sequence left open at the end of the block is checked
    /// with the bytes that follow. Written with lane-wise masks, adds and shifts only (the other
    /// bits of each lane are don't-cares): the standard library's SIMD comparisons compile to a
    /// loop over the lanes.
    @inline(__always)
    private static func invalidLanes(_ block: SIMD16<UInt8>, _ pointer: UnsafeRawPointer) -> SIMD16<UInt8> {
        let back1 = pointer.loadUnaligned(fromByteOffset: -1, as: SIMD16<UInt8>.self)
        let back2 = pointer.loadUnaligned(fromByteOffset: -2, as: SIMD16<UInt8>.self)
        let back3 = pointer.loadUnaligned(fromByteOffset: -3, as: SIMD16<UInt8>.self)
        let required = (back1 & (back1 &+ back1)) | atLeast(back2, 0xE0) | atLeast(back3, 0xF0)
        let doubled = block &+ block
        let continuation = block & ~doubled
        var bad = required ^ continuation
        // C0 and C1 (two high bits, below C2) and F5–FF never occur.
        bad |= block & doubled & ~atLeast(block, 0xC2)
        bad |= atLeast(block, 0xF5)
        // After E0 the continuation needs bit 5 (A0–BF), after F0 bit 5 or 4 (90–BF).
        let needed = block & (SIMD16(repeating: 0x20) | (back1 & 0x10))
        bad |= equal(back1 & 0xEF, 0xE0) & ~(needed &+ 0x7F)
        // After ED bit 5 must be clear (80–9F), after F4 bits 5 and 4 (80–8F).
        bad |= equal(back1, 0xED) & ((block & 0x20) &+ 0x7F)
        bad |= equal(back1, 0xF4) & ((block & 0x30) &+ 0x7F)
        return bad
    }

    /// Bit 7 of each lane set where `x >= bound` (`bound` at least 0x80).
    @inline(__always)
    private static func atLeast(_ x: SIMD16<UInt8>, _ bound: UInt8) -> SIMD16<UInt8> {
        x & ((x & 0x7F) &+ SIMD16(repeating: 0x80 &- (bound & 0x7F)))
    }

    /// Bit 7 of each lane set where `x == value`.
    @inline(__always)
    private static func equal(_ x: SIMD16<UInt8>, _ value: UInt8) -> SIMD16<UInt8> {
        let difference = x ^ SIMD16(repeating: value)
        return ~(((difference & 0x7F) &+ 0x7F) | difference)
    }

    /// Whether bit 7 is set in any lane.
    @inline(__always)
    private static func hasHighBit(_ x: SIMD16<UInt8>) -> Bool {
        let words = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        return (words[0] | words[1]) & 0x8080_8080_8080_8080 != 0
    }

    /// Where the code point that the bytes before `end` leave open starts (`end` when they end on
    /// a boundary). The bytes from `floor` to `end` have passed the block check.
    @inline(__always)
    private static func startOfSequence(endingAfter end: Int, in base: UnsafeRawPointer, notBefore floor: Int) -> Int {
        var k = end
        while k > floor && k > end &- 3 {
            k &-= 1
            let byte = base.load(fromByteOffset: k, as: UInt8.self)
            if byte < 0x80 { return end }
            if byte >= 0xC0 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                return k &+ length > end ? k : end
            }
        }
        return end
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
