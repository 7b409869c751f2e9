import Foundation

/// Reads one MessagePack document into a ``JSONValue``, with limits a hostile peer cannot get
/// round.
///
/// Every announced length (str, bin, array, map) is checked against the bytes actually left
/// before anything is allocated, so a five-byte `dd ffffffff` cannot reserve four billion
/// elements; nesting, the number of values and the input size are limited (see the properties).
/// Never traps on any input.
///
/// What each format becomes:
/// - nil, bool, str (valid UTF-8 only) and arrays as themselves.
/// - Every integer and float format is a number: ``JSONValue/int(_:)`` when integral and in the
///   `Int64` range (as the JSON parser reads `1e3`), ``JSONValue/double(_:)`` otherwise.
/// - bin 8/16/32 is the ``JSONValue/binary(_:)`` wrapper around its bytes (``JSONValue/binaryData``
///   gives them back), which ``JSONValue/messagePackBytes()`` writes as bin again.
/// - A map is an object; its keys must be str (JavaScript object keys always are), and a
///   repeated key keeps the last value, as msgpack-lite does.
/// - Extension types and the never-used `0xc1` are errors: `sc-codec-min-bin` 3.0.0 configures
///   msgpack-lite with no extension packers (`preset: false`), so a JavaScript peer never writes
///   one.
/// Bytes after the one value are an error, where msgpack-lite ignores them.
public struct MessagePackDecoder: Sendable {
    /// Largest input accepted by default, in bytes: 16 MiB, WireKit's default largest message
    /// (`WebSocketServerOptions.maxMessageSize`); ws's `maxPayload` defaults to 100 MiB.
    public static let defaultMaximumInputSize = 16 << 20
    /// Most values one document may hold by default: 1 048 576 (2²⁰). Every nil, boolean, number,
    /// str, bin, array, map and map key counts one.
    public static let defaultMaximumValueCount = 1 << 20

    /// Deepest array/map nesting accepted (a top-level array is depth 1). Default
    /// ``JSONValue/defaultMaximumDepth`` (512), as for JSON. Deeper input fails with
    /// ``MessagePackDecodingError/Reason/nestingTooDeep(limit:)`` at the container that crosses it.
    /// Each level costs a stack frame while decoding: keep it in the thousands at most.
    public var maximumDepth: Int
    /// Most values one document may hold (see ``defaultMaximumValueCount``). A container that
    /// announces more elements than the values left fails at once with
    /// ``MessagePackDecodingError/Reason/tooManyValues(limit:)``, before its elements are read.
    /// It bounds the memory of the decoded tree, which can be several times the input's size.
    /// msgpack-lite and socketcluster-server have no such limit.
    public var maximumValueCount: Int
    /// Largest input accepted, in bytes (see ``defaultMaximumInputSize``); a longer one fails
    /// with ``MessagePackDecodingError/Reason/inputTooLarge(size:limit:)`` before any byte is read.
    public var maximumInputSize: Int

    /// A decoder with the given limits (the defaults suit one SocketCluster frame).
    public init(
        maximumDepth: Int = JSONValue.defaultMaximumDepth,
        maximumValueCount: Int = MessagePackDecoder.defaultMaximumValueCount,
        maximumInputSize: Int = MessagePackDecoder.defaultMaximumInputSize
    ) {
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.maximumInputSize = maximumInputSize
    }

    /// Decodes the one MessagePack value that `bytes` must hold entirely.
    public func decode(_ bytes: some Collection<UInt8>) throws(MessagePackDecodingError) -> JSONValue {
        let result =
            bytes.withContiguousStorageIfAvailable { decode(buffer: $0) }
            ?? Array(bytes).withUnsafeBufferPointer { decode(buffer: $0) }
        return try result.get()
    }

