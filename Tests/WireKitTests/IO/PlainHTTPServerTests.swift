import Dispatch
import Foundation
import XCTest
@testable import WireKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// `WebSocketServer` answering plain HTTP requests on its port next to WebSocket upgrades, over
/// real sockets: the answers, and peers that send too much, too slowly or not HTTP at all.
final class PlainHTTPServerTests: XCTestCase {
    private func startServer(_ configure: (inout WebSocketServerOptions) -> Void = { _ in }) throws -> WebSocketServer {
        var options = WebSocketServerOptions()
        options.acceptRequest = { request in
            if request.isWebSocketUpgrade { return request.target == "/ws" ? .accept : .refuse(status: 400) }
            guard request.method == "GET" || request.method == "HEAD" else {
                return .respond(status: 405, headers: ["Allow": "GET, HEAD"], body: Array("GET or HEAD\n".utf8))
            }
            return request.target == "/health" ? .respond(PlainHTTPResponse(status: 200, text: "OK\n")) : .respond(status: 404)
        }
        configure(&options)
        return try WebSocketServer.start(options: options) { socket in
            socket.onText = { [weak socket] text in try? socket?.write(text: text) }
        }
    }

    func testHealthNotFoundAndMethodNotAllowedAreAnsweredAndTheConnectionCloses() async throws {
        let server = try startServer()
        let ok = try rawExchange(port: server.port, request: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(
            ok, "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 3\r\nConnection: close\r\n\r\nOK\n")
        let head = try rawExchange(port: server.port, request: "HEAD /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertTrue(head.hasSuffix("Content-Length: 3\r\nConnection: close\r\n\r\n"), head)
        let missing = try rawExchange(port: server.port, request: "GET /elsewhere HTTP/1.0\r\n\r\n")
        XCTAssertTrue(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n"), missing)
        let post = try rawExchange(port: server.port, request: "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        XCTAssertTrue(post.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\n"), post)
        XCTAssertTrue(post.hasSuffix("\r\n\r\nGET or HEAD\n"), post)
        // An upgrade on the right path still works next to them.
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/ws")
        try await client.connect()
        try await client.send(text: "still a WebSocket server")
        var messages = client.messages.makeAsyncIterator()
        let echo = await messages.next()
        XCTAssertEqual(echo, .text("still a WebSocket server"))
        await client.close()
        await server.stop()
    }

    func testTheAnswerReachesAClientWhoseBodyArrivesAfterIt() async throws {
        let server = try startServer()
        let fd = try connectBlocking(port: server.port)
        defer { close(fd) }
        func send(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { TestSocket.send(fd, $0.baseAddress, $0.count) }
        }
        send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n")
        // The answer comes at once, before the body; the body then arrives after it.
        let head = readUntilHeadEnds(fd)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 405 "), head)
        for _ in 0..<20 { send(String(repeating: "b", count: 1000)) }
        // The server closes after reading the body: an orderly end (0), not a reset.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        var last = 0
        repeat {
            last = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if last > 0 { total += last }
        } while last > 0
        XCTAssertEqual(last, 0, "errno \(errno)")
        XCTAssertEqual(total, "GET or HEAD\n".utf8.count, "the body of the answer, once")
        await server.stop()
    }

    func testAnOversizedHeadIsRefusedAndASlowOneTimesOut() async throws {
        let server = try startServer { $0.handshakeTimeout = .milliseconds(500) }
        let oversized = try rawExchange(
            port: server.port, request: "GET / HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        XCTAssertTrue(oversized.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), String(oversized.prefix(200)))
        let started = DispatchTime.now().uptimeNanoseconds
        let slow = try rawExchange(port: server.port, request: "GET /health HTTP/1.1\r\nHost: x\r\n")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        XCTAssertEqual(slow, "", "an unfinished head gets no answer")
        XCTAssertLessThan(seconds, 3, "closed by the handshake timeout")
        XCTAssertEqual(server.connectionCount, 0)
        await server.stop()
    }

    func testNonHTTPBytesAndAnEndlessBodyDoNotHoldTheServer() async throws {
        let server = try startServer { $0.closeTimeout = .milliseconds(500) }
        let tls = try rawExchangeBytes(port: server.port, request: "", extra: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01])
        XCTAssertTrue(String(decoding: tls, as: UTF8.self).hasPrefix("HTTP/1.1 400 "))
        // A body announced and never sent: the connection ends within the close timeout.
        let started = DispatchTime.now().uptimeNanoseconds
        let answer = try rawExchange(port: server.port, request: "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 405 "), answer)
        XCTAssertLessThan(seconds, 3)
        await server.stop()
    }

    private func readUntilHeadEnds(_ fd: Int32) -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.ends(with: Array("\r\n\r\n".utf8)), recv(fd, &byte, 1, 0) == 1 { received.append(byte) }
        return String(decoding: received, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
