import Foundation

extension JSONValue: Codable {
    /// Decodes whatever JSON the decoder holds at this position.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .int(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: JSONValue].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Value is not representable as JSON")
        }
    }

    /// Encodes the value as the matching JSON type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let integer): try container.encode(integer)
        case .double(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

/// A `Codable` value could not be converted to or from `JSONValue`.
public struct JSONCodingError: Error, Sendable, CustomStringConvertible {
    /// What failed, including the underlying encoder/decoder message.
    public let description: String
}

extension JSONValue {
    /// Converts an `Encodable` value to JSON. `Data` becomes the base64 wrapper object of spec
    /// §2.3, `Date` becomes an ISO 8601 string.
    public init(encoding value: some Encodable) throws(JSONCodingError) {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .custom { data, encoder in
            try JSONValue.binary(data).encode(to: encoder)
        }
        encoder.dateEncodingStrategy = .iso8601
        let text: Data
        do {
            text = try encoder.encode(value)
        } catch {
            throw JSONCodingError(description: "Cannot encode \(type(of: value)) as JSON: \(error)")
        }
        do {
            self = try JSONValue(parsing: text)
        } catch {
            throw JSONCodingError(description: "Cannot encode \(type(of: value)) as JSON: \(error)")
        }
    }

    /// Decodes a `Decodable` value from this JSON. `Data` accepts the base64 wrapper object or a
    /// plain base64 string; `Date` accepts an ISO 8601 string.
    public func decode<T: Decodable>(_ type: T.Type) throws(JSONCodingError) -> T {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .custom { decoder in
            let value = try JSONValue(from: decoder)
            if let data = value.binaryData { return data }
            if case .string(let encoded) = value, let data = Data(base64Encoded: encoded) { return data }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "Expected {\"base64\":true,\"data\":...} or a base64 string"))
        }
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(T.self, from: Data(serializedBytes()))
        } catch {
            throw JSONCodingError(description: "Cannot decode \(T.self) from JSON: \(error)")
        }
    }
}
