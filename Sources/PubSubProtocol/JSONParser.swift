/// Strict RFC 8259 parser working on UTF-8 bytes.
///
/// Never traps on any input: every index is checked against the buffer length, nesting is
/// limited, and integers are accumulated with overflow checks. Lone UTF-16 surrogates in `\u`
/// escapes (legal for JavaScript's `JSON.stringify`) become U+FFFD because Swift strings cannot
/// hold them.
struct JSONParser {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    /// Most values (scalars, arrays, objects and object keys) the tree may hold.
    private let maximumValues: Int
    private var valueCount = 0
    /// Whether to record the wire text of each packet object's numeric `cid` (see `callIDTexts`).
    private let capturesCallIDs: Bool
    /// The packet index of the next value when it is a packet object (the document, or an element
    /// of the document's array); consumed by `parseValue`.
    private var pendingPacketIndex: Int?
    /// Packet index → the `cid` member's number text, when it is not the canonical decimal form
    /// of the integer the parser made of it.
    private(set) var callIDTexts: [Int: String] = [:]
    /// The packets classified as they were read (see `classifiedPacket`): packet index 0 apart,
    /// so a frame of one packet needs no array for it.
    private var firstPacket: Packet?
    private var laterPackets: [Packet?] = []
    /// True when the bytes came from a Swift `String`, so UTF-8 validation can be skipped.
    let inputIsValidUTF8: Bool
    var position = 0
    /// Reused buffer for strings that contain escapes.
    private var scratch: [UInt8] = []
    /// Members of the objects being parsed, innermost last; collected here so each dictionary
    /// is allocated once at its final size instead of growing key by key.
    private var memberStack: [(String, JSONValue)] = []
    /// Elements of the arrays being parsed, innermost last (same reason).
    private var elementStack: [JSONValue] = []

    init(
        input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumValues: Int, inputIsValidUTF8: Bool,
        capturesCallIDs: Bool
    ) {
        self.input = input
        self.maximumDepth = maximumDepth
        self.maximumValues = maximumValues
        self.inputIsValidUTF8 = inputIsValidUTF8
        self.capturesCallIDs = capturesCallIDs
    }

    /// Parses one complete document (surrounding whitespace allowed, nothing else).
    static func parse(
        _ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumValues: Int = .max,
        inputIsValidUTF8: Bool
    ) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(
            input: input, maximumDepth: maximumDepth, maximumValues: maximumValues, inputIsValidUTF8: inputIsValidUTF8,
            capturesCallIDs: false)
        do throws(JSONParseError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    /// A frame's document as `parsePacketFrame` reads it.
    struct PacketFrame {
        /// The document. A packet object that `packet(at:)` holds is `.null` here: no
        /// dictionary was made of its members.
        var value: JSONValue
        /// Packet index → the wire text of the packet's `cid` when it is not written in the
        /// canonical form of the integer it stands for.
        var callIDTexts: [Int: String]
        fileprivate var firstPacket: Packet?
        fileprivate var laterPackets: [Packet?]

        /// The packet at `index` (0 for a lone object, the element index in a batch array) when
        /// the parser classified it from its members as they were read: every transmit, invoke
        /// and response whose `cid` was written canonically. Nil for the rest (`raw` elements,
        /// non-objects, a `cid` whose text must be kept), whose value is in `value`.
        func packet(at index: Int) -> Packet? {
            if index == 0 { return firstPacket }
            return index - 1 < laterPackets.count ? laterPackets[index - 1] : nil
        }
    }

    /// Parses a frame's document (a packet object or a batch array of them), classifying each
    /// packet object as it closes (see `PacketFrame`), and keeping the wire text of each
    /// packet's `cid` that is not written in the canonical form of the integer it stands for.
    static func parsePacketFrame(
        _ input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumValues: Int, inputIsValidUTF8: Bool
    ) -> Result<PacketFrame, JSONParseError> {
        var parser = JSONParser(
            input: input, maximumDepth: maximumDepth, maximumValues: maximumValues, inputIsValidUTF8: inputIsValidUTF8,
            capturesCallIDs: true)
        do throws(JSONParseError) {
            parser.pendingPacketIndex = 0
            let value = try parser.parseDocument()
            return .success(
                PacketFrame(
                    value: value, callIDTexts: parser.callIDTexts, firstPacket: parser.firstPacket,
                    laterPackets: parser.laterPackets))
        } catch {
            return .failure(error)
        }
    }

    /// Counts one value against `maximumValues`.
    @inline(__always)
    private mutating func countValue() throws(JSONParseError) {
        valueCount += 1
        guard valueCount <= maximumValues else {
            throw JSONParseError(.tooManyValues(limit: maximumValues), offset: position)
        }
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < input.count else {
            throw JSONParseError(input.isEmpty ? .emptyInput : .unexpectedEndOfInput, offset: position)
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard position == input.count else { throw JSONParseError(.trailingCharacters, offset: position) }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        try countValue()
        let packetIndex = pendingPacketIndex
        pendingPacketIndex = nil
        switch input[position] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1, packetIndex: packetIndex)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1, holdsPackets: packetIndex != nil && depth == 0)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case let byte:
            throw JSONParseError(.unexpectedCharacter(byte), offset: position)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count {
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            guard input[position] == expected[offset] else {
                throw JSONParseError(.unexpectedCharacter(input[position]), offset: position)
            }
            position += 1
        }
    }