    private func decode(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, MessagePackDecodingError> {
        guard buffer.count <= maximumInputSize else {
            return .failure(MessagePackDecodingError(.inputTooLarge(size: buffer.count, limit: maximumInputSize), offset: 0))
        }
        guard !buffer.isEmpty else { return .failure(MessagePackDecodingError(.emptyInput, offset: 0)) }
        var reader = MessagePackReader(input: buffer, maximumDepth: maximumDepth, maximumValueCount: maximumValueCount)
        do throws(MessagePackDecodingError) {
            let value = try reader.readValue(depth: 0)
            guard reader.position == buffer.count else {
                throw MessagePackDecodingError(.trailingBytes(count: buffer.count - reader.position), offset: reader.position)
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// The recursive descent behind ``MessagePackDecoder``, over the caller's bytes.
private struct MessagePackReader {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let maximumValueCount: Int
    var position = 0
    /// Values that may still be read (``MessagePackDecoder/maximumValueCount`` minus those read).
    var valuesLeft: Int

    init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumValueCount: Int) {
        self.input = input
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.valuesLeft = maximumValueCount
    }

    mutating func readValue(depth: Int) throws(MessagePackDecodingError) -> JSONValue {
        guard position < input.count else { throw MessagePackDecodingError(.unexpectedEndOfInput, offset: position) }
        guard valuesLeft > 0 else { throw MessagePackDecodingError(.tooManyValues(limit: maximumValueCount), offset: position) }
        valuesLeft -= 1
        let start = position
        let format = input[position]
        position += 1
        switch format {
        case 0x00...0x7F:
            return .int(Int64(format))
        case 0xE0...0xFF:
            return .int(Int64(Int8(bitPattern: format)))
        case 0x80...0x8F:
            return try readMap(count: Int(format & 0x0F), depth: depth + 1, start: start)
        case 0x90...0x9F:
            return try readArray(count: Int(format & 0x0F), depth: depth + 1, start: start)
        case 0xA0...0xBF:
            return .string(try readString(length: Int(format & 0x1F)))
        case 0xC0:
            return .null
        case 0xC1:
            throw MessagePackDecodingError(.neverUsedFormat, offset: start)
        case 0xC2:
            return .bool(false)
        case 0xC3:
            return .bool(true)
        case 0xC4:
            return try readBinary(length: Int(try readInteger(UInt8.self)))
        case 0xC5:
            return try readBinary(length: Int(try readInteger(UInt16.self)))
        case 0xC6:
            return try readBinary(length: Int(try readInteger(UInt32.self)))
        case 0xC7, 0xC8, 0xC9:
            let lengthSize = format == 0xC7 ? 1 : format == 0xC8 ? 2 : 4
            try need(lengthSize + 1)
            throw MessagePackDecodingError(
                .unsupportedExtension(type: Int8(bitPattern: input[position + lengthSize])), offset: start)
        case 0xCA:
            return Self.number(Double(Float(bitPattern: try readInteger(UInt32.self))))
        case 0xCB:
            return Self.number(Double(bitPattern: try readInteger(UInt64.self)))
        case 0xCC:
            return .int(Int64(try readInteger(UInt8.self)))
        case 0xCD:
            return .int(Int64(try readInteger(UInt16.self)))
        case 0xCE:
            return .int(Int64(try readInteger(UInt32.self)))
        case 0xCF:
            let value = try readInteger(UInt64.self)
            return value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
        case 0xD0:
            return .int(Int64(Int8(bitPattern: try readInteger(UInt8.self))))
        case 0xD1:
            return .int(Int64(Int16(bitPattern: try readInteger(UInt16.self))))
        case 0xD2:
            return .int(Int64(Int32(bitPattern: try readInteger(UInt32.self))))
        case 0xD3:
            return .int(Int64(bitPattern: try readInteger(UInt64.self)))
        case 0xD4...0xD8:
            try need(1)
            throw MessagePackDecodingError(.unsupportedExtension(type: Int8(bitPattern: input[position])), offset: start)
        case 0xD9:
            return .string(try readString(length: Int(try readInteger(UInt8.self))))
        case 0xDA:
            return .string(try readString(length: Int(try readInteger(UInt16.self))))
        case 0xDB:
            return .string(try readString(length: Int(try readInteger(UInt32.self))))
        case 0xDC:
            return try readArray(count: Int(try readInteger(UInt16.self)), depth: depth + 1, start: start)
        case 0xDD:
            return try readArray(count: Int(try readInteger(UInt32.self)), depth: depth + 1, start: start)
        case 0xDE:
            return try readMap(count: Int(try readInteger(UInt16.self)), depth: depth + 1, start: start)
        default:  // 0xDF
            return try readMap(count: Int(try readInteger(UInt32.self)), depth: depth + 1, start: start)
        }
    }

    /// Integral numbers in the `Int64` range are `.int`, as the JSON parser makes them.
    private static func number(_ value: Double) -> JSONValue {
        if value.rounded(.towardZero) == value, value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 {
            return .int(Int64(value))
        }
        return .double(value)
    }

    /// Throws unless `count` more bytes are there.
    @inline(__always)
    private func need(_ count: Int) throws(MessagePackDecodingError) {
        guard input.count - position >= count else { throw MessagePackDecodingError(.unexpectedEndOfInput, offset: position) }
    }

    private mutating func readInteger<Integer: FixedWidthInteger & UnsignedInteger>(
        _: Integer.Type
    ) throws(MessagePackDecodingError) -> Integer {
        let size = MemoryLayout<Integer>.size
        try need(size)
        var value: Integer = 0
        for offset in 0..<size {
            value = value << 8 | Integer(input[position + offset])
        }
        position += size
        return value
    }

    /// Checks that `count` units of `unitSize` bytes fit in what is left, before any allocation.
    @inline(__always)
    private func checkAnnounced(_ count: Int, unitSize: Int, start: Int) throws(MessagePackDecodingError) {
        let available = input.count - position
        guard count <= available / unitSize else {
            throw MessagePackDecodingError(.lengthExceedsInput(announced: count, available: available), offset: start)
        }
    }

    private mutating func readString(length: Int) throws(MessagePackDecodingError) -> String {
        try checkAnnounced(length, unitSize: 1, start: position)
        let body = UnsafeBufferPointer(rebasing: input[position..<position + length])
        var ascii = true
        for byte in body where byte >= 0x80 {
            ascii = false
            break
        }
        if !ascii && !UTF8Validation.isValid(body) {
            throw MessagePackDecodingError(.invalidUTF8, offset: position)
        }
        position += length
        return String(decoding: body, as: UTF8.self)
    }

    private mutating func readBinary(length: Int) throws(MessagePackDecodingError) -> JSONValue {
        try checkAnnounced(length, unitSize: 1, start: position)
        let data = Data(UnsafeBufferPointer(rebasing: input[position..<position + length]))
        position += length
        return .binary(data)
    }

    private mutating func enter(count: Int, depth: Int, unitSize: Int, start: Int) throws(MessagePackDecodingError) {
        guard depth <= maximumDepth else { throw MessagePackDecodingError(.nestingTooDeep(limit: maximumDepth), offset: start) }
        try checkAnnounced(count, unitSize: unitSize, start: start)
        guard count <= valuesLeft / unitSize else {
            throw MessagePackDecodingError(.tooManyValues(limit: maximumValueCount), offset: start)
        }
    }

    private mutating func readArray(count: Int, depth: Int, start: Int) throws(MessagePackDecodingError) -> JSONValue {
        try enter(count: count, depth: depth, unitSize: 1, start: start)
        var elements: [JSONValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            elements.append(try readValue(depth: depth))
        }
        return .array(elements)
    }

    private mutating func readMap(count: Int, depth: Int, start: Int) throws(MessagePackDecodingError) -> JSONValue {
        try enter(count: count, depth: depth, unitSize: 2, start: start)
        var members = [String: JSONValue](minimumCapacity: count)
        for _ in 0..<count {
            // A key's format is checked before the key is read: a container is not decoded only
            // to be refused.
            try need(1)
            let keyFormat = input[position]
            guard (0xA0...0xBF).contains(keyFormat) || (0xD9...0xDB).contains(keyFormat),
                case .string(let key) = try readValue(depth: depth)
            else {
                throw MessagePackDecodingError(.nonStringMapKey(format: keyFormat), offset: position)
            }
            members[key] = try readValue(depth: depth)
        }
        return .object(members)
    }
}
