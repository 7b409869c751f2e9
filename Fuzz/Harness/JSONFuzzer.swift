import PubSubProtocol

/// The JSON parser (RFC 8259, nesting limit 512), differential.
///
/// Input: all bytes are the JSON text. Checks: the byte and the String entry points agree on
/// valid UTF-8; an accepted value survives serialize → parse unchanged (numbers compared by
/// value: `1.0` may come back as `1`) and serializes to the same bytes again; and on valid UTF-8
/// the verdict is RFC 8259's (`JSONGrammar`) wherever the RFC defines one. The oracle is the
/// grammar, not `JSONSerialization`: that one accepts trailing commas (`[1,2,]`, the first
/// thing this target found) and skips a byte order mark.
enum JSONFuzzer {
    static let name = "json"

    static func run(_ raw: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let bytes = Array(raw)
        let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: bytes) }
        let isUTF8 = Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
        if isUTF8 {
            let text = String(decoding: bytes, as: UTF8.self)
            let fromText = Result { () throws(JSONParseError) in try JSONValue(parsing: text) }
            switch (parsed, fromText) {
            case (.success(let a), .success(let b)):
                try require(a == b, name, "bytes and String parse differently: \(a) vs \(b)")
            case (.failure, .failure): break
            default:
                throw FuzzFinding(name, "bytes and String disagree: \(parsed) vs \(fromText) for \(text.debugDescription)")
            }
        }
        if case .success(let value) = parsed {
            let serialized = value.serializedBytes()
            let again: JSONValue
            do {
                again = try JSONValue(parsing: serialized)
            } catch {
                throw FuzzFinding(name, "its own output does not parse (\(error)): \(String(decoding: serialized, as: UTF8.self))")
            }
            try require(equivalent(value, again), name, "serialize → parse changed \(value) into \(again)")
            try require(again.serializedBytes() == serialized, name, "serialization is not stable for \(value)")
        }
        if isUTF8 {
            let grammar = JSONGrammar.verdict(bytes, maximumDepth: JSONValue.defaultMaximumDepth)
            let ours = (try? parsed.get()) != nil
            if grammar != .implementationDefined {
                try require(
                    ours == (grammar == .accept), name,
                    "RFC 8259 \(grammar == .accept ? "accepts" : "rejects"), we \(ours ? "accept" : "reject") \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                )
            }
        }
    }

    /// Equal, with numbers compared by value whatever their representation.
    static func equivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equivalent($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equivalent(value, $0) } ?? false }
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)):
            return Double(x) == y
        case (.double(let x), .null) where !x.isFinite, (.null, .double(let x)) where !x.isFinite:
            // `1e400` parses to infinity, written as null like JavaScript's JSON.stringify does.
            return true
        default:
            return a == b
        }
    }
}
