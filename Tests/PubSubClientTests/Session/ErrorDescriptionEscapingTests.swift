import PubSubClient
import TestSupport
import XCTest

/// No error description built from a peer's text carries a raw control, bidi or invisible
/// character: a close reason, an HTTP body or `Location`, a proxy's reason phrase, a remote
/// error's name and message reach a terminal or a log only escaped.
final class ErrorDescriptionEscapingTests: XCTestCase {
    func testNoErrorDescriptionBuiltFromPeerTextCarriesARawControlCharacter() {
        var generator = HostilePeerText.Generator(seed: 0x0E5C_A9E5)
        var texts = HostilePeerText.samples
        for _ in 0..<150 { texts.append(HostilePeerText.random(using: &generator)) }
        texts.append(HostilePeerText.random(using: &generator, maxLength: 2_000))
        for text in texts {
            for (what, description) in Self.descriptions(embedding: text, bytes: Array(text.utf8)) {
                let raw = HostilePeerText.rawScalars(in: description)
                XCTAssertEqual(raw, [], "\(what) from \(text.debugDescription): \(description.debugDescription)")
            }
        }
    }

    func testRawBytesOfAnHTTPBodyAreEscapedToo() {
        // Invalid UTF-8 around a C1 CSI (0xC2 0x9B) and a bare ESC.
        let body: [UInt8] = [0x68, 0x69, 0xC2, 0x9B, 0x32, 0x4A, 0xFF, 0x1B, 0x0D, 0x0A, 0x80]
        let description = WebSocketError.handshakeRejected(status: 403, headers: HTTPHeaders(), body: body).description
        XCTAssertEqual(HostilePeerText.rawScalars(in: description), [], description.debugDescription)
        XCTAssertTrue(description.hasSuffix(#": hi\u{9B}2J�\u{1B}\r\n�"#), description)
    }

    func testTheSessionsTextEscapesACloseReasonOnceAndKeepsTheDataVerbatim() {
        let reason = "bye\u{1B}[2J\r\nforged"
        let error = PubSubError.connectionFailed(code: 4008, reason: reason)
        XCTAssertEqual(error.message, #"The connection closed with code 4008 before its handshake completed: bye\u{1B}[2J\r\nforged"#)
        XCTAssertEqual(error.closeReason, reason)
        let remote = RemoteError(name: "Bad\u{202E}Error", message: "no\nway")
        XCTAssertEqual(PubSubError.remote(remote).description, #"Bad\u{202E}Error: no\nway"#)
        XCTAssertEqual(remote.message, "no\nway")
    }

    /// Every error type's description, built with `text` (or `bytes`) wherever a peer's text can go.
    private static func descriptions(embedding text: String, bytes: [UInt8]) -> [(String, String)] {
        let tls: [TLSError] = [
            .unavailable(reason: text), .certificateUntrusted(reason: text), .certificateRejected(code: 1, reason: text),
            .hostnameMismatch(expected: text), .pinMismatch(presented: [text, text]), .handshakeFailed(reason: text),
            .connectionFailed(reason: text), .invalidConfiguration(reason: text),
        ]
        let proxy: [HTTPProxyError] = [
            .refused(status: 403, reason: text), .authenticationRequired(realm: text, credentialsSent: true),
            .authenticationRequired(realm: text, credentialsSent: false),
            .unreachable(host: text, port: 8080, failure: .hostNotFound(host: text, detail: text)), .tunnelClosed(text), .invalidResponse(text),
        ]
        var transport: [TransportError] = [.hostNotFound(host: text, detail: text), .unsupported(text)]
        transport += tls.map(TransportError.tls) + proxy.map(TransportError.proxy)
        var headers = HTTPHeaders()
        headers.add(name: "Location", value: text)
        var webSocket: [WebSocketError] = [
            .invalidURL(text), .invalidRequest(text), .handshakeRejected(status: 400, headers: headers, body: bytes),
            .redirected(status: 302, location: text, headers: headers), .invalidHandshakeResponse(text),
            .invalidUpgradeRequest(status: 400, reason: text), .protocolViolation(.invalidCompressedData(reason: text)),
            .invalidUTF8(text), .connectionClosed(text),
        ]
        webSocket += transport.map(WebSocketError.transport) + tls.map(WebSocketError.tls)
        let remote = [
            RemoteError(name: text, message: text), RemoteError(hydrating: .string(text)),
            RemoteError(hydrating: .object(["name": .string(text), "message": .string(text), text: .string(text)])),
        ]
        let failure = TransportFailure(.upgradeRejected, message: webSocket[2].description, underlying: webSocket[2])
        var pubSub: [PubSubError] = [
            .timeout(event: text), .badConnection(event: text, kind: .connectAbort, code: 4000, reason: text),
            .outboundQueueFull(event: text, maxMessages: 1, maxBytes: 1), .queuedTransmitExpired(event: text),
            .batchCancelled(event: text), .socketProtocol(code: 4008, reason: text), .socketProtocol(code: 1006, reason: text),
            .invalidResponse(event: text, detail: text), .malformedPacket(detail: text), .coding(text), .tokenStore(text),
            .invalidArgument(text), .cancelled(event: text), .connectionFailed(code: 4008, reason: text), .transport(failure),
            .channelClosed(channel: text),
        ]
        pubSub += remote.map(PubSubError.remote) + remote.map { PubSubError.handshakeRejected($0, code: 4008) }
        var all: [(String, String)] = []
        all += webSocket.map { ("WebSocketError \($0.closeCode)", $0.description) }
        all += webSocket.map { ("WebSocketError.localizedDescription", $0.localizedDescription) }
        all += transport.map { ("TransportError", $0.description) }
        all += pubSub.map { ("PubSubError \($0.name)", $0.description) }
        all += pubSub.map { ("PubSubError.message", $0.message) }
        all += remote.map { ("RemoteError", $0.description) } + remote.map { ("RemoteError.localized", $0.localizedDescription) }
        all.append(("TransportFailure", failure.description))
        all.append(("JWTVerificationError", JWTVerificationError.invalid(message: text).description))
        all.append(("MalformedResponseError", MalformedResponseError(message: text).description))
        all.append(("JSONCodingError", Self.decodingError(key: text)))
        return all
    }

    /// The description of a decoding failure whose coding path holds the peer's `key`.
    private static func decodingError(key: String) -> String {
        struct Shape: Decodable { var value: [String: Int] }
        do {
            _ = try JSONValue.object(["value": .object([key: .string("not a number")])]).decode(Shape.self)
            return ""
        } catch { return error.description }
    }
}
