/// The permessage-deflate offer and answer (RFC 7692 §5, §7.1), sans I/O: header values in,
/// header values and `PerMessageDeflateParameters` out.
package enum PerMessageDeflateNegotiation {
    /// One extension of a `Sec-WebSocket-Extensions` value: its name and parameters in order.
    package struct Element: Sendable, Hashable {
        /// The extension token, for example `permessage-deflate`.
        package var name: String
        /// Its parameters in the order given; `value` is nil for a bare parameter.
        package var parameters: [(name: String, value: String?)]

        /// Same name and the same parameters in the same order.
        package static func == (a: Element, b: Element) -> Bool {
            a.name == b.name && a.parameters.elementsEqual(b.parameters) { $0.name == $1.name && $0.value == $1.value }
        }
        /// Hashes the name only (parameters are compared by `==`).
        package func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// Parses header values (`foo; a=1, permessage-deflate; b="2"`) into elements; nil when malformed.
    package static func parse(_ values: [String]) -> [Element]? {
        var elements: [Element] = []
        for value in values {
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = item.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmingWireKitWhitespace() }
                guard let name = parts.first, HTTPHeadParser.isToken(name) else {
                    if parts.allSatisfy(\.isEmpty) { continue }
                    return nil
                }
                var parameters: [(String, String?)] = []
                for part in parts.dropFirst() {
                    if let equals = part.firstIndex(of: "=") {
                        let key = String(part[..<equals]).trimmingWireKitWhitespace()
                        var raw = String(part[part.index(after: equals)...]).trimmingWireKitWhitespace()
                        if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 { raw = String(raw.dropFirst().dropLast()) }
                        guard HTTPHeadParser.isToken(key), HTTPHeadParser.isToken(raw) else { return nil }
                        parameters.append((key.lowercased(), raw))
                    } else {
                        guard HTTPHeadParser.isToken(part) else { return nil }
                        parameters.append((part.lowercased(), nil))
                    }
                }
                elements.append(Element(name: name.lowercased(), parameters: parameters))
            }
        }
        return elements
    }

    /// Window bits 8 ... 15 from a parameter value (digits only); nil otherwise.
    static func windowBits(_ value: String?) -> Int? {
        guard let value, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value.utf8.count <= 2, let bits = Int(value),
            (8...15).contains(bits)
        else { return nil }
        return bits
    }

    // MARK: Client

    /// The client's offer: `permessage-deflate; client_max_window_bits[=N]` plus what `options` asks.
    package static func offer(_ options: PerMessageDeflateOptions) -> String {
        var text = "permessage-deflate"
        if options.clientNoContextTakeover { text += "; client_no_context_takeover" }
        if options.serverNoContextTakeover { text += "; server_no_context_takeover" }
        if options.serverMaxWindowBits < 15 { text += "; server_max_window_bits=\(options.serverMaxWindowBits)" }
        text += options.clientMaxWindowBits < 15 ? "; client_max_window_bits=\(options.clientMaxWindowBits)" : "; client_max_window_bits"
        return text
    }

    /// Checks the server's `Sec-WebSocket-Extensions` answer to `offer(options)`. Returns nil when
    /// the server declined (no extension); throws `.invalidHandshakeResponse` for an extension not
    /// offered, a malformed or unknown parameter, or a value outside what was offered.
    package static func accept(answer values: [String], offered options: PerMessageDeflateOptions) throws(WebSocketError) -> PerMessageDeflateParameters? {
        guard let elements = parse(values) else {
            throw .invalidHandshakeResponse("malformed Sec-WebSocket-Extensions \"\(values.joined(separator: ", "))\"")
        }
        guard let element = elements.first else { return nil }
        guard elements.count == 1, element.name == "permessage-deflate" else {
            throw .invalidHandshakeResponse(
                "the server selected the extensions \"\(values.joined(separator: ", "))\"; only permessage-deflate was offered, once")
        }
        var result = PerMessageDeflateParameters()
        var seen = Set<String>()
        for (name, value) in element.parameters {
            guard seen.insert(name).inserted else { throw .invalidHandshakeResponse("permessage-deflate parameter \(name) appears twice") }
            switch name {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard value == nil else { throw .invalidHandshakeResponse("permessage-deflate parameter \(name) takes no value") }
                if name == "server_no_context_takeover" { result.serverNoContextTakeover = true } else { result.clientNoContextTakeover = true }
            case "server_max_window_bits":
                guard let bits = windowBits(value), bits <= options.serverMaxWindowBits else {
                    throw .invalidHandshakeResponse(
                        "permessage-deflate server_max_window_bits=\(value ?? "") is invalid or above the \(options.serverMaxWindowBits) offered")
                }
                result.serverMaxWindowBits = bits
            case "client_max_window_bits":
                guard let bits = windowBits(value), bits <= options.clientMaxWindowBits else {
                    throw .invalidHandshakeResponse(
                        "permessage-deflate client_max_window_bits=\(value ?? "") is invalid or above the \(options.clientMaxWindowBits) offered")
                }
                result.clientMaxWindowBits = bits
            default:
                throw .invalidHandshakeResponse("unknown permessage-deflate parameter \(name)")
            }
        }
        if options.serverNoContextTakeover && !result.serverNoContextTakeover {
            throw .invalidHandshakeResponse("the server did not agree to server_no_context_takeover, which was asked for")
        }
        if options.serverMaxWindowBits < 15 && result.serverMaxWindowBits > options.serverMaxWindowBits {
            throw .invalidHandshakeResponse("the server did not agree to server_max_window_bits=\(options.serverMaxWindowBits)")
        }
        result.clientNoContextTakeover = result.clientNoContextTakeover || options.clientNoContextTakeover
        result.clientMaxWindowBits = min(result.clientMaxWindowBits, options.clientMaxWindowBits)
        return result
    }

    // MARK: Server

    /// Picks the first acceptable permessage-deflate offer among the client's
    /// `Sec-WebSocket-Extensions` values. Returns the parameters and the answer to send, or nil
    /// (no offer, or none acceptable: malformed, unknown or duplicate parameters, bad values).
    package static func respond(to values: [String], options: PerMessageDeflateOptions) -> (PerMessageDeflateParameters, String)? {
        guard let elements = parse(values) else { return nil }
        offers: for element in elements where element.name == "permessage-deflate" {
            var result = PerMessageDeflateParameters(
                serverNoContextTakeover: options.serverNoContextTakeover,
                clientNoContextTakeover: options.clientNoContextTakeover,
                serverMaxWindowBits: options.serverMaxWindowBits,
                clientMaxWindowBits: 15)
            var clientWindowAllowed = false
            var seen = Set<String>()
            for (name, value) in element.parameters {
                guard seen.insert(name).inserted else { continue offers }
                switch name {
                case "server_no_context_takeover":
                    guard value == nil else { continue offers }
                    result.serverNoContextTakeover = true
                case "client_no_context_takeover":
                    guard value == nil else { continue offers }
                    result.clientNoContextTakeover = true
                case "server_max_window_bits":
                    // 8 is accepted; zlib's raw deflate cannot compress with a 256-byte window,
                    // so that direction then sends every message uncompressed.
                    guard let bits = windowBits(value) else { continue offers }
                    result.serverMaxWindowBits = min(result.serverMaxWindowBits, bits)
                case "client_max_window_bits":
                    if let value {
                        guard let bits = windowBits(value) else { continue offers }
                        result.clientMaxWindowBits = bits
                    }
                    clientWindowAllowed = true
                default:
                    continue offers
                }
            }
            if clientWindowAllowed { result.clientMaxWindowBits = min(result.clientMaxWindowBits, options.clientMaxWindowBits) }
            var answer = "permessage-deflate"
            if result.serverNoContextTakeover { answer += "; server_no_context_takeover" }
            if result.clientNoContextTakeover { answer += "; client_no_context_takeover" }
            if result.serverMaxWindowBits < 15 { answer += "; server_max_window_bits=\(result.serverMaxWindowBits)" }
            if clientWindowAllowed, result.clientMaxWindowBits < 15 { answer += "; client_max_window_bits=\(result.clientMaxWindowBits)" }
            return (result, answer)
        }
        return nil
    }
}
