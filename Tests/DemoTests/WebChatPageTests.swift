import Foundation
import PubSubBroker
import XCTest
@testable import demo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// The web chat `demo broker` serves on its port, and the plain HTTP answers next to it. What
/// the page does in a browser is tested with Chromium by Scripts/browser/run.py.
final class WebChatPageTests: XCTestCase {
    func testTheBrokerPrintsThePageURLAndServesThePageHealthCheck404And405() throws {
        let broker = try DemoProcess(["broker", "--port", "0"])
        XCTAssertTrue(broker.waitForOutput("(open it in a browser"))
        let lines = broker.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("broker listening on ws://127.0.0.1:") ?? false, broker.stdout)
        let pageLine = lines.first { $0.hasPrefix("web chat on ") } ?? ""
        let pageURL = String(pageLine.dropFirst("web chat on ".count).prefix { $0 != " " })
        let port = try XCTUnwrap(URL(string: pageURL)?.port, broker.stdout)
        XCTAssertEqual(pageURL, "http://127.0.0.1:\(port)/")

        let page = try exchange(port: port, "GET /?name=ann&room=lobby HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200 OK\r\n"), String(page.prefix(300)))
        XCTAssertTrue(page.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"))
        XCTAssertTrue(page.contains("\r\nContent-Security-Policy: default-src 'none';"))
        XCTAssertTrue(page.hasSuffix(WebChatPage.html), "the page, whole")
        let head = try exchange(port: port, "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertTrue(head.hasSuffix("Content-Length: \(WebChatPage.html.utf8.count)\r\nConnection: close\r\n\r\n"), head)
        XCTAssertTrue(try exchange(port: port, "GET /health-check HTTP/1.1\r\nHost: x\r\n\r\n").hasPrefix("HTTP/1.1 200 OK\r\n"))
        XCTAssertTrue(try exchange(port: port, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n").hasPrefix("HTTP/1.1 404 "))
        XCTAssertTrue(try exchange(port: port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc").hasPrefix("HTTP/1.1 405 "))
        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
    }

    func testWithTheMinBinCodecThePageIsNeitherServedNorAnnounced() throws {
        let broker = try DemoProcess(["broker", "--port", "0", "--codec", "min-bin"])
        XCTAssertTrue(broker.waitForOutput("(Ctrl-C stops it)"))
        XCTAssertFalse(broker.stdout.contains("web chat on"), broker.stdout)
        let line = broker.stdout.split(separator: "\n").first { $0.hasPrefix("broker listening on ") } ?? ""
        let port = try XCTUnwrap(URL(string: String(line.dropFirst("broker listening on ".count).prefix { $0 != " " }))?.port)
        XCTAssertTrue(try exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").hasPrefix("HTTP/1.1 404 "))
        XCTAssertTrue(try exchange(port: port, "GET /health-check HTTP/1.1\r\nHost: x\r\n\r\n").hasPrefix("HTTP/1.1 200 "))
        broker.interrupt()
        XCTAssertEqual(broker.waitForExit(), 0)
    }

    func testThePageURLIsTheBrokersOverHTTPAndLoopbackForEveryAddress() throws {
        func page(_ url: String) throws -> String { BrokerCommand.pageURL(forBrokerURL: try XCTUnwrap(URL(string: url))) }
        XCTAssertEqual(try page("ws://127.0.0.1:8000/socketcluster/"), "http://127.0.0.1:8000/")
        XCTAssertEqual(try page("wss://example.com:8443/socketcluster/"), "https://example.com:8443/")
        XCTAssertEqual(try page("ws://0.0.0.0:8000/socketcluster/"), "http://127.0.0.1:8000/")
        XCTAssertEqual(try page("ws://[::]:8000/socketcluster/"), "http://[::1]:8000/")
        XCTAssertEqual(try page("ws://[::1]:8000/socketcluster/"), "http://[::1]:8000/")
    }

    func testThePageIsRequestedOnlyByGetOrHeadOfTheRoot() {
        func asks(_ method: String, _ target: String) -> Bool {
            WebChatPage.isRequested(by: HTTPRequestHead(method: method, target: target, headers: [:]))
        }
        XCTAssertTrue(asks("GET", "/"))
        XCTAssertTrue(asks("HEAD", "/?name=a&room=b"))
        XCTAssertFalse(asks("POST", "/"))
        XCTAssertFalse(asks("GET", "/index.html"))
        XCTAssertFalse(asks("GET", "//evil"))
    }

    /// Peer text reaches the page's DOM as text only: the page never parses strings as HTML or code.
    func testThePageNeverTurnsStringsIntoHTMLOrCode() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "<script src"] {
            XCTAssertFalse(WebChatPage.html.contains(sink), sink)
        }
        XCTAssertTrue(WebChatPage.html.contains(".textContent = "))
    }

    func testDeflateIsAFlagOfTheBrokerCommand() throws {
        XCTAssertEqual(try Command(arguments: ["broker", "--deflate"]), .broker(host: "127.0.0.1", port: 8000, deflate: true))
        XCTAssertEqual(try Command(arguments: ["broker"]), .broker(host: "127.0.0.1", port: 8000, deflate: false))
        XCTAssertThrowsError(try Command(arguments: ["broker", "--deflate=yes"]))
        XCTAssertThrowsError(try Command(arguments: ["chat", "--url", "ws://x", "--name", "a", "--deflate"]))
    }

    /// One HTTP exchange with the broker over loopback: everything until it closes.
    private func exchange(port: Int, _ request: String) throws -> String {
        String(decoding: try TestSocket.exchange(port: port, Array(request.utf8)), as: UTF8.self)
    }
}
