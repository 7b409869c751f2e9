import PubSubClient
import XCTest

/// `PubSubError` is matched by its code: `catch PubSubError.Code.x` under typed and untyped
/// throws, `case PubSubError.Code.x` in a switch, and `error.code` against the constants. Each
/// error keeps the JS client's name and carries its context in named fields.
final class PubSubErrorMatchingTests: XCTestCase {
    private struct OtherError: Error {}

    private func throwAny(_ error: any Error) throws { throw error }
    private func throwTyped(_ error: PubSubError) throws(PubSubError) { throw error }

    func testCatchByCodeMatchesAnUntypedThrow() {
        var matched = false
        do { try throwAny(PubSubError.timeout(event: "e")) } catch PubSubError.Code.remote {
            XCTFail("matched the wrong code")
        } catch PubSubError.Code.timeout {
            matched = true
        } catch {
            XCTFail("not matched: \(error)")
        }
        XCTAssertTrue(matched)
    }

    func testCatchByCodeDoesNotMatchAnotherErrorType() {
        do { try throwAny(OtherError()) } catch PubSubError.Code.timeout {
            XCTFail("an error of another type matched a PubSubError code")
        } catch {
            XCTAssertTrue(error is OtherError)
        }
    }

    func testCatchByCodeMatchesATypedThrow() {
        var matched: PubSubError?
        do throws(PubSubError) { try throwTyped(.connectionFailed(code: 4500, reason: "full")) } catch PubSubError.Code.transport {
            XCTFail("matched the wrong code")
        } catch PubSubError.Code.connectionFailed {
            matched = .connectionFailed(code: 4500, reason: "full")
        } catch {
            XCTFail("not matched: \(error)")
        }
        XCTAssertEqual(matched?.closeCode, 4500)
    }

    func testAThrowingInitializerOfTheLibraryIsMatchedByCode() {
        var matched = false
        do throws(PubSubError) { _ = try ServerAddress(url: "http://example.com/") } catch PubSubError.Code.invalidArgument {
            matched = true
        } catch {
            XCTFail("not matched: \(error)")
        }
        XCTAssertTrue(matched)
    }

    func testSwitchAndResultPatternsMatchByCode() {
        let result: Result<Int, PubSubError> = .failure(.batchCancelled(event: "b"))
        switch result {
        case .failure(PubSubError.Code.timeout): XCTFail("matched the wrong code")
        case .failure(PubSubError.Code.batchCancelled): break
        default: XCTFail("not matched: \(result)")
        }
        let error: PubSubError = .channelClosed(channel: "c")
        switch error.code {
        case .timeout: XCTFail("matched the wrong code")
        case .channelClosed: XCTAssertEqual(error.channel, "c")
        default: XCTFail("not matched: \(error)")
        }
    }

    func testEveryErrorKeepsItsJSName() {
        let remote = RemoteError(name: "ForbiddenError", message: "no")
        let request = ServerRequestID(connection: 1, cid: 2)
        let failure = TransportFailure(.connectionRefused, message: "refused")
        let expected: [(PubSubError, PubSubError.Code, String)] = [
            (.remote(remote), .remote, "ForbiddenError"),
            (.timeout(event: "e"), .timeout, "TimeoutError"),
            (.badConnection(event: "e", kind: .disconnect, code: 1006, reason: "r"), .badConnection, "BadConnectionError"),
            (.codecMismatch(expected: .text, received: .binary), .codecMismatch, "CodecMismatchError"),
            (.outboundQueueFull(event: "e", maxMessages: 1, maxBytes: 2), .outboundQueueFull, "OutboundQueueFullError"),
            (.queuedTransmitExpired(event: "e"), .queuedTransmitExpired, "TimeoutError"),
            (.batchCancelled(event: "e"), .batchCancelled, "BatchCancelledError"),
            (.handshakeRejected(remote, code: 4501), .handshakeRejected, "ForbiddenError"),
            (.socketProtocol(code: 1006, reason: "r"), .socketProtocol, "SocketProtocolError"),
            (.invalidResponse(event: "e", detail: "d"), .invalidResponse, "InvalidResponseError"),
            (.malformedPacket(detail: "d"), .malformedPacket, "InvalidMessageError"),
            (.alreadyResponded(request), .alreadyResponded, "InvalidActionError"),
            (.requestExpired(request), .requestExpired, "BadConnectionError"),
            (.coding("d"), .coding, "CodingError"),
            (.tokenStore("d"), .tokenStore, "TokenStoreError"),
            (.invalidArgument("d"), .invalidArgument, "InvalidArgumentsError"),
            (.cancelled(event: "e"), .cancelled, "CancellationError"),
            (.connectionFailed(code: 4007, reason: "r"), .connectionFailed, "BadConnectionError"),
            (.transport(failure), .transport, "TransportError"),
            (.channelClosed(channel: "c"), .channelClosed, "ChannelClosedError"),
        ]
        for (error, code, name) in expected {
            XCTAssertEqual(error.code, code, "\(error)")
            XCTAssertEqual(error.name, name, "\(error)")
            XCTAssertEqual(error.description, "\(name): \(error.message)")
        }
        XCTAssertEqual(Set(expected.map(\.1.rawValue)).count, expected.count, "every code is distinct")
    }

