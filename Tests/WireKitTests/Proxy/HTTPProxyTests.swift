#if canImport(Glibc)
import Foundation
import XCTest
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
        WebSocketOptions(
            connectTimeout: .seconds(5), transportFactory: .tls(TLSTestCertificates.trustingTestCA),
            proxy: try HTTPProxy(url: proxy))
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
        guard case .transport(.proxy(.authenticationRequired(_, credentialsSent: false)))? = missing else {
            return XCTFail("got \(String(describing: missing))")
        }
        let wrong = try await connectError("wss://localhost:\(secure.port)/", options: options(proxy: proxy.url(user: "alice", password: "nope")))
        guard case .transport(.proxy(.authenticationRequired(_, credentialsSent: true)))? = wrong else {
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
            guard case .transport(.proxy(.refused(status: 403, _)))? = error else { return XCTFail("\(url): got \(String(describing: error))") }
        }
        await plain.stop()
        await secure.stop()
    }

    func testUnreachableOriginBehindTheProxyIsARefusal() async throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let deadPort = try Tinyproxy.freeLoopbackPort()
        let error = try await connectError("ws://127.0.0.1:\(deadPort)/", options: options(proxy: proxy.url()))
        guard case .transport(.proxy(.refused(let status, _)))? = error, status >= 500 else {
            return XCTFail("got \(String(describing: error))")
        }
    }

    func testProxyNotListeningIsUnreachable() async throws {
        let deadPort = try Tinyproxy.freeLoopbackPort()
        for url in ["ws://127.0.0.1:1/", "wss://localhost:1/"] {
            let error = try await connectError(url, options: options(proxy: "http://127.0.0.1:\(deadPort)"))
            guard case .transport(.proxy(.unreachable(host: "127.0.0.1", port: deadPort, reason: .connectionRefused)))? = error else {
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

    func testCustomFactoryWithoutTunnelSupportIsRefusedAtConnect() async throws {
        var options = WebSocketOptions(proxy: HTTPProxy(host: "127.0.0.1", port: 1))
        options.transportFactory = WebSocketTransportFactory { url, timeout throws(WebSocketError) in
            TCPTransport(host: url.host, port: url.port, connectTimeout: timeout.wireKitSeconds)
        }
        let error = try await connectError("ws://127.0.0.1:1/", options: options)
        guard case .transport(.unsupported)? = error else { return XCTFail("got \(String(describing: error))") }
    }
}

/// A loopback listener that reads one request head and closes the connection without answering.
final class HangingUpPeer: @unchecked Sendable {
    let port: Int
    private let listenFD: Int32

    init() throws {
        let (listenFD, port) = try loopbackListener()
        self.listenFD = listenFD
        self.port = port
        Thread.detachNewThread {
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { return }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(client, &byte, 1, 0) == 1 { head.append(byte) }
            Glibc.close(client)
        }
    }

    func stop() {
        Glibc.shutdown(listenFD, Int32(SHUT_RDWR))
        Glibc.close(listenFD)
    }
}
#endif
