import XCTest
import TestSupport
@testable import WireKit

/// The CONNECT exchange without a network: request bytes out, answer bytes in, verdict.
final class HTTPConnectTunnelTests: XCTestCase {
    private func feed(_ tunnel: inout HTTPConnectTunnel, _ text: String) throws -> HTTPConnectTunnel.Verdict {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { try tunnel.receive($0) }
    }

    func testRequestNamesTheOriginAndSendsBasicCredentials() throws {
        let plain = HTTPConnectTunnel(host: "example.com", port: 443, proxy: HTTPProxy(host: "proxy", port: 3128))
        XCTAssertEqual(
            String(decoding: plain.request, as: UTF8.self),
            "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        let authenticated = HTTPConnectTunnel(host: "::1", port: 8080, proxy: try HTTPProxy(url: "http://al%40ice:s3cr:et@proxy:3128"))
        XCTAssertEqual(
            String(decoding: authenticated.request, as: UTF8.self),
            "CONNECT [::1]:8080 HTTP/1.1\r\nHost: [::1]:8080\r\n"
                + "Proxy-Authorization: Basic \(Data("al@ice:s3cr:et".utf8).base64EncodedString())\r\n\r\n")
    }

    func testTwoHundredOpensTheTunnelAndLeavesTheOriginsBytes() throws {
        var tunnel = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1))
        XCTAssertEqual(try feed(&tunnel, "HTTP/1.1 200 Connection est"), .needMoreBytes)
        let rest = "ablished\r\nProxy-agent: x\r\n\r\n"
        XCTAssertEqual(try feed(&tunnel, rest + "HTTP/1.1 101"), .established(consumed: rest.utf8.count))
    }

    func testFourOhSevenIsAuthenticationRequiredWithTheRealm() {
        var tunnel = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1))
        XCTAssertThrowsError(try feed(&tunnel, "HTTP/1.0 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"Tiny\"\r\n\r\n")) {
            XCTAssertEqual($0 as? HTTPProxyError, .authenticationRequired(realm: "Tiny", credentialsSent: false))
        }
        var withCredentials = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1, username: "u", password: "bad"))
        XCTAssertThrowsError(try feed(&withCredentials, "HTTP/1.0 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"Tinyproxy\"\r\n\r\n")) {
            XCTAssertEqual($0 as? HTTPProxyError, .authenticationRequired(realm: "Tinyproxy", credentialsSent: true, status: 401))
        }
        var again = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1, username: "u", password: "bad"))
        XCTAssertThrowsError(try feed(&again, "HTTP/1.1 407 No\r\n\r\n")) {
            XCTAssertEqual($0 as? HTTPProxyError, .authenticationRequired(realm: nil, credentialsSent: true))
        }
    }

    func testOtherStatusesAreRefusalsAndGarbageIsInvalid() {
        var tunnel = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1))
        XCTAssertThrowsError(try feed(&tunnel, "HTTP/1.1 403 Access violation\r\n\r\n")) {
            XCTAssertEqual($0 as? HTTPProxyError, .refused(status: 403, reason: "Access violation"))
        }
        var garbage = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1))
        XCTAssertThrowsError(try feed(&garbage, "SSH-2.0-OpenSSH\r\n\r\n")) {
            guard case HTTPProxyError.Code.invalidResponse = $0 else { return XCTFail("got \($0)") }
        }
        let silent = HTTPConnectTunnel(host: "h", port: 80, proxy: HTTPProxy(host: "p", port: 1))
        XCTAssertEqual(silent.closedEarly, .tunnelClosed("the proxy closed the connection without answering CONNECT"))
    }

    func testProxyURLParsing() throws {
        XCTAssertEqual(try HTTPProxy(url: "http://proxy.local:3128"), HTTPProxy(host: "proxy.local", port: 3128))
        XCTAssertEqual(try HTTPProxy(url: "proxy.local:8080/"), HTTPProxy(host: "proxy.local", port: 8080))
        XCTAssertEqual(try HTTPProxy(url: "http://u:p%3Aw@[::1]"), HTTPProxy(host: "::1", port: 80, username: "u", password: "p:w"))
        XCTAssertEqual(try HTTPProxy(url: "http://u@h:1").password, "")
        for bad in ["https://h:1", "socks5://h:1", "http://:80", "http://h:0", "http://h:x", "http://h:1/path"] {
            XCTAssertThrowsError(try HTTPProxy(url: bad), bad) { guard case WebSocketError.Code.invalidURL = $0 else { return XCTFail("\($0)") } }
        }
    }

    func testEnvironmentConventions() throws {
        let secure = try WebSocketURL("wss://api.example.com/ws"), plain = try WebSocketURL("ws://api.example.com/ws")
        let env = ["https_proxy": "http://s:1", "HTTP_PROXY": "http://cgi:2", "http_proxy": "http://p:3"]
        XCTAssertEqual(try HTTPProxy.fromEnvironment(for: secure, environment: env)?.host, "s")
        XCTAssertEqual(try HTTPProxy.fromEnvironment(for: plain, environment: env)?.host, "p")
        XCTAssertNil(try HTTPProxy.fromEnvironment(for: plain, environment: ["HTTP_PROXY": "http://cgi:2"]))
        XCTAssertEqual(try HTTPProxy.fromEnvironment(for: secure, environment: ["HTTPS_PROXY": "h:4"])?.port, 4)
        for excluded in ["example.com", ".example.com", "*.example.com", "other, api.example.com:443", "*"] {
            XCTAssertNil(try HTTPProxy.fromEnvironment(for: secure, environment: env.merging(["no_proxy": excluded]) { $1 }), excluded)
        }
        XCTAssertNotNil(try HTTPProxy.fromEnvironment(for: secure, environment: env.merging(["NO_PROXY": "ample.com,localhost"]) { $1 }))
        XCTAssertNil(try configured(WebSocketOptions()) { $0.proxyFromEnvironment = false }.proxy(for: secure))
    }
}
