/// A JSON document as the SocketCluster wire carries it.
///
/// Integers stay integers (`cid`, `rid`, counts are written without `.0`), booleans stay booleans
/// (never `1`), and `null` is distinct from an absent key (absent is `nil` at the `Optional` level).
///
/// This set is closed: JSON has these kinds of value, and the seven cases are permanent, so an
/// exhaustive `switch` over them stays valid in every later release. New abilities come only as
/// static functions and computed properties, the way ``binary(_:)`` and ``isTruthy`` came,
/// never as new cases.
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in 64 bits. The parser produces this for every integral
    /// value in range, including forms like `1e3` and `2.0`.
    case int(Int64)
    /// A non-integral or non-finite number, or an integer outside the `Int64` range.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object. Key order is not kept; serialization sorts keys.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key` when this is an object and the key is present.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in bounds.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean (numbers are not booleans).
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer or an integral double within the `Int64` range.
    public var intValue: Int64? {
        switch self {
        case .int(let value):
            return value
        case .double(let value):
            // 2^63 itself is not representable as Int64, hence the strict upper bound.
            guard value.rounded(.towardZero) == value, value >= -9_223_372_036_854_775_808.0,
                value < 9_223_372_036_854_775_808.0
            else { return nil }
            return Int64(value)
        default:
            return nil
        }
    }

    /// The number as a double, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is a number (integer or double), the JS `typeof x === "number"` test.
    public var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal is `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A float literal is `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Builds an object; a repeated key keeps the last value, as JavaScript does.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(elements.count)
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized() }
}
