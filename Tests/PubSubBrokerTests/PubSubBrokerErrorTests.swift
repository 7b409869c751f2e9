import XCTest
@testable import PubSubBroker

/// `PubSubBrokerError` as users match it: by code, in `catch` and in `switch`.
final class PubSubBrokerErrorTests: XCTestCase {
    func testCatchMatchesByCodeForUntypedThrows() {
        func fail() throws { throw PubSubBrokerError.invokeTimedOut(event: "ask") }
        var matched = ""
        do {
            try fail()
        } catch PubSubBrokerError.Code.connectionClosed {
            matched = "connectionClosed"
        } catch PubSubBrokerError.Code.invokeTimedOut {
            matched = "invokeTimedOut"
        } catch {
            matched = "other"
        }
        XCTAssertEqual(matched, "invokeTimedOut")
        XCTAssertFalse(PubSubBrokerError.Code.invokeTimedOut ~= (CancellationError() as any Error))
    }

    func testSwitchOverTheCodeOfATypedValue() {
        let error = PubSubBrokerError.socketNotOpen(socketID: "x")
        switch error {
        case .invokeTimedOut: XCTFail("wrong code")
        case .socketNotOpen: XCTAssertEqual(error.socketID, "x")
        default: XCTFail("wrong code")
        }
    }

    func testDescriptionsKeepSocketClusterServersWords() {
        XCTAssertEqual(PubSubBrokerError.invokeTimedOut(event: "ask").description, "Event response for ask event timed out")
        XCTAssertEqual(
            PubSubBrokerError.connectionClosed(event: "ask").description, "Event ask was aborted due to a bad connection")
        let listen = PubSubBrokerError.listenFailed(host: "127.0.0.1", port: 1, reason: "denied", underlying: CancellationError())
        XCTAssertEqual(listen.description, "Could not listen on 127.0.0.1:1: denied")
        XCTAssertEqual(listen.host, "127.0.0.1")
        XCTAssertEqual(listen.port, 1)
        XCTAssertTrue(listen.underlying is CancellationError)
    }

    func testEqualityIgnoresTheUnderlyingError() {
        let first = PubSubBrokerError(code: .listenFailed, message: "m", underlying: CancellationError())
        let second = PubSubBrokerError(code: .listenFailed, message: "m")
        XCTAssertEqual(first, second)
        XCTAssertNotEqual(first, PubSubBrokerError(code: .tlsSetupFailed, message: "m"))
    }

    func testAPortInUseFailsWithListenFailedAndTheAddress() async throws {
        let first = try await PubSubBroker.start(port: 0)
        do {
            let second = try await PubSubBroker.start(port: first.port)
            await second.stop()
            XCTFail("the port is taken")
        } catch let error as PubSubBrokerError {
            XCTAssertEqual(error.code, .listenFailed)
            XCTAssertEqual(error.port, first.port)
            XCTAssertEqual(error.host, "127.0.0.1")
            XCTAssertNotNil(error.underlying)
        }
        await first.stop()
    }
}
