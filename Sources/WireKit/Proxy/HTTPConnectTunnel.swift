#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The HTTP CONNECT exchange that opens a tunnel through a proxy, sans I/O: `request` is what
/// to send once connected to the proxy; the proxy's bytes go to `receive` until it returns a
/// verdict. A 2xx answer opens the tunnel; bytes after its head already belong to the origin.
package struct HTTPConnectTunnel: Sendable {
    /// What the exchange settled.
    package enum Verdict: Sendable, Hashable {
        /// Keep feeding bytes: the answer's head is incomplete.
        case needMoreBytes
        /// The tunnel is open; the first `consumed` bytes of the last input were the proxy's
        /// answer, the rest are the origin's.
        case established(consumed: Int)
    }

    /// The `CONNECT host:port HTTP/1.1` request, with `Proxy-Authorization: Basic` when the
    /// proxy has credentials.
    package let request: [UInt8]
    private let sentCredentials: Bool
    private var parser = HTTPHeadParser(maxSize: 16 << 10)

    /// A tunnel to `host`:`port` (the WebSocket origin) through `proxy`.
    package init(host: String, port: Int, proxy: HTTPProxy) {
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        var text = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let username = proxy.username {
            let token = Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString()
            text += "Proxy-Authorization: Basic \(token)\r\n"
        }
        text += "\r\n"
        request = Array(text.utf8)
        sentCredentials = proxy.username != nil
    }

    /// Takes the proxy's bytes. Throws `.authenticationRequired` (407, or 401 as some proxies answer), `.refused` (any other
    /// non-2xx status) or `.invalidResponse`.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTPProxyError) -> Verdict {
        let consumed: Int?
        do {
            consumed = try parser.append(bytes)
        } catch {
            throw .invalidResponse(error.message)
        }
        guard let consumed else { return .needMoreBytes }
        let head: HTTPResponseHead
        do {
            head = try parser.responseHead()
        } catch {
            throw .invalidResponse(error.message)
        }
        switch head.status {
        case 200..<300:
            return .established(consumed: consumed)
        case 407, 401:
            // 401 to CONNECT can only come from the proxy (tinyproxy answers so, with WWW-Authenticate).
            let challenge = head.headers.first(name: "Proxy-Authenticate") ?? head.headers.first(name: "WWW-Authenticate")
            throw .authenticationRequired(realm: challenge.flatMap(Self.realm), credentialsSent: sentCredentials, status: head.status)
        default:
            throw .refused(status: head.status, reason: head.reason)
        }
    }

    /// What it means that the proxy closed the connection before a verdict.
    package var closedEarly: HTTPProxyError {
        .tunnelClosed(
            parser.bytes.isEmpty
                ? "the proxy closed the connection without answering CONNECT"
                : "the proxy closed the connection in the middle of its answer to CONNECT")
    }

    /// The realm of a `Basic realm="..."` challenge.
    static func realm(_ challenge: String) -> String? {
        guard let start = challenge.firstRange(of: "realm=") else { return nil }
        var value = challenge[start.upperBound...]
        if value.hasPrefix("\"") {
            value = value.dropFirst()
            return String(value.prefix { $0 != "\"" })
        }
        return String(value.prefix { $0 != "," && $0 != " " })
    }
}
