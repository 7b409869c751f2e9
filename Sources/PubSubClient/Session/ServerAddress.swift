/// Where to connect, as the JS client's discrete options (Protocol.md §1) or a full URL. Also
/// yields the default auth-token storage key (Protocol.md §9), derived from host and port.
public struct ServerAddress: Sendable, Hashable {
    /// One query parameter; repeated names are allowed and kept in order.
    public struct QueryItem: Sendable, Hashable {
        /// Parameter name (form-encoded on the wire).
        public var name: String
        /// Parameter value (form-encoded on the wire).
        public var value: String
        /// One `name=value` pair.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The connection URL, exactly as it will be requested.
    public let url: String
    /// `host[:port]` used by the default token key.
    public let tokenKeyHost: String

    /// Discrete options: `ws(s)://hostname[:port]path[?query]`. The port is omitted when it is
    /// the scheme's default (80 for ws, 443 for wss). `path` is used verbatim (default
    /// `/socketcluster/`, both slashes matter to the server).
    public init(
        hostname: String = "localhost", port: Int? = nil, secure: Bool = false,
        path: String = "/socketcluster/", query: [QueryItem] = []
    ) {
        let defaultPort = secure ? 443 : 80
        let effectivePort = port ?? defaultPort
        let authority = effectivePort == defaultPort ? hostname : "\(hostname):\(effectivePort)"
        url = (secure ? "wss://" : "ws://") + authority + path + ServerAddress.encodedQuery(query)
        tokenKeyHost = "\(hostname):\(effectivePort)"
    }

    /// `host` is `"hostname:port"`, used verbatim in the URL (the JS `host` option).
    public init(host: String, secure: Bool = false, path: String = "/socketcluster/", query: [QueryItem] = []) {
        url = (secure ? "wss://" : "ws://") + host + path + ServerAddress.encodedQuery(query)
        tokenKeyHost = host
    }

    /// A full `ws://` or `wss://` URL, used verbatim. Throws `invalidArgument` for other schemes
    /// or a URL without a host.
    public init(url: String) throws(PubSubError) {
        let lower = url.lowercased()
        let secure: Bool
        if lower.hasPrefix("wss://") {
            secure = true
        } else if lower.hasPrefix("ws://") {
            secure = false
        } else {
            throw .invalidArgument("Unsupported URL \(url): the scheme must be ws:// or wss://")
        }
        let rest = url.dropFirst(secure ? 6 : 5)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty else { throw .invalidArgument("Invalid URL \(url): no host") }
        let hostPart = authority.split(separator: "@").last.map(String.init) ?? String(authority)
        let hasPort: Bool
        if hostPart.hasPrefix("[") {
            hasPort = hostPart.contains("]:")
        } else {
            hasPort = hostPart.contains(":")
        }
        self.url = url
        tokenKeyHost = hasPort ? hostPart : "\(hostPart):\(secure ? 443 : 80)"
    }

    /// The JS client's default token key (client ≥ 18.2): `socketcluster.authToken.<host:port>`.
    public var defaultTokenName: String { "socketcluster.authToken.\(tokenKeyHost)" }

    /// `application/x-www-form-urlencoded` as `URLSearchParams` writes it, with a leading `?`.
    static func encodedQuery(_ items: [QueryItem]) -> String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { formEncode($0.name) + "=" + formEncode($0.value) }.joined(separator: "&")
    }

    private static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
                UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
