#if canImport(Glibc)
import Foundation
import XCTest
@testable import WireKit

/// A client engine and a server engine talking through memory: no sockets.
final class TLSEngineTests: XCTestCase {
    /// Two engines and what each side received.
    private final class Pair {
        let client: TLSEngine
        let server: TLSEngine
        var clientReceived: [UInt8] = []
        var serverReceived: [UInt8] = []
        var clientError: TLSError?
        var serverError: TLSError?
        /// Bytes per `receive` call (nil: everything at once).
        var chunkSize: Int?

        init(client configuration: TLSConfiguration, host: String = "localhost", server name: String) throws {
            client = try TLSEngine(client: TLSContext(client: configuration), host: host)
            server = try TLSEngine(server: TLSContext(server: TLSTestCertificates.server(name)))
        }

        /// Starts the handshake and shuttles bytes until both sides are quiet.
        func run() {
            if clientError == nil {
                do { try client.startHandshake() } catch { clientError = error }
            }
            pump()
        }

        func pump() {
            var moved = true
            while moved {
                moved = false
                let toServer = client.takeCiphertext()
                if !toServer.isEmpty {
                    moved = true
                    feed(toServer, to: server, received: &serverReceived, error: &serverError)
                }
                let toClient = server.takeCiphertext()
                if !toClient.isEmpty {
                    moved = true
                    feed(toClient, to: client, received: &clientReceived, error: &clientError)
                }
            }
        }

