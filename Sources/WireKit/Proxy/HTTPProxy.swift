#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An HTTP proxy reached with `CONNECT` (RFC 9110 §9.3.6): `http://[user:password@]host:port`.
/// Credentials go out as Basic authentication; `wss://` runs TLS to the origin inside the tunnel.
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible {
    /// Proxy host name or IP literal (IPv6 without brackets).
    public var host: String
    /// Proxy TCP port (80 when the URL has none).
    public var port: Int
    /// Basic authentication user name, percent-decoded.
    public var username: String?
    /// Basic authentication password, percent-decoded.
    public var password: String?

    /// A proxy at `host`:`port`, with Basic credentials when `username` is set.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// Parses `http://[user:password@]host[:port]` (the scheme may be left out, as in
    /// `http_proxy=host:3128`). Throws `.invalidURL` saying what is wrong.
    public init(url string: String) throws(WebSocketError) {
        var rest = Substring(string.trimmingWireKitWhitespace())
        if let schemeEnd = rest.firstRange(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" else {
                throw .invalidURL("proxy \"\(string)\": only http:// proxies are supported, not \(scheme)://")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                throw .invalidURL("proxy \"\(string)\": a proxy URL has no path")
            }
            rest = rest[..<slash]
        }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let user: Substring, secret: Substring?
            if let colon = credentials.firstIndex(of: ":") {
                user = credentials[..<colon]
                secret = credentials[credentials.index(after: colon)...]
            } else {
                user = credentials
                secret = nil
            }
            guard let decodedUser = Self.percentDecoded(user),
                let decodedSecret = secret.map(Self.percentDecoded) ?? ""
            else {
                throw .invalidURL("proxy \"\(string)\": bad percent-encoding in the credentials")
            }
            username = decodedUser
            password = decodedSecret
        } else {
            username = nil
            password = nil
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidURL("proxy \"\(string)\": unterminated IPv6 literal") }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL("proxy \"\(string)\": unexpected characters after the IPv6 literal") }
                portPart = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw .invalidURL("proxy \"\(string)\" has no host") }
        host = String(hostPart)
        if let portPart {
            guard let value = Int(portPart), (1...65535).contains(value) else {
                throw .invalidURL("proxy \"\(string)\": port \"\(portPart)\" is not a number from 1 to 65535")
            }
            port = value
        } else {
            port = 80
        }
    }

    /// The proxy the environment names for `url`, by the curl conventions: `https_proxy` or
    /// `HTTPS_PROXY` for `wss://`, `http_proxy` for `ws://` (lowercase only, as curl: `HTTP_PROXY`
    /// can be set by a CGI request), none when `no_proxy`/`NO_PROXY` matches the host (`*`, a
    /// name, `.suffix` or `suffix` of a domain, an IP literal). Throws `.invalidURL` for an
    /// unparsable variable.
    public static func fromEnvironment(for url: WebSocketURL, environment: [String: String] = ProcessInfo.processInfo.environment) throws(WebSocketError)
        -> HTTPProxy?
    {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        let setting = url.isSecure ? value("https_proxy", "HTTPS_PROXY") : value("http_proxy")
        guard let setting else { return nil }
        if let exclusions = value("no_proxy", "NO_PROXY"), matchesNoProxy(exclusions, host: url.host) { return nil }
        return try HTTPProxy(url: setting)
    }

    /// Whether the `no_proxy` list `list` excludes `host`.
    static func matchesNoProxy(_ list: String, host: String) -> Bool {
        let host = host.lowercased()
        for entry in list.split(separator: ",") {
            var pattern = String(entry).trimmingWireKitWhitespace().lowercased()
            if pattern == "*" { return true }
            if pattern.hasPrefix("["), let close = pattern.firstIndex(of: "]") {
                pattern = String(pattern[pattern.index(after: pattern.startIndex)..<close])
            } else if let colon = pattern.lastIndex(of: ":"), pattern.firstIndex(of: ":") == colon {
                pattern = String(pattern[..<colon])  // "host:port": the port is ignored
            }
            if pattern.hasPrefix("*.") { pattern.removeFirst() }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            guard !pattern.isEmpty else { continue }
            if host == pattern || host.hasSuffix("." + pattern) { return true }
        }
        return false
    }

    /// `text` with its `%XX` escapes decoded; nil for a bad escape (invalid UTF-8 is repaired).
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `http://host:port`, without the credentials.
    public var description: String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
