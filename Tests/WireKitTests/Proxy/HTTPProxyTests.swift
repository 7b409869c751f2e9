#if canImport(Glibc)
import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// `WebSocketOptions.proxy` against a real tinyproxy: `ws://` and `wss://` through CONNECT,
/// with and without Basic authentication, and the typed failures.
final class HTTPProxyTests: XCTestCase {
    private func startEchoServer(tls identity: String? = nil) throws -> WebSocketServer {
        var options = WebSocketServerOptions()
        options.tls = identity.map(TLSTestCertificates.server)
        return try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { connection in
            connection.onText = { [weak connection] text in try? connection?.write(text: text) }
        }
    }

    private func options(proxy: String) throws -> WebSocketOptions {
        try configured(WebSocketOptions()) {
            $0.connectTimeout = .seconds(5); $0.transportFactory = .tls(TLSTestCertificates.trustingTestCA); $0.proxy = try HTTPProxy(url: proxy)
        }
    }

    /// Connects through the proxy, echoes one message and closes cleanly.
    private func echo(_ url: String, options: WebSocketOptions) async throws {
        let client = try WebSocket(url: url, options: options)
        try await client.connect()
        var iterator = client.messages.makeAsyncIterator()
        try await client.send(text: "through the tunnel")
        let echoed = await iterator.next()
        XCTAssertEqual(echoed, .text("through the tunnel"))
        let info = await client.close()
        XCTAssertTrue(info.wasClean)
    }

    private func connectError(_ url: String, options: WebSocketOptions) async throws -> WebSocketError? {
        let client = try WebSocket(url: url, options: options)
        do {
            try await client.connect()
            await client.close()
            return nil
        } catch {
            return error
        }
    }

