import XCTest
import WireKit

/// The error structs match by code: `catch WebSocketError.Code.x` where the error is typed and
/// where it is `any Error`, and `switch error.code` with `default:`, the way users write it.
final class WireKitErrorMatchingTests: XCTestCase {
    private func throwTyped(_ error: WebSocketError) throws(WebSocketError) { throw error }
    private func throwUntyped(_ error: any Error) throws { throw error }

    func testTypedCatchMatchesTheCode() {
        var caught = ""
        do {
            try throwTyped(WebSocketError(code: .closed, message: "gone"))
        } catch WebSocketError.Code.notOpen {
            caught = "notOpen"
        } catch WebSocketError.Code.closed {
            caught = "closed"
        } catch {
            caught = "other \(error.code)"
        }
        XCTAssertEqual(caught, "closed")
    }

    func testUntypedCatchMatchesTheCodeOfEachErrorType() {
        func caught(_ error: any Error) -> String {
            do {
                try throwUntyped(error)
                return "none"
            } catch WebSocketError.Code.transport {
                return "webSocket.transport"
            } catch TransportError.Code.connectionRefused {
                return "transport.connectionRefused"
            } catch TLSError.Code.certificateExpired {
                return "tls.certificateExpired"
            } catch HTTPProxyError.Code.authenticationRequired {
                return "proxy.authenticationRequired"
            } catch ZlibError.Code.unavailable {
                return "zlib.unavailable"
            } catch {
                return "other"
            }
        }
        let refused = TransportError(code: .connectionRefused, message: "refused", host: "h", port: 1)
        XCTAssertEqual(caught(WebSocketError(code: .transport, message: "x", transportError: refused)), "webSocket.transport")
        XCTAssertEqual(caught(refused), "transport.connectionRefused")
        XCTAssertEqual(caught(TLSError(code: .certificateExpired, message: "expired")), "tls.certificateExpired")
        XCTAssertEqual(caught(HTTPProxyError(code: .authenticationRequired, message: "407", httpStatus: 407)), "proxy.authenticationRequired")
        XCTAssertEqual(caught(ZlibError(code: .unavailable, message: "no zlib")), "zlib.unavailable")
        XCTAssertEqual(caught(TLSError(code: .pinMismatch, message: "pin")), "other", "another code does not match")
        XCTAssertEqual(caught(CancellationError()), "other", "another error type does not match")
    }

    func testSwitchOverTheCodeWithDefault() {
        func kind(_ error: WebSocketError) -> String {
            switch error.code {
            case .timedOut: "timeout \(error.timeout?.kind.rawValue ?? "?")"
            case .handshakeRejected: "rejected \(error.httpStatus ?? 0)"
            default: "other"
            }
        }
        let timeout = WebSocketTimeout(kind: .keepalive, limit: .seconds(5))
        XCTAssertEqual(kind(WebSocketError(code: .timedOut, message: "", timeout: timeout)), "timeout keepalive")
        XCTAssertEqual(kind(WebSocketError(code: .handshakeRejected, message: "", httpStatus: 403)), "rejected 403")
        XCTAssertEqual(kind(WebSocketError(code: WebSocketError.Code(rawValue: "future"), message: "")), "other")
    }

    func testAnUnknownCodeDescribesItselfByItsEscapedMessage() {
        let error = WebSocketError(code: WebSocketError.Code(rawValue: "future"), message: "line\nbreak")
        XCTAssertEqual(error.description, "line\\nbreak")
        XCTAssertEqual(TransportError(code: TransportError.Code(rawValue: "future"), message: "a\u{1B}b").description, "a\\u{1B}b")
    }

    func testTimeoutKindDecidesTheCloseCode() {
        let message = WebSocketError(code: .timedOut, message: "", timeout: WebSocketTimeout(kind: .message, limit: .seconds(1)))
        let pong = WebSocketError(code: .timedOut, message: "", timeout: WebSocketTimeout(kind: .pong, limit: .seconds(1)))
        XCTAssertEqual(message.closeCode, .policyViolation)
        XCTAssertEqual(pong.closeCode, .abnormalClosure)
    }
}