    private mutating func parseObject(depth: Int, packetIndex: Int?) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONParseError(.nestingTooDeep(limit: maximumDepth), offset: position) }
        position += 1  // "{"
        skipWhitespace()
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        if input[position] == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        let base = memberStack.count
        // Room for a packet's members at once: growing from empty allocates twice for two or three.
        if memberStack.capacity == 0 { memberStack.reserveCapacity(4) }
        while true {
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            guard input[position] == UInt8(ascii: "\"") else {
                throw JSONParseError(.unexpectedCharacter(input[position]), offset: position)
            }
            try countValue()
            let key = try parseString()
            skipWhitespace()
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            guard input[position] == UInt8(ascii: ":") else {
                throw JSONParseError(.unexpectedCharacter(input[position]), offset: position)
            }
            position += 1
            skipWhitespace()
            let valueStart = position
            let value = try parseValue(depth: depth)
            // The length first: the other members of a packet ("event", "data") then cost no
            // string comparison.
            if let packetIndex, key.utf8.count == 3, key == "cid" { recordCallID(value, from: valueStart, packet: packetIndex) }
            memberStack.append((key, value))
            skipWhitespace()
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            switch input[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                if let packetIndex, let packet = classifiedPacket(membersFrom: base, packetIndex: packetIndex) {
                    memberStack.removeSubrange(base...)
                    if packetIndex == 0 {
                        firstPacket = packet
                    } else {
                        if laterPackets.count < packetIndex { laterPackets.append(contentsOf: repeatElement(nil, count: packetIndex - laterPackets.count)) }
                        laterPackets[packetIndex - 1] = packet
                    }
                    return .null
                }
                var members = [String: JSONValue](minimumCapacity: memberStack.count - base)
                for index in base..<memberStack.count {
                    // A repeated key keeps the last value, as JSON.parse does.
                    members[memberStack[index].0] = memberStack[index].1
                }
                memberStack.removeSubrange(base...)
                return .object(members)
            case let byte:
                throw JSONParseError(.unexpectedCharacter(byte), offset: position)
            }
        }
    }

    /// The packet a packet object's members (`memberStack[base...]`) make, read before any
    /// dictionary is made of them: the members of a packet are two or three, and this saves
    /// the dictionary, the hashing of its keys and the lookups the classification makes in it.
    /// Nil when the object is `raw` (it needs its dictionary then) or its `cid` text is kept.
    private func classifiedPacket(membersFrom base: Int, packetIndex: Int) -> Packet? {
        if !callIDTexts.isEmpty, callIDTexts[packetIndex] != nil { return nil }
        return Packet.classify { key in
            // The last of a repeated key, as the dictionary would keep.
            var index = memberStack.endIndex
            while index > base {
                index -= 1
                if memberStack[index].0 == key { return memberStack[index].1 }
            }
            return nil
        }
    }

    /// Keeps the text of a packet's numeric `cid` when it differs from the canonical decimal
    /// form of the parsed integer (a repeated key keeps the last value, as `JSON.parse` does).
    private mutating func recordCallID(_ value: JSONValue, from start: Int, packet: Int) {
        // The common case, on every invoke: an integer written canonically. Nothing to keep, and
        // no string made or dictionary touched for it.
        // Up to 18 bytes the digits are exactly the integer; longer ones can be rounded into
        // range (`-9223372036854775809` parses as `Int64.min`), so they must read back the same.
        if case .int(let integer) = value, Self.isCanonicalInteger(input[start..<position]),
            position - start <= 18 || String(integer).utf8.elementsEqual(input[start..<position])
        {
            if !callIDTexts.isEmpty { callIDTexts[packet] = nil }
            return
        }
        guard value.isNumber else {
            if !callIDTexts.isEmpty { callIDTexts[packet] = nil }
            return
        }
        callIDTexts[packet] = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
    }

    /// Whether `bytes` are an integer's canonical decimal form (`String(integer)`): an optional
    /// minus, then digits without a leading zero; `0` alone, never `-0`.
    private static func isCanonicalInteger(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = bytes.startIndex
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.endIndex else { return false }
        if bytes[index] == UInt8(ascii: "0") { return index + 1 == bytes.endIndex && index == bytes.startIndex }
        while index < bytes.endIndex {
            guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return false }
            index += 1
        }
        return true
    }

    private mutating func parseArray(depth: Int, holdsPackets: Bool) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONParseError(.nestingTooDeep(limit: maximumDepth), offset: position) }
        position += 1  // "["
        skipWhitespace()
        guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
        if input[position] == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let base = elementStack.count
        while true {
            if holdsPackets { pendingPacketIndex = elementStack.count - base }
            let element = try parseValue(depth: depth)
            elementStack.append(element)
            skipWhitespace()
            guard position < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: position) }
            switch input[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                let elements = Array(elementStack[base...])
                elementStack.removeSubrange(base...)
                return .array(elements)
            case let byte:
                throw JSONParseError(.unexpectedCharacter(byte), offset: position)
            }
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = position + 1
        var index = JSONStringScanner.skipPlain(input, from: start)
        var sawNonASCII = false
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                let body = UnsafeBufferPointer(rebasing: input[start..<index])
                if sawNonASCII && !inputIsValidUTF8 && !UTF8Validation.isValid(body) {
                    throw JSONParseError(.invalidUTF8, offset: start)
                }
                position = index + 1
                return String(decoding: body, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(start: start, firstEscape: index, sawNonASCII: sawNonASCII)
            }
            if byte < 0x20 { throw JSONParseError(.controlCharacterInString(byte), offset: index) }
            if byte >= 0x80 { sawNonASCII = true }
            index += 1
        }
        throw JSONParseError(.unexpectedEndOfInput, offset: index)
    }

    /// Slow path for strings with escapes: decodes into `scratch`.
    private mutating func parseEscapedString(start: Int, firstEscape: Int, sawNonASCII: Bool) throws(JSONParseError) -> String {
        var sawNonASCII = sawNonASCII
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<firstEscape]))
        var index = firstEscape
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                if sawNonASCII && !inputIsValidUTF8 {
                    let valid = scratch.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
                    guard valid else { throw JSONParseError(.invalidUTF8, offset: start) }
                }
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: index) }
                switch input[index] {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    index = try decodeUnicodeEscape(at: index - 1)
                    continue
                default:
                    throw JSONParseError(.invalidEscape, offset: index - 1)
                }
                index += 1
            case 0..<0x20:
                throw JSONParseError(.controlCharacterInString(byte), offset: index)
            default:
                if byte >= 0x80 { sawNonASCII = true }
                scratch.append(byte)
                index += 1
            }
        }
        throw JSONParseError(.unexpectedEndOfInput, offset: index)
    }

    /// Decodes `\uXXXX` (and a following low surrogate escape) at `escapeStart`, appends the
    /// UTF-8 to `scratch`, and returns the index after what it consumed.
    private mutating func decodeUnicodeEscape(at escapeStart: Int) throws(JSONParseError) -> Int {
        let unit = try hexQuad(at: escapeStart + 2)
        var next = escapeStart + 6
        let scalar: UInt32
        if unit >= 0xD800 && unit <= 0xDBFF {
            if next + 5 < input.count, input[next] == UInt8(ascii: "\\"), input[next + 1] == UInt8(ascii: "u"),
                let low = try? hexQuad(at: next + 2), low >= 0xDC00 && low <= 0xDFFF
            {
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                next += 6
            } else {
                scalar = 0xFFFD
            }
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
            scalar = 0xFFFD
        } else {
            scalar = UInt32(unit)
        }
        appendUTF8(scalar)
        return next
    }

    func hexQuad(at index: Int) throws(JSONParseError) -> UInt16 {
        guard index + 4 <= input.count else { throw JSONParseError(.unexpectedEndOfInput, offset: input.count) }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = input[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidUnicodeEscape, offset: index - 2)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var index = position
        let negative = input[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < input.count else { throw JSONParseError(.invalidNumber, offset: start) }

        var magnitude: UInt64 = 0
        var overflowed = false
        let first = input[index]
        if first == UInt8(ascii: "0") {
            index += 1
        } else if first >= UInt8(ascii: "1") && first <= UInt8(ascii: "9") {
            while index < input.count, input[index] >= UInt8(ascii: "0"), input[index] <= UInt8(ascii: "9") {
                let digit = UInt64(input[index] - UInt8(ascii: "0"))
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                if o1 || o2 { overflowed = true } else { magnitude = sum }
                index += 1
            }
        } else {
            throw JSONParseError(.invalidNumber, offset: start)
        }

        var isInteger = true
        if index < input.count, input[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digitsStart = index
            while index < input.count, input[index] >= UInt8(ascii: "0"), input[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digitsStart else { throw JSONParseError(.invalidNumber, offset: start) }
        }
        if index < input.count, input[index] == UInt8(ascii: "e") || input[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < input.count, input[index] >= UInt8(ascii: "0"), input[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digitsStart else { throw JSONParseError(.invalidNumber, offset: start) }
        }
        position = index

        if isInteger && !overflowed {
            if !negative, magnitude <= UInt64(Int64.max) {
                return .int(Int64(magnitude))
            }
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                // "-0" becomes 0: JavaScript's -0 serializes as "0" anyway.
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
        }
        let number = JSONNumberParsing.double(from: UnsafeBufferPointer(rebasing: input[start..<index]))
        // Integral values in range are integers however they are written ("1e3", "2.0"), so
        // equality matches JavaScript's single number type and parse/serialize round-trips.
        if number.rounded(.towardZero) == number, number >= -9_223_372_036_854_775_808.0, number < 9_223_372_036_854_775_808.0 {
            return .int(Int64(number))
        }
        return .double(number)
    }
}

/// Converts the text of a grammatically valid JSON number to the nearest `Double`.
enum JSONNumberParsing {
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    static func double(from text: UnsafeBufferPointer<UInt8>) -> Double {
        if let fast = clingerFastPath(text) { return fast }
        let string = String(decoding: text, as: UTF8.self)
        if let value = Double(string) { return value }
        // Double(String) accepts every JSON number; this only guards against a platform quirk.
        return text.first == UInt8(ascii: "-") ? -Double.infinity : Double.infinity
    }

    /// Exact conversion when the significand has at most 15 digits and the decimal exponent is
    /// small enough that one multiplication or division by an exact power of ten is correctly rounded.
    private static func clingerFastPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var seenNonZero = false
        while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
            let digit = text[index] - UInt8(ascii: "0")
            if digit != 0 || seenNonZero {
                seenNonZero = true
                significantDigits += 1
                if significantDigits > 15 { return nil }
                significand = significand * 10 + UInt64(digit)
            }
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                let digit = text[index] - UInt8(ascii: "0")
                if digit != 0 || seenNonZero {
                    seenNonZero = true
                    significantDigits += 1
                    if significantDigits > 15 { return nil }
                    significand = significand * 10 + UInt64(digit)
                }
                exponent -= 1
                index += 1
            }
        }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                written = written * 10 + Int(text[index] - UInt8(ascii: "0"))
                if written > 10_000 { return nil }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        var value = Double(significand)
        if significand == 0 {
            value = 0
        } else if exponent < 0 {
            guard exponent >= -22 else { return nil }
            value /= exactPowersOfTen[-exponent]
        } else if exponent > 0 {
            guard exponent <= 22 else { return nil }
            value *= exactPowersOfTen[exponent]
        }
        return negative ? -value : value
    }
}

