#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The server's side of the opening handshake (RFC 6455 §4.2): validates an upgrade request
/// and writes the 101 answer, or the 400/426 refusal.
package struct ServerHandshake: Sendable, Hashable {
    /// The validated request.
    package let request: HTTPRequestHead
    /// The client's `Sec-WebSocket-Key`.
    package let key: String
    /// The selected subprotocol: the first of the server's that the client offered.
    package let subprotocol: String?

    /// Validates `request`. Throws `.invalidUpgradeRequest` with status 426 for a missing or
    /// unsupported `Sec-WebSocket-Version` and 400 for anything else wrong.
    package init(validating request: HTTPRequestHead, supportedSubprotocols: [String] = []) throws(WebSocketError) {
        let headers = request.headers
        guard request.method == "GET" else {
            throw .invalidUpgradeRequest(status: 400, reason: "the method is \(request.method), expected GET")
        }
        guard request.version == "HTTP/1.1" else {
            throw .invalidUpgradeRequest(status: 400, reason: "the HTTP version is \(request.version), expected HTTP/1.1")
        }
        guard headers["Host"].count == 1 else {
            throw .invalidUpgradeRequest(status: 400, reason: "the request must have exactly one Host header")
        }
        guard headers.listElements(name: "Upgrade").contains(where: { $0.wireKitEqualsIgnoringASCIICase("websocket") }) else {
            throw .invalidUpgradeRequest(status: 400, reason: "the Upgrade header does not name websocket")
        }
        guard headers.listElements(name: "Connection").contains(where: { $0.wireKitEqualsIgnoringASCIICase("upgrade") }) else {
            throw .invalidUpgradeRequest(status: 400, reason: "the Connection header does not contain Upgrade")
        }
        let versions = headers.listElements(name: "Sec-WebSocket-Version")
        guard versions == ["13"] else {
            throw .invalidUpgradeRequest(
                status: 426,
                reason: versions.isEmpty
                    ? "Sec-WebSocket-Version is missing" : "Sec-WebSocket-Version \(versions.joined(separator: ", ")) is not supported; only 13 is")
        }
        let keys = headers["Sec-WebSocket-Key"]
        guard keys.count == 1, let key = keys.first, key.utf8.count == 24,
            let decoded = Data(base64Encoded: key), decoded.count == 16
        else {
            throw .invalidUpgradeRequest(status: 400, reason: "Sec-WebSocket-Key must be the base64 encoding of 16 bytes")
        }
        let offered = headers.listElements(name: "Sec-WebSocket-Protocol")
        self.request = request
        self.key = key
        self.subprotocol = supportedSubprotocols.first { offered.contains($0) }
    }

    /// The `Sec-WebSocket-Accept` value for this request.
    package var acceptValue: String { ClientHandshake.acceptValue(forKey: key) }

    /// What the connection settled, as the state machine reports it.
    package var info: WebSocketHandshakeInfo {
        WebSocketHandshakeInfo(subprotocol: subprotocol, headers: request.headers, resourceName: request.target)
    }

    /// The `101 Switching Protocols` response, with `extraHeaders` appended. Extra fields whose
    /// value would break the head (CR, LF, other control characters) are left out.
    package func responseBytes(extraHeaders: HTTPHeaders = HTTPHeaders()) -> [UInt8] {
        var text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Accept: \(acceptValue)\r\n"
        if let subprotocol { text += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        for field in extraHeaders where HTTPHeadParser.isToken(field.name) && !field.value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A refusal with a short plain-text body; 426 carries `Sec-WebSocket-Version: 13`.
    package static func rejectionBytes(status: Int, reason: String) -> [UInt8] {
        let phrase: String
        switch status {
        case 400: phrase = "Bad Request"
        case 403: phrase = "Forbidden"
        case 404: phrase = "Not Found"
        case 426: phrase = "Upgrade Required"
        case 431: phrase = "Request Header Fields Too Large"
        default: phrase = "Error"
        }
        let body = Array((reason + "\n").utf8)
        var text = "HTTP/1.1 \(status) \(phrase)\r\n"
        if status == 426 { text += "Sec-WebSocket-Version: 13\r\nUpgrade: websocket\r\n" }
        text += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8) + body
    }
}
