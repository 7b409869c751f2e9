import Foundation
@testable import PubSubBroker

/// A transport that keeps what the broker writes, per connection.
final class CapturingTransport: BrokerTransport, @unchecked Sendable {
    enum Output: Equatable, CustomStringConvertible {
        case text(String)
        case binary([UInt8])
        case close(code: UInt16, reason: String)

        var description: String {
            switch self {
            case .text(let text): return "text \(text.debugDescription)"
            case .binary(let bytes): return "binary \(bytes.count) bytes"
            case .close(let code, let reason): return "close \(code) \(reason.debugDescription)"
            }
        }
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var outputs: [BrokerConnectionID: [Output]] = [:]

    func send(_ utf8: [UInt8], on connection: BrokerConnectionID) {
        lock.lock()
        outputs[connection, default: []].append(.text(String(decoding: utf8, as: UTF8.self)))
        lock.unlock()
    }

    func sendBinary(_ bytes: [UInt8], on connection: BrokerConnectionID) {
        lock.lock()
        outputs[connection, default: []].append(.binary(bytes))
        lock.unlock()
    }

    func close(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        lock.lock()
        outputs[connection, default: []].append(.close(code: code, reason: reason))
        lock.unlock()
    }

    func flush() {}

    func outputs(of connection: BrokerConnectionID) -> [Output] {
        lock.lock()
        defer { lock.unlock() }
        return outputs[connection] ?? []
    }
}
