#if canImport(Glibc)
import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// `TLSTransport` (client) against Python `websockets` + `ssl` serving the test certificates:
/// verification verdicts against a TLS stack nobody here wrote.
final class TLSPythonServerTests: XCTestCase {
    private var server: TLSPythonPeer?
    private var ports: [String: Int] = [:]
    private let queue = DispatchQueue(label: "TLSPythonServerTests")

    override func setUpWithError() throws {
        let certificates = TLSTestCertificates.directory.path
        let identities =
            ["server", "expired", "wrong-host", "untrusted"].map {
                "\($0):\(certificates)/\($0).pem:\(certificates)/\($0)-key.pem"
            } + ["tls12:\(certificates)/server.pem:\(certificates)/server-key.pem:tls12"]
        let peer = try TLSPythonPeer(script: "wss_echo_server.py", arguments: identities)
        server = peer
        ports = try peer.nextJSON().compactMapValues { $0 as? Int }
        XCTAssertEqual(ports.count, 5)
    }

    override func tearDown() {
        server?.stop()
    }

    /// Connects, sends a WebSocket upgrade request once TLS is up, and returns what happened.
    private func connect(
        to identity: String, host: String = "localhost", configuration: TLSConfiguration
    ) throws -> (response: String, closedError: TransportError?) {
        let port = try XCTUnwrap(ports[identity])
        let transport = TLSTransport(host: host, port: port, configuration: configuration)
        let done = XCTestExpectation(description: "closed")
        let result = ResultBox()
        let request =
            "GET / HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        transport.start(queue: queue) { event in
            switch event {
            case .connected:
                transport.write(Array(request.utf8))
            case .received(let bytes):
                result.response += String(decoding: bytes, as: UTF8.self)
                if result.response.contains("\r\n\r\n") { transport.close() }
            case .closed(let error):
                result.closedError = error
                done.fulfill()
            case .inputClosed, .writable:
                break
            }
        }
        wait(for: [done], timeout: 20)
        return queue.sync { (result.response, result.closedError) }
    }

    /// Mutated on `queue` only.
    private final class ResultBox: @unchecked Sendable {
        var response = ""
        var closedError: TransportError?
    }

    func testUpgradeThroughTheTestRootGets101() throws {
        let outcome = try connect(to: "server", configuration: TLSTestCertificates.trustingTestCA)
        XCTAssertNil(outcome.closedError)
        XCTAssertTrue(outcome.response.hasPrefix("HTTP/1.1 101"), outcome.response)
        XCTAssertTrue(outcome.response.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), outcome.response)
    }

    func testIPAddressURLIsVerifiedAgainstTheCertificate() throws {
        let outcome = try connect(to: "server", host: "127.0.0.1", configuration: TLSTestCertificates.trustingTestCA)
        XCTAssertNil(outcome.closedError)
        XCTAssertTrue(outcome.response.hasPrefix("HTTP/1.1 101"), outcome.response)
    }

    func testWrongHostNameIsRejected() throws {
        let outcome = try connect(to: "wrong-host", configuration: TLSTestCertificates.trustingTestCA)
        XCTAssertEqual(outcome.closedError, .tls(.hostnameMismatch(expected: "localhost")))
        XCTAssertEqual(outcome.response, "")
    }

    func testUnknownRootIsRejectedAsUntrusted() throws {
        let outcome = try connect(to: "server", configuration: TLSConfiguration())
        guard outcome.closedError?.tlsError?.code == .certificateUntrusted else {
            return XCTFail("expected certificateUntrusted, got \(String(describing: outcome.closedError))")
        }
    }

    func testSelfSignedCertificateIsRejectedAsUntrusted() throws {
        let outcome = try connect(to: "untrusted", configuration: TLSTestCertificates.trustingTestCA)
        guard outcome.closedError?.tlsError?.code == .certificateUntrusted else {
            return XCTFail("expected certificateUntrusted, got \(String(describing: outcome.closedError))")
        }
    }

    func testExpiredCertificateIsRejected() throws {
        let outcome = try connect(to: "expired", configuration: TLSTestCertificates.trustingTestCA)
        XCTAssertEqual(outcome.closedError, .tls(.certificateExpired))
    }

    func testPinMatchConnects() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("server")]
        let outcome = try connect(to: "server", configuration: configuration)
        XCTAssertNil(outcome.closedError)
        XCTAssertTrue(outcome.response.hasPrefix("HTTP/1.1 101"), outcome.response)
    }

    func testPinMismatchIsRejected() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("wrong-host")]
        let outcome = try connect(to: "server", configuration: configuration)
        guard let tls = outcome.closedError?.tlsError, tls.code == .pinMismatch, let presented = tls.presentedPins else {
            return XCTFail("expected pinMismatch, got \(String(describing: outcome.closedError))")
        }
        XCTAssertEqual(presented.first, try TLSTestCertificates.pin("server").description)
    }

    func testTLS12ServerIsAcceptedByDefault() throws {
        let outcome = try connect(to: "tls12", configuration: TLSTestCertificates.trustingTestCA)
        XCTAssertNil(outcome.closedError)
        XCTAssertTrue(outcome.response.hasPrefix("HTTP/1.1 101"), outcome.response)
    }

    func testMinimumTLS13RefusesATLS12Server() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.minimumVersion = .v1_3
        let outcome = try connect(to: "tls12", configuration: configuration)
        // Python's asyncio drops the connection without sending OpenSSL's protocol_version alert.
        guard outcome.closedError?.tlsError?.code == .handshakeFailed else {
            return XCTFail("expected handshakeFailed, got \(String(describing: outcome.closedError))")
        }
        XCTAssertEqual(outcome.response, "")
    }

    func testTestingOptOutConnectsToAnUntrustedCertificate() throws {
        var configuration = TLSConfiguration()
        configuration.allowUntrustedCertificatesForTestingOnly = true
        let outcome = try connect(to: "untrusted", configuration: configuration)
        XCTAssertNil(outcome.closedError)
        XCTAssertTrue(outcome.response.hasPrefix("HTTP/1.1 101"), outcome.response)
    }
}
#endif
