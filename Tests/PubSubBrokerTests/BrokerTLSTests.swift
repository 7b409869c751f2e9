// The TLS server role is implemented with OpenSSL on Linux only (on Apple platforms
// `TLSServerIdentity` throws `.unavailable` and there is no `TLSTransport`).
#if canImport(Glibc)
import Foundation
import XCTest
import TestSupport
import PubSubBroker
import WireKit

/// The broker serving `wss://` through WireKit's server-side TLS, with WireKit's TLS test
/// certificates (`Tests/WireKitTests/TLSCertificates`, valid for 127.0.0.1 until 2124).
final class BrokerTLSTests: XCTestCase {
    private static let certificates = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WireKitTests/TLSCertificates")

    private func pem(_ name: String) throws -> String {
        try String(contentsOf: Self.certificates.appendingPathComponent(name), encoding: .utf8)
    }

    private func startSecureBroker() async throws -> PubSubBroker {
        let tls = TLSServerConfiguration(certificateChainPEM: try pem("server.pem"), privateKeyPEM: try pem("server-key.pem"))
        do {
            return try await PubSubBroker.start(port: 0, options: BrokerOptions(authKey: "k"), tls: tls)
        } catch let error as PubSubBrokerError where error.code == .tlsSetupFailed && error.message.contains("unavailable") {
            throw XCTSkip("no TLS library on this system: \(error.message)")
        }
    }

    func testHandshakeAndInvokeOverWSS() async throws {
        let broker = try await startSecureBroker()
        broker.procedure("echo") { request in request.data }
        XCTAssertEqual(broker.url.absoluteString, "wss://127.0.0.1:\(broker.port)/socketcluster/")

        let ca = try pem("ca.pem")
        let factory = WebSocketTransportFactory { url, _ in
            TLSTransport(host: url.host, port: url.port, connectTimeout: .seconds(5), configuration: TLSConfiguration(trustRoots: .only(pem: ca)))
        }
        let client = try WebSocket(url: broker.url.absoluteString, options: configured(WebSocketOptions()) { $0.transportFactory = factory })
        try await client.connect()
        var messages = client.messages.makeAsyncIterator()
        try await client.send(text: ##"{"event":"#handshake","data":{"authToken":null},"cid":1}"##)
        guard case .text(let handshake)? = await messages.next() else { return XCTFail("no handshake response") }
        let response = try JSONValue(parsing: handshake)
        XCTAssertEqual(response["rid"], 1)
        XCTAssertEqual(response["data"]?["id"]?.stringValue?.count, 20)
        try await client.send(text: ##"{"event":"echo","data":"secret","cid":2}"##)
        guard case .text(let echoed)? = await messages.next() else { return XCTFail("no echo") }
        XCTAssertEqual(echoed, ##"{"rid":2,"data":"secret"}"##)
        _ = await client.close()
        await broker.stop()
    }

    func testBadKeyMaterialFailsToStartWithATypedError() async throws {
        do {
            _ = try await PubSubBroker.start(
                port: 0, tls: TLSServerConfiguration(certificateChainPEM: "not a certificate", privateKeyPEM: "not a key"))
            XCTFail("start should fail")
        } catch let error as PubSubBrokerError where error.code == .tlsSetupFailed {
            XCTAssertFalse(error.message.isEmpty)
            XCTAssertNotNil(error.underlying, "WireKit's error is kept")
        }
    }
}
#endif
