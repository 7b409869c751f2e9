#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed `ws://` or `wss://` URL (RFC 6455 §3): where to connect and what to ask for.
public struct WebSocketURL: Sendable, Hashable, CustomStringConvertible {
    /// `true` for `wss://` (TLS).
    public var isSecure: Bool
    /// Host name or IP literal, without the brackets of an IPv6 literal.
    public var host: String
    /// TCP port: explicit, or 80 for `ws`, 443 for `wss`.
    public var port: Int
    /// Path and query as sent in the request line; `/` when the URL has no path.
    public var resourceName: String

    /// Parses `string`; throws `.invalidURL` saying what is wrong.
    public init(_ string: String) throws(WebSocketError) {
        let text = string.trimmingWireKitWhitespace()
        // Structural characters are ASCII: search the UTF-8 view (its indices are the string's).
        guard let schemeEnd = Self.firstRange(of: "://", in: text) else {
            throw .invalidURL("\"\(string)\" has no scheme; expected ws:// or wss://")
        }
        let scheme = text[..<schemeEnd.lowerBound]
        if scheme.wireKitEqualsIgnoringASCIICase("ws") {
            isSecure = false
        } else if scheme.wireKitEqualsIgnoringASCIICase("wss") {
            isSecure = true
        } else {
            throw .invalidURL("scheme \"\(scheme)\" is not ws or wss")
        }
        var rest = text[schemeEnd.upperBound...]
        if rest.utf8.contains(UInt8(ascii: "#")) { throw .invalidURL("\"\(string)\" has a fragment, which WebSocket URLs must not have") }
        if rest.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) {
            throw .invalidURL("\"\(string)\" contains whitespace")
        }
        let authorityEnd = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if authority.utf8.contains(UInt8(ascii: "@")) {
            throw .invalidURL("credentials in the URL are not supported; send an Authorization header instead")
        }
        var hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL("unterminated IPv6 literal in \"\(string)\"")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL("unexpected characters after the IPv6 literal") }
                portPart = after.dropFirst()
            }
            guard hostPart.contains(":"), hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" || $0.isLetter || $0.isNumber }) else {
                throw .invalidURL("\"\(hostPart)\" is not an IPv6 address")
            }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            } else {
                hostPart = authority
            }
            if hostPart.contains(":") { throw .invalidURL("an IPv6 host must be written in brackets, as in ws://[::1]:8080/") }
        }
        guard !hostPart.isEmpty else { throw .invalidURL("\"\(string)\" has no host") }
        host = String(hostPart)
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(portPart), (1...65535).contains(value)
            else {
                throw .invalidURL("port \"\(portPart)\" is not a number from 1 to 65535")
            }
            port = value
        } else {
            port = isSecure ? 443 : 80
        }
        if rest.isEmpty {
            resourceName = "/"
        } else if rest.utf8.first == UInt8(ascii: "?") {  // not hasPrefix: "?" + a combining mark is one Character
            resourceName = Self.percentEncodingNonASCII("/" + rest)
        } else {
            resourceName = Self.percentEncodingNonASCII(String(rest))
        }
    }

    /// The first occurrence of the ASCII `pattern` in `text`.
    private static func firstRange(of pattern: StaticString, in text: String) -> Range<String.Index>? {
        let bytes = text.utf8
        let needle = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        guard let first = needle.first else { return nil }
        var start = bytes.startIndex
        while let candidate = bytes[start...].firstIndex(of: first) {
            var index = candidate
            var matched = 0
            while matched < needle.count, index < bytes.endIndex, bytes[index] == needle[matched] {
                matched += 1
                index = bytes.index(after: index)
            }
            if matched == needle.count { return candidate..<index }
            start = bytes.index(after: candidate)
        }
        return nil
    }

    /// `text` with every byte outside printable ASCII written as `%XX`, so the request line
    /// stays ASCII (RFC 3986 §2.1).
    private static func percentEncodingNonASCII(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte < 0x21 || byte > 0x7E {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses a Foundation `URL`.
    public init(_ url: URL) throws(WebSocketError) {
        try self.init(url.absoluteString)
    }

    /// Whether `port` is the scheme's default (80 for `ws`, 443 for `wss`).
    public var isDefaultPort: Bool { port == (isSecure ? 443 : 80) }

    /// The `Host` header value: the host (bracketed if IPv6), plus `:port` when not the default.
    public var hostHeaderValue: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return isDefaultPort ? name : "\(name):\(port)"
    }

    /// The URL as written, with the port only when it is not the scheme's default.
    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(isSecure ? "wss" : "ws")://\(name)\(isDefaultPort ? "" : ":\(port)")\(resourceName)"
    }
}
