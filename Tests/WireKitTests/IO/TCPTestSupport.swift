import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// A raw TCP echo server on `TCPListener`: every accepted connection writes back what it reads.
final class TCPEchoServer: @unchecked Sendable {
    let listener: TCPListener
    private let queue = DispatchQueue(label: "TCPEchoServer")
    // Touched only on `queue`.
    private var connections: [TCPTransport] = []
    /// When true, accepted connections do not read (to fill the client's send buffer).
    private let paused: Bool

    init(host: String = "127.0.0.1", paused: Bool = false) throws {
        listener = try TCPListener(host: host, port: 0)
        self.paused = paused
        listener.start { [self] transport in
            queue.async { [self] in
                connections.append(transport)
                if !paused { run(transport) }
            }
        }
    }

    var port: Int { listener.port }

    /// Starts echoing on connections accepted while paused.
    func resume() {
        queue.async { [self] in for connection in connections { run(connection) } }
    }

    private func run(_ transport: TCPTransport) {
        transport.start(queue: queue) { [weak transport] event in
            guard let transport else { return }
            switch event {
            case .received(let bytes): transport.write(Array(bytes))
            case .inputClosed: transport.close()
            default: break
            }
        }
    }

    func stop() {
        listener.close()
        queue.sync { for connection in connections { connection.close() } }
    }
}

/// Records a transport's events for assertions; thread-safe.
final class TransportEventLog: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var _received: [UInt8] = []
    private var _events: [String] = []
    private var _closeError: TransportError??
    private var waiters: [(condition: () -> Bool, expectation: XCTestExpectation)] = []

    var received: [UInt8] { lock.withLock { _received } }
    var events: [String] { lock.withLock { _events } }
    /// `nil` while open; `.some(error)` once closed.
    var closeError: TransportError?? { lock.withLock { _closeError } }

    func record(_ event: TransportEvent) {
        lock.withLock {
            switch event {
            case .connected: _events.append("connected")
            case .received(let bytes): _received.append(contentsOf: bytes)
            case .writable: _events.append("writable")
            case .inputClosed: _events.append("inputClosed")
            case .closed(let error): _events.append("closed"); _closeError = .some(error)
            }
            waiters.removeAll { waiter in
                if waiter.condition() { waiter.expectation.fulfill(); return true }
                return false
            }
        }
    }

    /// An expectation fulfilled once `condition` (evaluated under the lock) holds.
    func expectation(_ description: String, _ condition: @escaping (TransportEventLog) -> Bool) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: description)
        lock.withLock {
            let check = { [unowned self] in condition(self) }
            if check() { expectation.fulfill() } else { waiters.append((check, expectation)) }
        }
        return expectation
    }

    // Unlocked accessors for use inside `expectation` conditions (already under the lock).
    var receivedCountUnlocked: Int { _received.count }
    var eventsUnlocked: [String] { _events }
    var isClosedUnlocked: Bool { _closeError != nil }
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
func testBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[i] = UInt8(truncatingIfNeeded: state)
    }
    return bytes
}
