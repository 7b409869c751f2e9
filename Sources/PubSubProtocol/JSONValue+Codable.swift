import Foundation
import PeerText

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

extension JSONValue {
    /// Converts an `Encodable` value to JSON without going through text. `Data` becomes the
    /// base64 wrapper object of Protocol.md §2, `Date` an ISO 8601 string, integral floating-point
    /// values `.int`; non-finite floats are an error.
    public init(encoding value: some Encodable) throws(JSONCodingError) {
        do {
            self = try JSONValueEncoder().encode(value)
        } catch {
            throw JSONCodingError(description: "Cannot encode \(type(of: value)) as JSON: \(error)")
        }
    }

    /// Decodes a `Decodable` value from this JSON. `Data` accepts the base64 wrapper object or a
    /// plain base64 string; `Date` an ISO 8601 string; integers accept integral numbers in range.
    public func decode<T: Decodable>(_ type: T.Type) throws(JSONCodingError) -> T {
        do {
            return try JSONValueDecoder().decode(T.self, from: self)
        } catch {
            // The decoder's text quotes the JSON's keys (the peer's): escaped for the person reading it.
            throw JSONCodingError(description: "Cannot decode \(T.self) from JSON: \(PeerTextEscaping.escape(String(describing: error)))")
        }
    }
}
