import XCTest
@testable import WireKit

final class HandshakeTests: XCTestCase {
    private func response(
        _ handshake: ClientHandshake, extra: String = "", accept: String? = nil,
        upgrade: String = "websocket", connection: String = "Upgrade"
    ) -> HTTPResponseHead {
        var parser = HTTPHeadParser()
        let text =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: \(upgrade)\r\nConnection: \(connection)\r\nSec-WebSocket-Accept: \(accept ?? handshake.expectedAccept)\r\n\(extra)\r\n"
        let used = try? Array(text.utf8).withUnsafeBytes { try parser.append($0) }
        XCTAssertEqual(used, text.utf8.count)
        do { return try parser.responseHead() } catch { XCTFail("\(error)"); return HTTPResponseHead(status: 0, reason: "", headers: [:]) }
    }

    func testRFC6455Section1_3AcceptKeyExample() {
        XCTAssertEqual(ClientHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testRandomKeyIsBase64Of16Bytes() {
        let key = ClientHandshake.randomKey()
        XCTAssertEqual(Data(base64Encoded: key)?.count, 16)
        XCTAssertNotEqual(key, ClientHandshake.randomKey())
    }

    func testRequestCarriesVersionOriginSubprotocolsAndCustomHeaders() throws {
        let handshake = try ClientHandshake(
            url: try WebSocketURL("ws://[::1]:9000/p?q=1"), origin: "https://app.example",
            subprotocols: ["v2.chat", "v1.chat"], headers: ["Authorization": "Bearer t", "Cookie": "a=b"])
        let request = String(decoding: handshake.requestBytes(), as: UTF8.self)
        XCTAssertTrue(request.hasPrefix("GET /p?q=1 HTTP/1.1\r\nHost: [::1]:9000\r\n"), request)
        for line in [
            "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: \(handshake.key)",
            "Origin: https://app.example", "Sec-WebSocket-Protocol: v2.chat, v1.chat", "Authorization: Bearer t", "Cookie: a=b",
        ] {
            XCTAssertTrue(request.contains("\r\n\(line)\r\n"), "missing \(line)")
        }
        XCTAssertTrue(request.hasSuffix("\r\n\r\n"))
    }

    func testHostHeaderOmitsDefaultPort() throws {
        XCTAssertEqual(try WebSocketURL("ws://example.com/").hostHeaderValue, "example.com")
        XCTAssertEqual(try WebSocketURL("ws://example.com:80/").hostHeaderValue, "example.com")
        XCTAssertEqual(try WebSocketURL("wss://example.com:443").hostHeaderValue, "example.com")
        XCTAssertEqual(try WebSocketURL("wss://example.com:8443").hostHeaderValue, "example.com:8443")
        XCTAssertEqual(try WebSocketURL("ws://[fe80::1]/").hostHeaderValue, "[fe80::1]")
    }

    func testURLParsing() throws {
        let url = try WebSocketURL("ws://Example.com:8080/a/b?x=1&y=2")
        XCTAssertEqual(url.host, "Example.com")
        XCTAssertEqual(url.port, 8080)
        XCTAssertEqual(url.resourceName, "/a/b?x=1&y=2")
        XCTAssertFalse(url.isSecure)
        XCTAssertEqual(try WebSocketURL("wss://h").resourceName, "/")
        XCTAssertEqual(try WebSocketURL("ws://h?x").resourceName, "/?x")
        XCTAssertEqual(try WebSocketURL("ws://[::1]:1/").host, "::1")
        XCTAssertEqual(try WebSocketURL("ws://h/caf\u{E9}?q=\u{20AC}").resourceName, "/caf%C3%A9?q=%E2%82%AC")
        for bad in ["http://h/", "h/", "ws://", "ws://h:0/", "ws://h:70000/", "ws://h:x/", "ws://h/#f", "ws://u:p@h/", "ws://::1/", "ws://[::1/", "ws://h /"] {
            XCTAssertThrowsError(try WebSocketURL(bad), bad) { error in
                guard case WebSocketError.Code.invalidURL = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// Fuzz finding (url): "?" followed by a combining mark is one Character, so the query was
    /// not seen as one and the resource name lacked its leading "/".
    func testQueryStartingWithACombiningMarkKeepsTheLeadingSlash() throws {
        let url = try WebSocketURL("ws://[::1]:8?\u{05B0}")
        XCTAssertEqual(url.resourceName, "/?%D6%B0")
        XCTAssertEqual(try WebSocketURL(url.description), url)
    }

    func testInvalidHeaderValuesAreRefused() throws {
        let url = try WebSocketURL("ws://h/")
        XCTAssertThrowsError(try ClientHandshake(url: url, headers: ["X": "a\r\nInjected: 1"]))
        XCTAssertThrowsError(try ClientHandshake(url: url, headers: ["Bad Name": "a"]))
        XCTAssertThrowsError(try ClientHandshake(url: url, headers: ["Sec-WebSocket-Key": "a"]))
        XCTAssertThrowsError(try ClientHandshake(url: url, subprotocols: ["a b"]))
    }

    func testValidResponseIsAcceptedWithCaseInsensitiveTokensAndLists() throws {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"), subprotocols: ["chat"])
        let info = try handshake.validate(
            response(handshake, extra: "Sec-WebSocket-Protocol: chat\r\n", upgrade: "WebSocket", connection: "keep-alive, UPGRADE"))
        XCTAssertEqual(info.subprotocol, "chat")
        XCTAssertNil(try handshake.validate(response(handshake)).subprotocol)
    }

    func testResponseErrors() throws {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"), subprotocols: ["chat"])
        let cases: [(HTTPResponseHead, String)] = [
            (response(handshake, accept: "AAAAAAAAAAAAAAAAAAAAAAAAAAA="), "wrong accept"),
            (response(handshake, upgrade: "h2c"), "wrong upgrade"),
            (response(handshake, connection: "close"), "wrong connection"),
            (response(handshake, extra: "Sec-WebSocket-Extensions: permessage-deflate\r\n"), "extension not offered"),
            (response(handshake, extra: "Sec-WebSocket-Protocol: other\r\n"), "subprotocol not offered"),
            (response(handshake, extra: "Sec-WebSocket-Accept: \(handshake.expectedAccept)\r\n"), "duplicate accept"),
        ]
        for (head, label) in cases {
            XCTAssertThrowsError(try handshake.validate(head), label) { error in
                guard case WebSocketError.Code.invalidHandshakeResponse = error else { return XCTFail("\(label): \(error)") }
            }
        }
    }

    private func request(_ lines: [String], method: String = "GET", version: String = "HTTP/1.1") -> HTTPRequestHead {
        var headers = HTTPHeaders()
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers.add(name: String(parts[0]), value: parts[1].trimmingWireKitWhitespace())
        }
        return HTTPRequestHead(method: method, target: "/chat", version: version, headers: headers)
    }

    private let validLines = [
        "Host: h", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]

    func testServerAcceptsValidRequestAndAnswers101WithAccept() throws {
        let handshake = try ServerHandshake(validating: request(validLines + ["Sec-WebSocket-Protocol: a, chat"]), supportedSubprotocols: ["chat", "a"])
        XCTAssertEqual(handshake.subprotocol, "chat")
        let text = String(decoding: handshake.responseBytes(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        XCTAssertTrue(text.contains("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        XCTAssertTrue(text.contains("\r\nSec-WebSocket-Protocol: chat\r\n"))
    }

    func testServerRejectsBadRequestsWith400Or426() {
        func status(_ head: HTTPRequestHead) -> Int? {
            do { _ = try ServerHandshake(validating: head); return nil } catch {
                guard error.code == .invalidUpgradeRequest, let status = error.httpStatus else { return -1 }
                return status
            }
        }
        XCTAssertEqual(status(request(validLines, method: "POST")), 400)
        XCTAssertEqual(status(request(validLines, version: "HTTP/1.0")), 400)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Upgrade") })), 400)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Connection") })), 400)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Host") })), 400)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Sec-WebSocket-Key") } + ["Sec-WebSocket-Key: c2hvcnQ="])), 400)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Sec-WebSocket-Key") })), 400)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Sec-WebSocket-Version") } + ["Sec-WebSocket-Version: 8"])), 426)
        XCTAssertEqual(status(request(validLines.filter { !$0.hasPrefix("Sec-WebSocket-Version") })), 426)
        XCTAssertNil(status(request(validLines)))
        let refusal = String(decoding: ServerHandshake.rejectionBytes(status: 426, reason: "x"), as: UTF8.self)
        XCTAssertTrue(refusal.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
        XCTAssertTrue(refusal.contains("\r\nSec-WebSocket-Version: 13\r\n"))
    }

    func testHeadParserIsBoundedAndSplitsLeftover() throws {
        var parser = HTTPHeadParser(maxSize: 64)
        XCTAssertThrowsError(try Array(repeating: UInt8(ascii: "a"), count: 100).withUnsafeBytes { try parser.append($0) })
        var splitParser = HTTPHeadParser()
        let text = Array("HTTP/1.1 200 OK\r\nA: 1\r\n\r\nBODY".utf8)
        var used: Int?
        for i in text.indices where used == nil {
            used = try [text[i]].withUnsafeBytes { try splitParser.append($0) }
            if used != nil { XCTAssertEqual(i, text.count - 5) }
        }
        XCTAssertEqual(try splitParser.responseHead().headers.first(name: "a"), "1")
    }

    /// Fuzz finding (http-head): a bare CR stayed inside a header value ("Upgrade\r...").
    /// RFC 9112 §2.2: a bare CR is invalid; the head is refused.
    func testBareCRInTheHeadIsRefused() throws {
        func parser(_ text: String) throws -> HTTPHeadParser {
            var parser = HTTPHeadParser()
            let used = try Array(text.utf8).withUnsafeBytes { try parser.append($0) }
            XCTAssertEqual(used, text.utf8.count)
            return parser
        }
        let request = try parser("GET / HTTP/1.1\r\nConnection: Upgrade\rSec-WebSocket-Key: x\r\n\r\n")
        XCTAssertThrowsError(try request.requestHead()) { XCTAssertTrue("\($0)".contains("bare CR"), "\($0)") }
        let response = try parser("HTTP/1.1 101 Switching\rProtocols\r\nUpgrade: websocket\r\n\r\n")
        XCTAssertThrowsError(try response.responseHead()) { XCTAssertTrue("\($0)".contains("bare CR"), "\($0)") }
    }
}