    func testTheContextOfAFailureIsInNamedFields() {
        let lost = PubSubError.badConnection(event: "e", kind: .connectAbort, code: 4000, reason: "r")
        XCTAssertEqual(lost.event, "e")
        XCTAssertEqual(lost.badConnectionKind, .connectAbort)
        XCTAssertEqual(lost.closeCode, .serverPingTimedOut)
        XCTAssertEqual(lost.closeReason, "r")
        let full = PubSubError.outboundQueueFull(event: "q", maxMessages: 3, maxBytes: 4)
        XCTAssertEqual([full.maxQueuedMessages, full.maxQueuedBytes], [3, 4])
        let mismatch = PubSubError.codecMismatch(expected: .binary, received: .text)
        XCTAssertEqual(mismatch.expectedMessageKind, .binary)
        XCTAssertEqual(mismatch.receivedMessageKind, .text)
        let failure = TransportFailure(.upgradeRejected, message: "HTTP 404", httpStatus: 404)
        XCTAssertEqual(PubSubError.transport(failure).transport?.httpStatus, 404)
        XCTAssertEqual(PubSubError.transport(failure).message, "HTTP 404")
        let rejected = PubSubError.handshakeRejected(RemoteError(name: "BannedError", message: "go"), code: 4501)
        XCTAssertEqual(rejected.remote?.message, "go")
        XCTAssertEqual(rejected.closeCode, 4501)
    }

    func testAnErrorBuiltByHandTakesTheNameOfItsCode() {
        XCTAssertEqual(PubSubError(code: .timeout, message: "late").name, "TimeoutError")
        XCTAssertEqual(PubSubError(code: .remote, message: "m", remote: RemoteError(name: "MyError", message: "m")).name, "MyError")
        XCTAssertEqual(PubSubError(code: .timeout, message: "late", name: "SlowError").name, "SlowError")
        let custom = PubSubError(code: PubSubError.Code(rawValue: "mine"), message: "custom")
        XCTAssertEqual(custom.name, "Error")
        XCTAssertEqual(custom.description, "Error: custom")
        XCTAssertEqual(custom.code.description, "mine")
        XCTAssertEqual(PubSubError.Code(rawValue: "timeout"), .timeout)
        XCTAssertEqual(PubSubError(code: .timeout, message: "late", event: "e"), PubSubError.timeout(event: "e").with(message: "late"))
    }

    func testTransportFailuresCompareStatusAndLocationButNotTheUnderlyingError() {
        let redirect = TransportFailure(.redirected, message: "m", httpStatus: 301, location: "/a", underlying: OtherError())
        XCTAssertEqual(redirect, TransportFailure(.redirected, message: "m", httpStatus: 301, location: "/a"))
        XCTAssertNotEqual(redirect, TransportFailure(.redirected, message: "m", httpStatus: 302, location: "/a"))
        XCTAssertNotEqual(redirect, TransportFailure(.redirected, message: "m", httpStatus: 301, location: "/b"))
        XCTAssertEqual(TransportFailure.Kind(rawValue: "tls"), .tls)
        XCTAssertEqual(TransportFailure.Kind.upgradeRejected.description, "upgradeRejected")
    }
}

extension PubSubError {
    fileprivate func with(message: String) -> PubSubError {
        var copy = self
        copy.message = message
        return copy
    }
}