    func testWSAndWSSThroughAnOpenProxy() async throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let plain = try startEchoServer(), secure = try startEchoServer(tls: "server")
        try await echo("ws://127.0.0.1:\(plain.port)/chat", options: options(proxy: proxy.url()))
        try await echo("wss://localhost:\(secure.port)/chat", options: options(proxy: proxy.url()))
        await plain.stop()
        await secure.stop()
    }

    func testWSAndWSSThroughAProxyWithBasicAuthentication() async throws {
        let proxy = try Tinyproxy(credentials: ("alice", "s3cret"))
        defer { proxy.stop() }
        let plain = try startEchoServer(), secure = try startEchoServer(tls: "server")
        try await echo("ws://127.0.0.1:\(plain.port)/", options: options(proxy: proxy.url(user: "alice", password: "s3cret")))
        try await echo("wss://localhost:\(secure.port)/", options: options(proxy: proxy.url(user: "alice", password: "s3cret")))
        // Failing cases: no credentials (ws://), wrong ones (wss://).
        let missing = try await connectError("ws://127.0.0.1:\(plain.port)/", options: options(proxy: proxy.url()))
        guard let proxyError = missing?.transportError?.proxyError, proxyError.code == .authenticationRequired,
            proxyError.credentialsSent == false
        else {
            return XCTFail("got \(String(describing: missing))")
        }
        let wrong = try await connectError("wss://localhost:\(secure.port)/", options: options(proxy: proxy.url(user: "alice", password: "nope")))
        guard let wrongError = wrong?.transportError?.proxyError, wrongError.code == .authenticationRequired,
            wrongError.credentialsSent == true
        else {
            return XCTFail("got \(String(describing: wrong))")
        }
        await plain.stop()
        await secure.stop()
    }

    func testOriginCertificateIsVerifiedForTheOriginsNameInsideTheTunnel() async throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let wrongHost = try startEchoServer(tls: "wrong-host")
        let error = try await connectError("wss://localhost:\(wrongHost.port)/", options: options(proxy: proxy.url()))
        XCTAssertEqual(error, .tls(.hostnameMismatch(expected: "localhost")))
        await wrongHost.stop()
    }

    func testProxyRefusingThePortIsARefusal() async throws {
        let proxy = try Tinyproxy(connectPorts: [443])
        defer { proxy.stop() }
        let plain = try startEchoServer(), secure = try startEchoServer(tls: "server")
        for url in ["ws://127.0.0.1:\(plain.port)/", "wss://localhost:\(secure.port)/"] {
            let error = try await connectError(url, options: options(proxy: proxy.url()))
            guard let proxyError = error?.transportError?.proxyError, proxyError.code == .refused, proxyError.httpStatus == 403 else {
                return XCTFail("\(url): got \(String(describing: error))")
            }
        }
        await plain.stop()
        await secure.stop()
    }

    func testUnreachableOriginBehindTheProxyIsARefusal() async throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let deadPort = try Tinyproxy.freeLoopbackPort()
        let error = try await connectError("ws://127.0.0.1:\(deadPort)/", options: options(proxy: proxy.url()))
        guard let proxyError = error?.transportError?.proxyError, proxyError.code == .refused, let status = proxyError.httpStatus,
            status >= 500
        else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testProxyNotListeningIsUnreachable() async throws {
        let deadPort = try Tinyproxy.freeLoopbackPort()
        for url in ["ws://127.0.0.1:1/", "wss://localhost:1/"] {
            let error = try await connectError(url, options: options(proxy: "http://127.0.0.1:\(deadPort)"))
            guard let proxyError = error?.transportError?.proxyError, proxyError.code == .unreachable, proxyError.host == "127.0.0.1",
                proxyError.port == deadPort, proxyError.unreachableReason == .connectionRefused
            else {
                return XCTFail("\(url): got \(String(describing: error))")
            }
        }
    }

    func testProxyClosingWithoutAnAnswerIsTunnelClosed() async throws {
        // A "proxy" that reads the request and hangs up.
        let peer = try HangingUpPeer()
        let error = try await connectError("ws://127.0.0.1:1/", options: options(proxy: "http://127.0.0.1:\(peer.port)"))
        XCTAssertEqual(error, .transport(.proxy(.tunnelClosed("the proxy closed the connection without answering CONNECT"))))
        peer.stop()
    }

    /// Events of an `HTTPProxyTransport` to origin.example:80 through the proxy at `port`, until
    /// `.closed`; `.inputClosed` and, when `closeAfter` is given, that many seconds after the
    /// start, close the transport.
    private func tunnelEvents(proxyPort port: Int, closeAfter seconds: Double? = nil) -> [String] {
        let transport = HTTPProxyTransport(host: "origin.example", port: 80, proxy: HTTPProxy(host: "127.0.0.1", port: port))
        let queue = DispatchQueue(label: "HTTPProxyTests.tunnel")
        let events = LockedBox<[String]>([])
        let closed = expectation(description: "closed")
        transport.start(queue: queue) { event in
            switch event {
            case .connected: events.mutate { $0.append("connected") }
            case .received(let bytes): events.mutate { $0.append("received " + String(decoding: bytes, as: UTF8.self)) }
            case .writable: break
            case .inputClosed:
                events.mutate { $0.append("inputClosed") }
                transport.close()
            case .closed(let error):
                events.mutate { $0.append("closed \(error.map { "\($0)" } ?? "nil")") }
                closed.fulfill()
            }
        }
        if let seconds { queue.asyncAfter(deadline: .now() + seconds) { transport.close() } }
        wait(for: [closed], timeout: 10)
        return events.value
    }

    func testTheOriginsBytesInTheSameReadAsTheAnswerAreDeliveredAfterConnected() throws {
        let peer = try HangingUpPeer(answer: Array("HTTP/1.1 200 Connection established\r\n\r\nHELLO".utf8))
        XCTAssertEqual(tunnelEvents(proxyPort: peer.port), ["connected", "received HELLO", "inputClosed", "closed nil"])
        peer.stop()
    }

    func testClosingWhileTheProxyHasNotAnsweredIsAQuietClose() throws {
        let peer = try HangingUpPeer(holdOpen: true)
        XCTAssertEqual(tunnelEvents(proxyPort: peer.port, closeAfter: 0.2), ["closed nil"])
        peer.stop()
    }

    func testCustomFactoryWithoutTunnelSupportIsRefusedAtConnect() async throws {
        var options = configured(WebSocketOptions()) { $0.proxy = HTTPProxy(host: "127.0.0.1", port: 1) }
        options.transportFactory = WebSocketTransportFactory { url, timeout throws(WebSocketError) in
            TCPTransport(host: url.host, port: url.port, connectTimeout: timeout)
        }
        let error = try await connectError("ws://127.0.0.1:1/", options: options)
        guard error?.transportError?.code == .unsupported else { return XCTFail("got \(String(describing: error))") }
    }
}

/// A loopback listener that reads one request head, optionally writes `answer` in one `send`, and
/// then closes the connection (or, with `holdOpen`, keeps it until `stop`).
final class HangingUpPeer: @unchecked Sendable {
    let port: Int
    private let listenFD: Int32

    init(answer: [UInt8] = [], holdOpen: Bool = false) throws {
        let (listenFD, port) = try loopbackListener()
        self.listenFD = listenFD
        self.port = port
        Thread.detachNewThread {
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { return }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(client, &byte, 1, 0) == 1 { head.append(byte) }
            if !answer.isEmpty { _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) } }
            if holdOpen { while recv(client, &byte, 1, 0) == 1 {} }  // until the client closes
            Glibc.close(client)
        }
    }

    func stop() {
        Glibc.shutdown(listenFD, Int32(SHUT_RDWR))
        Glibc.close(listenFD)
    }
}
#endif
