import Foundation
import XCTest
@testable import PubSubBroker

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// Plain HTTP on the broker's port: the health check, 404 and 405, the application's
/// `httpRequestHandler`, and upgrades as before.
final class BrokerHTTPTests: XCTestCase {
    func testHealthCheckNotFoundAndMethodNotAllowed() async throws {
        let broker = try await PubSubBroker.start(port: 0)
        let health = try httpExchange(port: broker.port, "GET /health-check HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(health.status, 200, health.text)
        XCTAssertEqual(health.body, "OK")
        let healthWithQuery = try httpExchange(port: broker.port, "GET /health-check?probe=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(healthWithQuery.status, 200)
        let head = try httpExchange(port: broker.port, "HEAD /health-check HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, "", "HEAD has no body")
        XCTAssertTrue(head.text.contains("Content-Length: 2\r\n"), head.text)
        let missing = try httpExchange(port: broker.port, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(missing.status, 404)
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "BREW"] {
            let refused = try httpExchange(port: broker.port, "\(method) /health-check HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            XCTAssertEqual(refused.status, 405, method)
            XCTAssertTrue(refused.text.contains("\r\nAllow: GET, HEAD\r\n"), refused.text)
        }
        // Upgrades on another path are refused as socketcluster-server refuses them; a plain GET
        // on the WebSocket path is an invalid upgrade, as before.
        let wrongPath = try httpExchange(
            port: broker.port,
            "GET /elsewhere HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        XCTAssertEqual(wrongPath.status, 400)
        XCTAssertEqual(try httpExchange(port: broker.port, "GET /socketcluster/ HTTP/1.1\r\nHost: x\r\n\r\n").status, 400)
        // And the broker still serves WebSockets.
        let client = try RawWebSocketClient(port: broker.port)
        try client.send(##"{"event":"#handshake","data":{},"cid":1}"##)
        XCTAssertTrue(try client.receiveText().contains(#""rid":1"#))
        client.closeHandshake()
        await broker.stop()
    }

    func testTheApplicationsHandlerAnswersFirstAndNilLeavesTheRequestToTheBroker() async throws {
        var options = BrokerOptions()
        let page = Array("<!doctype html><title>hi</title>".utf8)
        options.httpRequestHandler = { request in
            switch (request.method, request.target) {
            case ("GET", "/"), ("HEAD", "/"): PlainHTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: page)
            case ("POST", "/hook"): PlainHTTPResponse(status: 204)
            case (_, "/health-check"): PlainHTTPResponse(status: 503, text: "draining")
            default: nil
            }
        }
        let broker = try await PubSubBroker.start(port: 0, options: options)
        let root = try httpExchange(port: broker.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(root.status, 200)
        XCTAssertEqual(root.body, "<!doctype html><title>hi</title>")
        XCTAssertTrue(root.text.contains("Content-Type: text/html; charset=utf-8\r\n"))
        XCTAssertEqual(try httpExchange(port: broker.port, "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}").status, 204)
        XCTAssertEqual(try httpExchange(port: broker.port, "GET /health-check HTTP/1.1\r\nHost: x\r\n\r\n").status, 503)
        XCTAssertEqual(try httpExchange(port: broker.port, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
        XCTAssertEqual(try httpExchange(port: broker.port, "POST /other HTTP/1.1\r\nHost: x\r\n\r\n").status, 405)
        await broker.stop()
    }

    func testAHostileRequestGetsA400OrNothingAndTheBrokerGoesOn() async throws {
        var options = BrokerOptions()
        options.httpRequestHandler = { _ in PlainHTTPResponse(status: 200, text: "never for a bad head") }
        let broker = try await PubSubBroker.start(port: 0, options: options)
        let oversized = try httpExchange(
            port: broker.port, "GET / HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: 40_000))\r\n\r\n")
        XCTAssertEqual(oversized.status, 400)
        let control = try httpExchange(port: broker.port, "GET /\u{1B}[2J HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(control.status, 400)
        let noVersion = try httpExchange(port: broker.port, "GET /\r\n\r\n")
        XCTAssertEqual(noVersion.status, 400)
        XCTAssertEqual(try httpExchange(port: broker.port, "GET /health-check HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        await broker.stop()
    }

    func testDecisionsWithoutTheNetwork() {
        func decision(_ method: String, _ target: String, upgrade: Bool = false) -> WebSocketUpgradeDecision {
            let headers: HTTPHeaders = upgrade ? ["Upgrade": "websocket", "Connection": "Upgrade"] : [:]
            return decide(HTTPRequestHead(method: method, target: target, headers: headers), path: "/socketcluster/", httpRequestHandler: nil)
        }
        XCTAssertTrue(decision("GET", "/socketcluster/?x=1", upgrade: true).isAccepted)
        XCTAssertEqual(decision("GET", "/other", upgrade: true), .refuse(status: 400))
        XCTAssertEqual(decision("GET", "/health-check").response?.status, 200)
        XCTAssertEqual(decision("HEAD", "/health-check").response?.status, 200)
        XCTAssertEqual(decision("GET", "/health-check/").response?.status, 404)
        XCTAssertEqual(decision("GET", "/").response?.status, 404)
        XCTAssertEqual(decision("get", "/health-check").response?.status, 405, "methods are case-sensitive")
        XCTAssertEqual(decision("POST", "/health-check").response?.headers.first(name: "Allow"), "GET, HEAD")
    }

    /// One HTTP exchange over a fresh loopback connection: everything until the broker closes.
    private func httpExchange(port: Int, _ request: String) throws -> (status: Int, text: String, body: String) {
        let received = try TestSocket.exchange(port: port, Array(request.utf8))
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, text, body)
    }
}
