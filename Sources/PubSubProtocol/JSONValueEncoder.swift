import Foundation

/// Encodes `Encodable` values straight into `JSONValue` (no intermediate JSON text).
///
/// Follows `JSONEncoder`'s conventions: `Data` becomes the base64 wrapper object of Protocol.md §2,
/// `Date` an ISO 8601 string, `URL` its absolute string, non-finite floats are an error, and
/// integral floating-point values become `.int` like the parser produces.
struct JSONValueEncoder {
    func encode(_ value: some Encodable) throws -> JSONValue {
        let root = EncodingNode()
        try root.encode(value, codingPath: [])
        return root.resolved()
    }
}

/// A value under construction; containers write into nodes that are resolved at the end.
final class EncodingNode {
    enum Content {
        case unset
        case value(JSONValue)
        case object([String: EncodingNode])
        case array([EncodingNode])
    }

    var content: Content = .unset

    func resolved() -> JSONValue {
        switch content {
        case .unset: return .object([:])  // JSONEncoder writes an empty object for a value that encoded nothing
        case .value(let value): return value
        case .object(let members): return .object(members.mapValues { $0.resolved() })
        case .array(let elements): return .array(elements.map { $0.resolved() })
        }
    }

    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        if let special = try EncodingNode.specialForm(of: value, codingPath: codingPath) {
            content = .value(special)
        } else {
            try value.encode(to: TreeEncoder(node: self, codingPath: codingPath))
        }
    }

    /// Types JSONEncoder treats specially, and `JSONValue` itself.
    static func specialForm(of value: some Encodable, codingPath: [any CodingKey]) throws -> JSONValue? {
        switch value {
        case let json as JSONValue: return json
        case let data as Data: return .binary(data)
        case let date as Date: return .string(ISO8601DateFormatter().string(from: date))
        case let url as URL: return .string(url.absoluteString)
        case let decimal as Decimal: return try number(NSDecimalNumber(decimal: decimal).doubleValue, value: value, codingPath: codingPath)
        default: return nil
        }
    }

    static func number(_ double: Double, value: Any, codingPath: [any CodingKey]) throws -> JSONValue {
        guard double.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "Non-finite number \(double) cannot be encoded as JSON"))
        }
        if double.rounded(.towardZero) == double, double >= -9_223_372_036_854_775_808.0, double < 9_223_372_036_854_775_808.0 {
            return .int(Int64(double))
        }
        return .double(double)
    }

    /// The double whose shortest form equals the float's (0.1f becomes 0.1, as JSONEncoder writes it).
    static func shortestDouble(_ value: Float) -> Double {
        Double(value.description) ?? Double(value)
    }

    static func integer(_ value: some BinaryInteger) -> JSONValue {
        if let exact = Int64(exactly: value) { return .int(exact) }
        return .double(Double(value))
    }

    func child(forKey key: String) -> EncodingNode {
        if case .object(let members) = content, let existing = members[key] { return existing }
        let node = EncodingNode()
        if case .object(var members) = content {
            content = .unset  // drop the reference so the dictionary is uniquely owned
            members[key] = node
            content = .object(members)
        } else {
            content = .object([key: node])
        }
        return node
    }

    func appendChild() -> EncodingNode {
        let node = EncodingNode()
        if case .array(var elements) = content {
            content = .unset
            elements.append(node)
            content = .array(elements)
        } else {
            content = .array([node])
        }
        return node
    }

    var arrayCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }
}

/// A coding key for array positions and `super`.
struct JSONCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    static let superKey = JSONCodingKey(stringValue: "super")
}

struct TreeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(KeyedTreeEncodingContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedTreeEncodingContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueTreeEncodingContainer(node: node, codingPath: codingPath)
    }
}

struct KeyedTreeEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) {
        node.child(forKey: key.stringValue).content = .value(value)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try EncodingNode.number(value, value: value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try EncodingNode.number(EncodingNode.shortestDouble(value), value: value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(EncodingNode.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.child(forKey: JSONCodingKey.superKey.stringValue), codingPath: codingPath + [JSONCodingKey.superKey])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedTreeEncodingContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.arrayCount }

    private func append(_ value: JSONValue) {
        node.appendChild().content = .value(value)
    }

    private var nextKey: JSONCodingKey { JSONCodingKey(intValue: count) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try EncodingNode.number(value, value: value, codingPath: codingPath + [nextKey])) }
    mutating func encode(_ value: Float) throws {
        append(try EncodingNode.number(EncodingNode.shortestDouble(value), value: value, codingPath: codingPath + [nextKey]))
    }
    mutating func encode(_ value: Int) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(EncodingNode.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = nextKey
        try node.appendChild().encode(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        return TreeEncoder(node: node.appendChild(), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        return TreeEncoder(node: node.appendChild(), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return TreeEncoder(node: node.appendChild(), codingPath: codingPath + [key])
    }
}

struct SingleValueTreeEncodingContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) { node.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try EncodingNode.number(value, value: value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try EncodingNode.number(EncodingNode.shortestDouble(value), value: value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(EncodingNode.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.encode(value, codingPath: codingPath)
    }
}
