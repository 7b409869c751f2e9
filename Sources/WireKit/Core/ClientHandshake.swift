import Digests
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The client's opening handshake (RFC 6455 §4.1): builds the upgrade request and checks the
/// server's 101 response against it.
package struct ClientHandshake: Sendable, Hashable {
    /// The `ws://` or `wss://` URL the request is for; its host, port and resource name fill the request.
    package let url: WebSocketURL
    /// Sent as the `Origin` header when set.
    package let origin: String?
    /// Subprotocols offered, in preference order.
    package let subprotocols: [String]
    /// Extra header fields (Authorization, Cookie, ...). `Host` overrides the URL's; the
    /// WebSocket fields (Upgrade, Connection, Sec-WebSocket-*) are WireKit's and are refused.
    package let headers: HTTPHeaders
    /// `Sec-WebSocket-Key`: base64 of 16 random bytes.
    package let key: String

    /// Checks names and values so the request cannot be malformed or smuggle extra lines.
    package init(
        url: WebSocketURL, origin: String? = nil, subprotocols: [String] = [], headers: HTTPHeaders = HTTPHeaders(), key: String = ClientHandshake.randomKey()
    ) throws(WebSocketError) {
        for field in headers {
            guard HTTPHeadParser.isToken(field.name) else { throw .invalidRequest("header name \"\(field.name)\" is not a valid HTTP token") }
            guard Self.isValidFieldValue(field.value) else { throw .invalidRequest("the value of header \"\(field.name)\" contains a control character") }
            let lowered = field.name.lowercased()
            if [
                "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-accept", "sec-websocket-extensions",
                "sec-websocket-protocol", "content-length", "transfer-encoding",
            ].contains(lowered) {
                throw .invalidRequest("header \"\(field.name)\" is set by WireKit itself")
            }
        }
        for name in subprotocols where !HTTPHeadParser.isToken(name) {
            throw .invalidRequest("subprotocol \"\(name)\" is not a valid HTTP token")
        }
        if let origin, !Self.isValidFieldValue(origin) {
            throw .invalidRequest("the origin contains a control character")
        }
        self.url = url
        self.origin = origin
        self.subprotocols = subprotocols
        self.headers = headers
        self.key = key
    }

    private static func isValidFieldValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }
    }

    /// A fresh `Sec-WebSocket-Key`: 16 bytes from the system's secure generator, base64-encoded.
    package static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        var words: (UInt64, UInt64) = (generator.next(), generator.next())
        return withUnsafeBytes(of: &words) { Data($0) }.base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` value a server must answer for `key` (RFC 6455 §4.2.2):
    /// base64(SHA-1(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")).
    package static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` value this handshake expects.
    package var expectedAccept: String { Self.acceptValue(forKey: key) }

    /// The request bytes to send.
    package func requestBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        func add(_ parts: String...) {
            for part in parts { bytes.append(contentsOf: part.utf8) }
        }
        add("GET ", url.resourceName, " HTTP/1.1\r\n")
        add("Host: ", headers.first(name: "Host") ?? url.hostHeaderValue, "\r\n")
        add("Upgrade: websocket\r\nConnection: Upgrade\r\n")
        add("Sec-WebSocket-Key: ", key, "\r\nSec-WebSocket-Version: 13\r\n")
        if let origin { add("Origin: ", origin, "\r\n") }
        if !subprotocols.isEmpty { add("Sec-WebSocket-Protocol: ", subprotocols.joined(separator: ", "), "\r\n") }
        for field in headers where !field.name.wireKitEqualsIgnoringASCIICase("Host") {
            add(field.name, ": ", field.value, "\r\n")
        }
        add("\r\n")
        return bytes
    }

    /// Checks a 101 response (RFC 6455 §4.1, client steps 1–6) and returns what it settled.
    package func validate(_ response: HTTPResponseHead) throws(WebSocketError) -> WebSocketHandshakeInfo {
        guard response.status == 101 else {
            throw .invalidHandshakeResponse("status \(response.status) instead of 101")
        }
        let headers = response.headers
        guard headers.hasListElement(name: "Upgrade", equalToIgnoringASCIICase: "websocket") else {
            throw .invalidHandshakeResponse("the Upgrade header is \(headers.first(name: "Upgrade").map { "\"\($0)\"" } ?? "missing"), expected \"websocket\"")
        }
        guard headers.hasListElement(name: "Connection", equalToIgnoringASCIICase: "upgrade") else {
            throw .invalidHandshakeResponse(
                "the Connection header is \(headers.first(name: "Connection").map { "\"\($0)\"" } ?? "missing"), expected \"Upgrade\"")
        }
        let accepts = headers["Sec-WebSocket-Accept"]
        guard accepts.count == 1, let accept = accepts.first else {
            throw .invalidHandshakeResponse(accepts.isEmpty ? "Sec-WebSocket-Accept is missing" : "Sec-WebSocket-Accept appears more than once")
        }
        guard accept == expectedAccept else {
            throw .invalidHandshakeResponse("Sec-WebSocket-Accept \"\(accept)\" does not match the key (expected \"\(expectedAccept)\")")
        }
        let extensions = headers.listElements(name: "Sec-WebSocket-Extensions")
        guard extensions.isEmpty else {
            throw .invalidHandshakeResponse("the server selected the extension \"\(extensions[0])\", which was not offered")
        }
        let protocols = headers.listElements(name: "Sec-WebSocket-Protocol")
        guard protocols.count <= 1 else {
            throw .invalidHandshakeResponse("the server selected several subprotocols: \(protocols.joined(separator: ", "))")
        }
        if let chosen = protocols.first, !subprotocols.contains(chosen) {
            throw .invalidHandshakeResponse("the server selected the subprotocol \"\(chosen)\", which was not offered")
        }
        return WebSocketHandshakeInfo(subprotocol: protocols.first, headers: headers, resourceName: url.resourceName)
    }
}