/// RFC 3629 UTF-8 validation (rejects overlong forms, surrogates and code points above U+10FFFF).
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
            } else if lead < 0xC2 {
                return false
            } else if lead < 0xE0 {
                guard index + 1 < count, bytes[index + 1] & 0xC0 == 0x80 else { return false }
                index += 2
            } else if lead < 0xF0 {
                guard index + 2 < count else { return false }
                let second = bytes[index + 1]
                guard second & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80 else { return false }
                if lead == 0xE0 && second < 0xA0 { return false }
                if lead == 0xED && second >= 0xA0 { return false }
                index += 3
            } else if lead < 0xF5 {
                guard index + 3 < count else { return false }
                let second = bytes[index + 1]
                guard second & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80, bytes[index + 3] & 0xC0 == 0x80 else { return false }
                if lead == 0xF0 && second < 0x90 { return false }
                if lead == 0xF4 && second >= 0x90 { return false }
                index += 4
            } else {
                return false
            }
        }
        return true
    }
}

extension JSONValue {
    /// Deepest array/object nesting the parser accepts by default.
    public static let defaultMaximumDepth = 512

    /// Parses UTF-8 JSON text (RFC 8259, strict: one value, optional surrounding whitespace).
    /// `maximumValues` bounds the tree: every scalar, array, object and object key counts one, and
    /// a document with more throws `tooManyValues` before the rest is read.
    public init(
        parsing bytes: some Collection<UInt8>, maximumDepth: Int = JSONValue.defaultMaximumDepth, maximumValues: Int = .max
    ) throws(JSONParseError) {
        let result =
            bytes.withContiguousStorageIfAvailable {
                JSONParser.parse($0, maximumDepth: maximumDepth, maximumValues: maximumValues, inputIsValidUTF8: false)
            }
            ?? Array(bytes).withUnsafeBufferPointer {
                JSONParser.parse($0, maximumDepth: maximumDepth, maximumValues: maximumValues, inputIsValidUTF8: false)
            }
        self = try result.get()
    }

    /// Parses JSON text (RFC 8259, strict: one value, optional surrounding whitespace), with at
    /// most `maximumValues` values (see `init(parsing:maximumDepth:maximumValues:)` for bytes).
    public init(
        parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth, maximumValues: Int = .max
    ) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 {
            JSONParser.parse($0, maximumDepth: maximumDepth, maximumValues: maximumValues, inputIsValidUTF8: true)
        }
        self = try result.get()
    }
}