        private func feed(_ bytes: [UInt8], to engine: TLSEngine, received: inout [UInt8], error: inout TLSError?) {
            guard error == nil else { return }
            let step = chunkSize ?? max(bytes.count, 1)
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + step, bytes.count)
                do {
                    try bytes[offset..<end].withUnsafeBytes { buffer in
                        try engine.receive(buffer) { received.append(contentsOf: $0) }
                    }
                } catch let failure as TLSError {
                    error = failure
                    return
                } catch {
                    XCTFail("unexpected error type \(error)")
                    return
                }
                offset = end
            }
        }
    }

    private func pattern(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    // MARK: Success

    func testHandshakeThroughCustomRootCarriesOneMebibyteBothWays() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "server")
        pair.run()
        XCTAssertNil(pair.clientError)
        XCTAssertNil(pair.serverError)
        XCTAssertEqual(pair.client.state, .established)
        XCTAssertEqual(pair.server.state, .established)

        let up = pattern(1 << 20, seed: 1)
        let down = pattern(1 << 20, seed: 7)
        try up.withUnsafeBytes { try pair.client.send($0) }
        try down.withUnsafeBytes { try pair.server.send($0) }
        pair.pump()
        XCTAssertEqual(pair.serverReceived, up)
        XCTAssertEqual(pair.clientReceived, down)
    }

    func testTLS13IsNegotiatedWithOpenSSL3() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "server")
        pair.run()
        XCTAssertEqual(pair.client.negotiatedVersion, "TLSv1.3")
    }

    func testMinimumVersionIsTLS12ByDefault() {
        XCTAssertEqual(TLSConfiguration().minimumVersion, .v1_2)
        XCTAssertEqual(TLSConfiguration().trustRoots, .system)
        XCTAssertFalse(TLSConfiguration().allowUntrustedCertificatesForTestingOnly)
    }

    func testHandshakeFedOneByteAtATimeStillCompletes() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "server")
        pair.chunkSize = 1
        pair.run()
        XCTAssertEqual(pair.client.state, .established)
        let message = Array("hello over TLS".utf8)
        try message.withUnsafeBytes { try pair.client.send($0) }
        pair.pump()
        XCTAssertEqual(pair.serverReceived, message)
    }

    func testPlaintextSentDuringHandshakeIsDeliveredAfterIt() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "server")
        let early = Array("queued before the handshake".utf8)
        try early.withUnsafeBytes { try pair.client.send($0) }
        pair.run()
        XCTAssertEqual(pair.serverReceived, early)
    }

    func testIPAddressHostIsVerifiedAgainstTheCertificateAddresses() throws {
        for host in ["127.0.0.1", "::1"] {
            let pair = try Pair(client: TLSTestCertificates.trustingTestCA, host: host, server: "server")
            pair.run()
            XCTAssertNil(pair.clientError, host)
            XCTAssertEqual(pair.client.state, .established, host)
        }
    }

    func testSystemRootsPlusCustomRootTrustTheTestServer() throws {
        let configuration = TLSConfiguration(trustRoots: .systemAnd(pem: TLSTestCertificates.caPEM))
        let pair = try Pair(client: configuration, server: "server")
        pair.run()
        XCTAssertNil(pair.clientError)
        XCTAssertEqual(pair.client.state, .established)
    }

    // MARK: Verification failures, each with its own error

    func testWrongHostNameIsRejectedAsHostnameMismatch() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "wrong-host")
        pair.run()
        XCTAssertEqual(pair.clientError, .hostnameMismatch(expected: "localhost"))
        XCTAssertEqual(pair.client.state, .failed)
        guard let failure = pair.serverError, failure.code == .handshakeFailed else {
            return XCTFail("server should see the client's alert, got \(String(describing: pair.serverError))")
        }
        let reason = failure.message
        XCTAssertTrue(reason.contains("alert"), reason)
    }

    func testWrongIPAddressIsRejectedAsHostnameMismatch() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, host: "127.0.0.1", server: "wrong-host")
        pair.run()
        XCTAssertEqual(pair.clientError, .hostnameMismatch(expected: "127.0.0.1"))
    }

    func testCertificateFromUnknownRootIsRejectedAsUntrusted() throws {
        // The system store does not know the test CA.
        let pair = try Pair(client: TLSConfiguration(), server: "server")
        pair.run()
        guard let failure = pair.clientError, failure.code == .certificateUntrusted else {
            return XCTFail("expected certificateUntrusted, got \(String(describing: pair.clientError))")
        }
        let reason = failure.message
        XCTAssertTrue(reason.contains("issuer"), reason)
    }

    func testSelfSignedCertificateIsRejectedAsUntrusted() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "untrusted")
        pair.run()
        guard let failure = pair.clientError, failure.code == .certificateUntrusted else {
            return XCTFail("expected certificateUntrusted, got \(String(describing: pair.clientError))")
        }
        let reason = failure.message
        XCTAssertTrue(reason.contains("self-signed") || reason.contains("self signed"), reason)
    }

    func testExpiredCertificateIsRejectedAsExpired() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "expired")
        pair.run()
        XCTAssertEqual(pair.clientError, .certificateExpired)
    }

    // MARK: Pinning

    func testPinOfTheServerKeyConnects() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("server")]
        let pair = try Pair(client: configuration, server: "server")
        pair.run()
        XCTAssertNil(pair.clientError)
        XCTAssertEqual(pair.client.state, .established)
    }

    func testPinOfTheRootKeyConnects() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("untrusted"), try TLSTestCertificates.pin("ca")]
        let pair = try Pair(client: configuration, server: "server")
        pair.run()
        XCTAssertNil(pair.clientError)
        XCTAssertEqual(pair.client.state, .established)
    }

    func testPinMismatchIsRejectedAndListsThePresentedKeys() throws {
        var configuration = TLSTestCertificates.trustingTestCA
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("untrusted")]
        let pair = try Pair(client: configuration, server: "server")
        pair.run()
        let expected = [try TLSTestCertificates.pin("server"), try TLSTestCertificates.pin("ca")].map(\.description)
        XCTAssertEqual(pair.clientError, .pinMismatch(presented: expected))
        XCTAssertEqual(pair.client.state, .failed)
        let nothing = Array("never sent".utf8)
        try nothing.withUnsafeBytes { try pair.client.send($0) }
        pair.pump()
        XCTAssertEqual(pair.serverReceived, [])
    }

    func testPinsAreStillCheckedWithTheTestingOptOut() throws {
        var configuration = TLSConfiguration()
        configuration.allowUntrustedCertificatesForTestingOnly = true
        configuration.pinnedPublicKeys = [try TLSTestCertificates.pin("server")]
        let pair = try Pair(client: configuration, server: "untrusted")
        pair.run()
        guard case .pinMismatch? = pair.clientError else {
            return XCTFail("expected pinMismatch, got \(String(describing: pair.clientError))")
        }
    }

    // MARK: Testing-only opt-out

    func testTestingOptOutConnectsToUntrustedCertificateForAnotherHost() throws {
        var configuration = TLSConfiguration()
        configuration.allowUntrustedCertificatesForTestingOnly = true
        for (server, host) in [("untrusted", "localhost"), ("wrong-host", "example.org"), ("expired", "127.0.0.1")] {
            let pair = try Pair(client: configuration, host: host, server: server)
            pair.run()
            XCTAssertNil(pair.clientError, server)
            XCTAssertEqual(pair.client.state, .established, server)
        }
    }

    // MARK: Shutdown and failures after the handshake

    func testCloseNotifyIsExchangedInBothDirections() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "server")
        pair.run()
        let last = Array("last words".utf8)
        try last.withUnsafeBytes { try pair.client.send($0) }
        pair.client.shutdown()
        XCTAssertTrue(pair.client.sentCloseNotify)
        pair.pump()
        XCTAssertEqual(pair.serverReceived, last)
        XCTAssertTrue(pair.server.receivedCloseNotify)
        XCTAssertFalse(pair.client.receivedCloseNotify)

        pair.server.shutdown()
        pair.pump()
        XCTAssertTrue(pair.client.receivedCloseNotify)
        XCTAssertNil(pair.clientError)
        XCTAssertNil(pair.serverError)
        XCTAssertFalse(pair.client.hasCiphertext)
    }

    func testCorruptedRecordFailsTheConnection() throws {
        let pair = try Pair(client: TLSTestCertificates.trustingTestCA, server: "server")
        pair.run()
        try Array("intact".utf8).withUnsafeBytes { try pair.client.send($0) }
        var record = pair.client.takeCiphertext()
        record[record.count - 3] ^= 0x55
        XCTAssertThrowsError(try record.withUnsafeBytes { try pair.server.receive($0) { _ in } }) { error in
            guard case TLSError.Code.connectionFailed = error else {
                return XCTFail("expected connectionFailed, got \(error)")
            }
        }
        XCTAssertEqual(pair.server.state, .failed)
    }

    func testGarbageInsteadOfAServerHelloFailsTheHandshake() throws {
        let client = try TLSEngine(client: TLSContext(client: TLSTestCertificates.trustingTestCA), host: "localhost")
        try client.startHandshake()
        XCTAssertTrue(client.hasCiphertext)
        let garbage = Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)
        XCTAssertThrowsError(try garbage.withUnsafeBytes { try client.receive($0) { _ in } }) { error in
            guard let failure = error as? TLSError, failure.code == .handshakeFailed else {
                return XCTFail("expected handshakeFailed, got \(error)")
            }
            let reason = failure.message
            XCTAssertTrue(reason.contains("wrong version number") || reason.contains("packet"), reason)
        }
    }

    // MARK: Configuration

    func testMissingLibraryIsReportedAsUnavailable() {
        let result = OpenSSLLibrary.load(candidates: [("libssl-not-here.so.9", "libcrypto-not-here.so.9")])
        guard case .failure(let failure) = result, failure.code == .unavailable else {
            return XCTFail("expected unavailable, got \(result)")
        }
        let reason = failure.message
        XCTAssertTrue(reason.contains("libcrypto-not-here.so.9"), reason)
    }

    func testServerKeyThatDoesNotMatchTheCertificateIsRejected() {
        let mismatched = TLSServerConfiguration(
            certificateChainPEM: TLSTestCertificates.text("server.pem"),
            privateKeyPEM: TLSTestCertificates.text("untrusted-key.pem"))
        XCTAssertThrowsError(try TLSContext(server: mismatched)) { error in
            guard let failure = error as? TLSError, failure.code == .invalidConfiguration else {
                return XCTFail("expected invalidConfiguration, got \(error)")
            }
            let reason = failure.message
            XCTAssertTrue(reason.contains("private key"), reason)
        }
    }

    func testTrustRootsWithoutACertificateAreRejected() {
        XCTAssertThrowsError(try TLSContext(client: TLSConfiguration(trustRoots: .only(pem: "not a PEM")))) { error in
            XCTAssertEqual(error as? TLSError, .invalidConfiguration(reason: "no PEM certificate found in the trusted roots"))
        }
    }

    func testServerIdentityLoadsFromFilesWithItsChain() throws {
        let configuration = try TLSServerConfiguration(
            certificateChainFile: TLSTestCertificates.url("server-chain.pem"),
            privateKeyFile: TLSTestCertificates.url("server-key.pem"))
        XCTAssertNoThrow(try TLSContext(server: configuration))
        XCTAssertThrowsError(
            try TLSServerConfiguration(
                certificateChainFile: TLSTestCertificates.url("absent.pem"),
                privateKeyFile: TLSTestCertificates.url("server-key.pem")))
    }
}
#endif
