import Foundation

/// Writes ``JSONValue``s as MessagePack, making the choices msgpack-lite 0.1.26 makes (the
/// library behind `sc-codec-min-bin` 3.0.0), so frames are byte-identical to a JavaScript peer's.
///
/// - Integers in the 32-bit signed range take the smallest format: positive or negative fixint,
///   then uint 8/16/32 for positive values and int 8/16/32 for negative ones. Other integers up to
///   ±2⁵³ are float 64, as msgpack-lite writes every JavaScript number outside that range; beyond
///   ±2⁵³ (no JavaScript number holds them exactly) uint 64 or int 64 keep the value exact.
/// - A ``JSONValue/double(_:)`` is float 64, except an integral one in the 32-bit range, which is
///   an integer as above (`-0.0` is `0`), because JavaScript has one number type.
/// - Strings are fixstr below 32 bytes of UTF-8, then str 8, 16, 32 (never the older raw forms).
/// - The ``JSONValue/binary(_:)`` wrapper (`{"base64":true,"data":"…"}` with canonical base64) is
///   a bin holding the bytes: how a JavaScript `ArrayBuffer` travels. Like msgpack-lite, bin 8
///   only below 255 bytes (255 itself is bin 16), then bin 16 and bin 32.
/// - Arrays and maps are fix-, 16- or 32-bit forms by element count. Object members are written
///   with sorted keys, so output is stable; ``encodeObject(_:leadingKeys:)`` and
///   ``encodeMapHeader(count:)`` write them in the order a JavaScript peer would.
///
/// A length above 2³² − 1 throws ``MessagePackEncodingError``; what was written of that document
/// is then incomplete (``removeAll()`` before the next).
package struct MessagePackEncoder: Sendable {
    /// The MessagePack written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty encoder with room for `capacity` bytes.
    package init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the storage for the next document.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes `value` and everything in it.
    package mutating func encode(_ value: JSONValue) throws(MessagePackEncodingError) {
        switch value {
        case .null:
            encodeNil()
        case .bool(let flag):
            encodeBool(flag)
        case .int(let integer):
            encodeInteger(integer)
        case .double(let number):
            encodeDouble(number)
        case .string(let string):
            try encodeString(string)
        case .array(let elements):
            try encodeArrayHeader(count: elements.count)
            for element in elements { try encode(element) }
        case .object(let members):
            if let data = Self.binaryPayload(members) {
                try encodeBinary(data)
            } else {
                try encodeObject(members, leadingKeys: [])
            }
        }
    }

    /// Writes an object as a map whose `leadingKeys` (those present) come first in the given
    /// order, then the other members with sorted keys. The map is never taken for a
    /// ``JSONValue/binary(_:)`` wrapper.
    package mutating func encodeObject(_ members: [String: JSONValue], leadingKeys: [String]) throws(MessagePackEncodingError) {
        try encodeMapHeader(count: members.count)
        if members.count == 1, let only = members.first {
            try encodeString(only.key)
            try encode(only.value)
            return
        }
        for key in leadingKeys {
            guard let value = members[key] else { continue }
            try encodeString(key)
            try encode(value)
        }
        var remaining = Array(members)
        if !leadingKeys.isEmpty { remaining.removeAll { leadingKeys.contains($0.key) } }
        remaining.sort { $0.key < $1.key }
        for member in remaining {
            try encodeString(member.key)
            try encode(member.value)
        }
    }

    /// Writes nil (`0xc0`).
    package mutating func encodeNil() {
        bytes.append(0xC0)
    }

    /// Writes false (`0xc2`) or true (`0xc3`).
    package mutating func encodeBool(_ flag: Bool) {
        bytes.append(flag ? 0xC3 : 0xC2)
    }

    /// Writes an integer in the format msgpack-lite picks for the same JavaScript number (see the
    /// type's overview).
    package mutating func encodeInteger(_ integer: Int64) {
        switch integer {
        case -32...127:
            bytes.append(UInt8(truncatingIfNeeded: integer))
        case 128...0xFF:
            bytes.append(0xCC)
            bytes.append(UInt8(integer))
        case 0x100...0xFFFF:
            bytes.append(0xCD)
            appendBigEndian(UInt16(integer))
        case 0x1_0000...0x7FFF_FFFF:
            bytes.append(0xCE)
            appendBigEndian(UInt32(integer))
        case -0x80 ... -33:
            bytes.append(0xD0)
            bytes.append(UInt8(truncatingIfNeeded: integer))
        case -0x8000 ... -0x81:
            bytes.append(0xD1)
            appendBigEndian(UInt16(truncatingIfNeeded: integer))
        case -0x8000_0000 ... -0x8001:
            bytes.append(0xD2)
            appendBigEndian(UInt32(truncatingIfNeeded: integer))
        default:
            if integer.magnitude <= 1 << 53 {
                appendFloat64(Double(integer))
            } else if integer > 0 {
                bytes.append(0xCF)
                appendBigEndian(UInt64(integer))
            } else {
                bytes.append(0xD3)
                appendBigEndian(UInt64(bitPattern: integer))
            }
        }
    }

    /// Writes a number: float 64, or an integer when it is integral and in the 32-bit range.
    package mutating func encodeDouble(_ number: Double) {
        if number.rounded(.towardZero) == number, number >= -2_147_483_648, number <= 2_147_483_647 {
            encodeInteger(Int64(number))
        } else {
            appendFloat64(number)
        }
    }

    /// Writes a str: fixstr, str 8, 16 or 32 by its UTF-8 length.
    package mutating func encodeString(_ string: String) throws(MessagePackEncodingError) {
        var string = string
        let count = string.utf8.count
        switch count {
        case 0..<32:
            bytes.append(0xA0 | UInt8(count))
        case 32...0xFF:
            bytes.append(0xD9)
            bytes.append(UInt8(count))
        case 0x100...0xFFFF:
            bytes.append(0xDA)
            appendBigEndian(UInt16(count))
        default:
            try appendLength32(0xDB, count)
        }
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Writes a bin: bin 8 below 255 bytes, bin 16 up to 65 535, bin 32 beyond. (msgpack-lite
    /// 0.1.26 tests `length < 0xFF` for bin 8, so a 255-byte bin is bin 16 there and here.)
    package mutating func encodeBinary(_ data: some Collection<UInt8>) throws(MessagePackEncodingError) {
        let count = data.count
        switch count {
        case 0..<0xFF:
            bytes.append(0xC4)
            bytes.append(UInt8(count))
        case 0xFF...0xFFFF:
            bytes.append(0xC5)
            appendBigEndian(UInt16(count))
        default:
            try appendLength32(0xC6, count)
        }
        bytes.append(contentsOf: data)
    }

    /// Writes an array header for `count` elements; write the elements next.
    package mutating func encodeArrayHeader(count: Int) throws(MessagePackEncodingError) {
        switch count {
        case 0..<16:
            bytes.append(0x90 | UInt8(count))
        case 16...0xFFFF:
            bytes.append(0xDC)
            appendBigEndian(UInt16(count))
        default:
            try appendLength32(0xDD, count)
        }
    }

    /// Writes a map header for `count` members; write each key (``encodeString(_:)``) and its
    /// value next, in the order the peer should see them.
    package mutating func encodeMapHeader(count: Int) throws(MessagePackEncodingError) {
        switch count {
        case 0..<16:
            bytes.append(0x80 | UInt8(count))
        case 16...0xFFFF:
            bytes.append(0xDE)
            appendBigEndian(UInt16(count))
        default:
            try appendLength32(0xDF, count)
        }
    }

    /// The bytes of a ``JSONValue/binary(_:)`` wrapper whose base64 is canonical (so the bin
    /// decodes back to the very same wrapper), or nil.
    static func binaryPayload(_ members: [String: JSONValue]) -> Data? {
        guard members.count == 2, members["base64"] == .bool(true), case .string(let encoded)? = members["data"],
            let data = Data(base64Encoded: encoded), data.base64EncodedString() == encoded
        else { return nil }
        return data
    }

    private mutating func appendLength32(_ format: UInt8, _ count: Int) throws(MessagePackEncodingError) {
        guard count >= 0, count <= Int(UInt32.max) else { throw MessagePackEncodingError(.lengthNotRepresentable(count)) }
        bytes.append(format)
        appendBigEndian(UInt32(count))
    }

    private mutating func appendFloat64(_ number: Double) {
        bytes.append(0xCB)
        appendBigEndian(number.bitPattern)
    }

    @inline(__always)
    private mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
