import Foundation

/// Decodes `Decodable` values straight from `JSONValue` (no intermediate JSON text).
///
/// Mirrors `JSONValueEncoder`: `Data` accepts the base64 wrapper object or a base64 string,
/// `Date` an ISO 8601 string, `URL` a string; integers accept integral doubles in range.
struct JSONValueDecoder {
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try TreeDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw TreeDecoder.mismatch([String: JSONValue].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedTreeDecodingContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw TreeDecoder.mismatch([JSONValue].self, value, codingPath)
        }
        return UnkeyedTreeDecodingContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueTreeDecodingContainer(value: value, codingPath: codingPath)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        let found: String
        switch value {
        case .null: found = "null"
        case .bool: found = "a boolean"
        case .int, .double: found = "a number"
        case .string: found = "a string"
        case .array: found = "an array"
        case .object: found = "an object"
        }
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) but found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) but found \(found)"))
    }

    // MARK: Scalars

    func decodeBool() throws -> Bool {
        guard case .bool(let flag) = value else { throw TreeDecoder.mismatch(Bool.self, value, codingPath) }
        return flag
    }

    func decodeString() throws -> String {
        guard case .string(let string) = value else { throw TreeDecoder.mismatch(String.self, value, codingPath) }
        return string
    }

    func decodeDouble() throws -> Double {
        guard let number = value.doubleValue else { throw TreeDecoder.mismatch(Double.self, value, codingPath) }
        return number
    }

    func decodeFloat() throws -> Float {
        let number = try decodeDouble()
        guard number.isNaN || number.isInfinite || number.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Number \(number) does not fit in Float"))
        }
        return Float(number)
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let integer):
            guard let exact = T(exactly: integer) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Number \(integer) does not fit in \(T.self)"))
            }
            return exact
        case .double(let number):
            guard let exact = T(exactly: number) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Number \(number) is not representable as \(T.self)"))
            }
            return exact
        default:
            throw TreeDecoder.mismatch(T.self, value, codingPath)
        }
    }

    /// Decodes `type`, handling the types JSONDecoder treats specially and `JSONValue` itself.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let result = value as? T { return result }
        if T.self == Data.self {
            if let data = value.binaryData as? T { return data }
            if case .string(let encoded) = value, let data = Data(base64Encoded: encoded) as? T { return data }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "Expected {\"base64\":true,\"data\":...} or a base64 string"))
        }
        if T.self == Date.self {
            let text = try decodeString()
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) as? T { return date }
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: text) as? T { return date }
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "Expected an ISO 8601 date string, found \(text.debugDescription)"))
        }
        if T.self == URL.self {
            let text = try decodeString()
            guard let url = URL(string: text) as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid URL string \(text.debugDescription)"))
            }
            return url
        }
        if T.self == Decimal.self {
            let number = try decodeDouble()
            if let decimal = Decimal(number) as? T { return decimal }
        }
        return try T(from: self)
    }
}

struct KeyedTreeDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value for key \(key.stringValue.debugDescription)"))
        }
        return TreeDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).value.isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decodeFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeInteger(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeInteger(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeInteger(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeInteger(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeInteger(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TreeDecoder(value: members[JSONCodingKey.superKey.stringValue] ?? .null, codingPath: codingPath + [JSONCodingKey.superKey])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct UnkeyedTreeDecodingContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> TreeDecoder {
        let key = JSONCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end"))
        }
        let decoder = TreeDecoder(value: elements[currentIndex], codingPath: codingPath + [key])
        currentIndex += 1
        return decoder
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath, debugDescription: "Unkeyed container is at end"))
        }
        if elements[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decodeBool() }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decodeString() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decodeDouble() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decodeFloat() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decodeInteger(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: JSONValue].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([JSONValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(JSONValue.self)
    }
}

struct SingleValueTreeDecodingContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    private var decoder: TreeDecoder { TreeDecoder(value: value, codingPath: codingPath) }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat() }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
