import Foundation
import XCTest
import PubSubBroker
import WireKit

/// A client nobody here wrote — Python `websockets` 17.4 speaking the raw SocketCluster protocol —
/// against the broker. Needs `WIREKIT_TEST_PYTHON` (a python with websockets installed); skipped
/// without it unless `WIREKIT_REQUIRE_PEERS=1`.
final class PythonInteropTests: XCTestCase {
    private func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["WIREKIT_TEST_PYTHON"], !path.isEmpty { return path }
        if environment["WIREKIT_REQUIRE_PEERS"] == "1" {
            XCTFail("WIREKIT_REQUIRE_PEERS=1 but WIREKIT_TEST_PYTHON is not set")
        }
        throw XCTSkip("WIREKIT_TEST_PYTHON is not set")
    }

    func testPythonWebsocketsClientHandshakesInvokesAndPublishes() async throws {
        let python = try python()
        let broker = try await PubSubBroker.start(port: 0, options: BrokerOptions(authKey: "k"))
        broker.procedure("echo") { request in request.data }
        let output = try await run(python, script: RawProtocolClientScript.source, arguments: [broker.url.absoluteString])
        await broker.stop()
        try assertExpectedAnswers(output)
    }

    func testPythonWebsocketsClientOverWSS() async throws {
        let python = try python()
        let certificates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("WireKitTests/TLSCertificates")
        let tls = TLSServerConfiguration(
            certificateChainPEM: try String(contentsOf: certificates.appendingPathComponent("server.pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOf: certificates.appendingPathComponent("server-key.pem"), encoding: .utf8))
        let broker: PubSubBroker
        do {
            broker = try await PubSubBroker.start(port: 0, options: BrokerOptions(authKey: "k"), tls: tls)
        } catch let error as PubSubBrokerError where error.code == .tlsSetupFailed && error.message.contains("unavailable") {
            throw XCTSkip("no TLS library on this system: \(error.message)")
        }
        broker.procedure("echo") { request in request.data }
        let output = try await run(
            python, script: RawProtocolClientScript.source,
            arguments: [broker.url.absoluteString, certificates.appendingPathComponent("ca.pem").path])
        await broker.stop()
        try assertExpectedAnswers(output)
    }

    private func assertExpectedAnswers(_ output: String) throws {
        let result = try JSONValue(parsing: output)

        XCTAssertEqual(result["handshake"]?["rid"], 1)
        XCTAssertEqual(result["handshake"]?["data"]?["id"]?.stringValue?.count, 20)
        XCTAssertEqual(result["handshake"]?["data"]?["pingTimeout"], 20_000)
        XCTAssertEqual(result["handshake"]?["data"]?["isAuthenticated"], false)
        XCTAssertEqual(result["echo"], ["rid": 2, "data": ["hello": "python", "n": [1, 2.5, nil]]])
        XCTAssertEqual(result["subscribe"], ["rid": 3])
        XCTAssertEqual(result["publish"], [["event": "#publish", "data": ["channel": "py", "data": "hi"]], ["rid": 4]])
        XCTAssertEqual(result["afterUnknown"], ["rid": 6, "data": "sync"], "the unknown procedure (cid 5) is never answered")
        XCTAssertEqual(result["wrongPath"], 400, "another path is refused with HTTP 400")
    }

    private func run(_ python: String, script: String, arguments: [String]) async throws -> String {
        let scriptURL = FileManager.default.temporaryDirectory.appendingPathComponent("pubsub-raw-client-\(UUID().uuidString).py")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scriptURL) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scriptURL.path] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let finished: Void = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        _ = finished
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, "python failed: \(errors)")
        return output
    }
}
