import Dispatch
import Foundation
import WireKit

/// A TCP relay between clients and a server that can inject faults: cut every connection,
/// stall the current ones (bytes stop flowing, sockets stay open: a half-open connection as
/// the client sees it), or refuse new connections for a while. All state lives on `queue`.
final class FaultProxy: @unchecked Sendable {
    // @unchecked: every mutable property is only touched on `queue`.
    /// `@unchecked Sendable`: only touched on the proxy queue.
    private final class Pair: @unchecked Sendable {
        let client: TCPTransport
        let upstream: TCPTransport
        var stalled = false
        var upstreamReady = false
        var pendingUp: [[UInt8]] = []
        init(client: TCPTransport, upstream: TCPTransport) {
            self.client = client
            self.upstream = upstream
        }
    }

    private let queue = DispatchQueue(label: "FaultProxy")
    private let listener: TCPListener
    private var pairs: [ObjectIdentifier: Pair] = [:]
    private var refusing = false
    private var _refused = 0
    /// Connections closed at once while refusing.
    var refusedCount: Int { queue.sync { _refused } }
    var targetPort: Int
    let port: Int

    init(targetPort: Int) throws {
        self.targetPort = targetPort
        listener = try TCPListener(host: "127.0.0.1", port: 0)
        port = listener.port
        listener.start { [weak self] transport in self?.accept(transport) }
    }

    deinit { listener.close() }

    /// Closes every relayed connection at once (the client sees an abnormal close, 1006).
    func cutAll() { queue.sync { for pair in pairs.values { close(pair) } } }

    /// Stops relaying on the current connections without closing them.
    func stallAll() { queue.sync { for pair in pairs.values { pair.stalled = true } } }

    /// While true, new connections are closed as soon as they are accepted.
    func setRefusing(_ value: Bool) { queue.sync { refusing = value } }

    var connectionCount: Int { queue.sync { pairs.count } }

    private func accept(_ client: TCPTransport) {
        queue.async { [self] in
            if refusing {
                _refused += 1
                client.start(queue: queue) { _ in }
                client.close()
                return
            }
            let upstream = TCPTransport(host: "127.0.0.1", port: targetPort, connectTimeout: 5)
            let pair = Pair(client: client, upstream: upstream)
            pairs[ObjectIdentifier(pair)] = pair
            client.start(queue: queue) { [weak self, weak pair] event in
                guard let self, let pair else { return }
                switch event {
                case .received(let buffer):
                    guard !pair.stalled else { return }
                    let bytes = [UInt8](buffer)
                    if pair.upstreamReady { pair.upstream.write(bytes) } else { pair.pendingUp.append(bytes) }
                case .inputClosed, .closed: self.close(pair)
                default: break
                }
            }
            upstream.start(queue: queue) { [weak self, weak pair] event in
                guard let self, let pair else { return }
                switch event {
                case .connected:
                    pair.upstreamReady = true
                    if !pair.stalled { pair.upstream.write(contentsOf: pair.pendingUp) }
                    pair.pendingUp = []
                case .received(let buffer):
                    guard !pair.stalled else { return }
                    pair.client.write([UInt8](buffer))
                case .inputClosed, .closed: self.close(pair)
                default: break
                }
            }
        }
    }

    private func close(_ pair: Pair) {
        guard pairs.removeValue(forKey: ObjectIdentifier(pair)) != nil else { return }
        pair.client.close()
        pair.upstream.close()
    }
}
