import PubSubProtocol

/// The MessagePack decoder and encoder (the `sc-codec-min-bin` wire format).
///
/// Input: all bytes are the document. Checks: a failure names an offset inside the input (and a
/// trailing-bytes failure the right count); a value that decodes encodes to bytes that decode to
/// the same value (doubles compared bit for bit, so NaN too), and encoding that value again gives
/// the same bytes; no strict prefix of a document that decodes decodes too (a value delimits
/// itself); and a decoder with tighter limits never accepts what the default one refuses, and
/// agrees on what it accepts.
enum MessagePackFuzzer {
    static let name = "msgpack"
    private static let tight = MessagePackDecoder(maximumDepth: 4, maximumValueCount: 64, maximumInputSize: 1024)

    static func run(_ raw: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let bytes = Array(raw)
        let decoded = Result { () throws(MessagePackDecodingError) in try JSONValue(messagePack: bytes) }
        let tightlyDecoded = Result { () throws(MessagePackDecodingError) in try tight.decode(bytes) }
        switch (decoded, tightlyDecoded) {
        case (.failure(let error), .success(let value)):
            throw FuzzFinding(name, "tight limits accept \(value) where the defaults refuse: \(error)")
        case (.success(let value), .success(let tightValue)):
            try require(equivalent(value, tightValue), name, "tight limits decode \(tightValue), the defaults \(value)")
        default:
            break
        }
        switch decoded {
        case .failure(let error):
            try require((0...bytes.count).contains(error.offset), name, "offset \(error.offset) outside \(bytes.count) bytes: \(error)")
            if case .trailingBytes(let count) = error.reason {
                try require(count == bytes.count - error.offset && count > 0, name, "trailing count wrong: \(error)")
            }
        case .success(let value):
            let encoded: [UInt8]
            do {
                encoded = try value.messagePackBytes()
            } catch {
                throw FuzzFinding(name, "a decoded value does not encode (\(error)): \(value)")
            }
            let again: JSONValue
            do {
                again = try JSONValue(messagePack: encoded)
            } catch {
                throw FuzzFinding(name, "our own encoding of \(value) does not decode: \(error)")
            }
            try require(equivalent(value, again), name, "encode → decode changed \(value) into \(again)")
            let encodedAgain = try? again.messagePackBytes()
            try require(encodedAgain == encoded, name, "encoding is not stable for \(value)")
            for length in Set([bytes.count - 1, bytes.count / 2, 1]) where length > 0 && length < bytes.count {
                let prefix = (try? JSONValue(messagePack: bytes[..<length])) != nil
                try require(!prefix, name, "a prefix of \(length) of \(bytes.count) bytes decodes too")
            }
        }
    }

    /// Equal, with doubles compared bit for bit (NaN equals the same NaN).
    static func equivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)):
            return x.bitPattern == y.bitPattern
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equivalent($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equivalent(value, $0) } ?? false }
        default:
            return a == b
        }
    }
}
