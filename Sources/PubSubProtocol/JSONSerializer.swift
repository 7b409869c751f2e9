/// Writes compact JSON text as UTF-8 bytes.
///
/// Output matches JavaScript's `JSON.stringify` for the same value: integers without `.0`, doubles
/// in ECMAScript `Number#toString` form, non-finite numbers as `null`, `/` not escaped, control
/// characters as lowercase `\u00xx`. Object members are written with sorted keys so output is stable.
struct JSONSerializer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            appendLiteral("null")
        case .bool(let flag):
            appendLiteral(flag ? "true" : "false")
        case .int(let integer):
            writeInteger(integer)
        case .double(let number):
            writeDouble(number)
        case .string(let string):
            writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            writeObject(members, leadingKeys: [])
        }
    }

    /// Writes an object whose `leadingKeys` (those present) come first in the given order, then
    /// the remaining members with sorted keys. Used to mirror the key order JavaScript peers emit.
    mutating func writeObject(_ members: [String: JSONValue], leadingKeys: [String]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        if members.count == 1, let only = members.first {
            writeMember(only.key, only.value, first: &first)
        } else {
            for key in leadingKeys {
                guard let value = members[key] else { continue }
                writeMember(key, value, first: &first)
            }
            var remaining = Array(members)
            if !leadingKeys.isEmpty { remaining.removeAll { leadingKeys.contains($0.key) } }
            remaining.sort { $0.key < $1.key }
            for member in remaining { writeMember(member.key, member.value, first: &first) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes one `"key":value` member, preceded by a comma unless it is the first.
    mutating func writeMember(_ key: String, _ value: JSONValue, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        write(value)
    }

    /// Appends raw bytes (a brace, comma...) verbatim.
    mutating func appendRaw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a literal's UTF-8 verbatim.
    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func writeInteger(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes of stack space
        withUnsafeMutableBytes(of: &digits) { buffer in
            var cursor = buffer.count
            while magnitude > 0 {
                cursor -= 1
                buffer[cursor] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[cursor...]))
        }
    }

    mutating func writeDouble(_ number: Double) {
        guard number.isFinite else {
            appendLiteral("null")
            return
        }
        if number == 0 {
            bytes.append(UInt8(ascii: "0"))  // JavaScript writes -0 as "0"
            return
        }
        if number.rounded(.towardZero) == number, number.magnitude < 9.007_199_254_740_992e15 {
            writeInteger(Int64(number))
            return
        }
        bytes.append(contentsOf: JavaScriptNumberFormat.string(for: number).utf8)
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { writeEscaped($0) }
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = JSONStringScanner.skipPlain(utf8, from: 0)
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                if byte < 0x80 { index = JSONStringScanner.skipPlain(utf8, from: index) }
                continue
            }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0x0F)])
            }
            index += 1
            runStart = index
        }
        if runStart < utf8.count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// ECMAScript `Number.prototype.toString()` for finite, non-zero doubles, built on Swift's
/// shortest round-trip digits.
enum JavaScriptNumberFormat {
    static func string(for number: Double) -> String {
        // Swift's description gives the shortest digits that round-trip, e.g. "1.5e-07", "123.25".
        let text = number.magnitude.description
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        var pointPosition: Int? = nil
        var exponent = 0
        var utf8 = Array(text.utf8)[...]
        if let e = utf8.firstIndex(of: UInt8(ascii: "e")) {
            exponent = Int(String(decoding: utf8[(e + 1)...], as: UTF8.self)) ?? 0
            utf8 = utf8[..<e]
        }
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        // value = 0.d1d2...dk × 10^n, with leading zeros removed.
        var n = (pointPosition ?? digits.count) + exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count

        var out: [UInt8] = []
        out.reserveCapacity(k + 8)
        if number < 0 { out.append(UInt8(ascii: "-")) }
        if k <= n && n <= 21 {
            out.append(contentsOf: digits)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - k))
        } else if 0 < n && n <= 21 {
            out.append(contentsOf: digits[..<n])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[n...])
        } else if -6 < n && n <= 0 {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
            out.append(contentsOf: digits)
        } else {
            out.append(digits[0])
            if k > 1 {
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[1...])
            }
            out.append(UInt8(ascii: "e"))
            out.append(n - 1 >= 0 ? UInt8(ascii: "+") : UInt8(ascii: "-"))
            out.append(contentsOf: String((n - 1).magnitude).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONValue {
    /// Compact JSON text (object keys sorted).
    public func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    /// Compact JSON as UTF-8 bytes (object keys sorted).
    public func serializedBytes() -> [UInt8] {
        var serializer = JSONSerializer()
        serializer.write(self)
        return serializer.bytes
    }
}
