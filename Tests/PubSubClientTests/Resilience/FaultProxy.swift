import Dispatch
import Foundation
import WireKit

/// A TCP relay between clients and a server that can inject faults: cut every connection, cut
/// one in the middle of a frame, stall the connections (bytes are held, sockets stay open: a
/// half-open connection as the client sees it), or refuse new connections for a while. All
/// state lives on `queue`.
final class FaultProxy: @unchecked Sendable {
    // @unchecked: every mutable property is only touched on `queue`.

    /// Which way bytes flow through a relayed connection.
    enum Direction: Sendable {
        /// From the server to the client.
        case toClient
        /// From the client to the server.
        case toServer
    }

    /// One relayed connection. `@unchecked Sendable`: only touched on the proxy queue.
    private final class Pair: @unchecked Sendable {
        let client: TCPTransport
        let upstream: TCPTransport
        var stalled: Bool
        var upstreamReady = false
        /// Client bytes waiting for the upstream connection or for the stall to end.
        var heldUp: [[UInt8]] = []
        /// Server bytes waiting for the stall to end.
        var heldDown: [[UInt8]] = []
        init(client: TCPTransport, upstream: TCPTransport, stalled: Bool) {
            self.client = client
            self.upstream = upstream
            self.stalled = stalled
        }
    }

    /// A cut armed to happen inside the next large chunk flowing `direction`.
    private struct MidFrameCut {
        var direction: Direction
        /// Chunks shorter than this (bytes) pass untouched (pings, small frames).
        var minimumChunk: Int
        /// How many bytes of the chunk are forwarded before the cut.
        var forwarded: Int
    }

    private let queue = DispatchQueue(label: "FaultProxy")
    private let listener: TCPListener
    private var pairs: [ObjectIdentifier: Pair] = [:]
    private var refusing = false
    private var stalling = false
    private var midFrameCut: MidFrameCut?
    private var _refused = 0
    private var _midFrameCuts = 0
    /// Connections closed at once while refusing.
    var refusedCount: Int { queue.sync { _refused } }
    /// Connections cut inside a chunk by `cutInsideNextChunk`.
    var midFrameCutCount: Int { queue.sync { _midFrameCuts } }
    let targetPort: Int
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

    /// Arms a cut inside the next chunk of at least `minimumChunk` bytes flowing `direction`:
    /// its first `forwarded` bytes are relayed, then that connection is closed on both sides.
    func cutInsideNextChunk(_ direction: Direction, minimumChunk: Int, forwarded: Int) {
        queue.sync { midFrameCut = MidFrameCut(direction: direction, minimumChunk: minimumChunk, forwarded: forwarded) }
    }

    /// Stops relaying on every connection, current and new, without closing any: bytes are
    /// held, as TCP holds them while a network path is down, until `resume()`.
    func stall() {
        queue.sync {
            stalling = true
            for pair in pairs.values { pair.stalled = true }
        }
    }

    /// Ends a stall: held bytes flow, in order, and relaying continues.
    func resume() {
        queue.sync {
            stalling = false
            for pair in pairs.values where pair.stalled {
                pair.stalled = false
                if pair.upstreamReady {
                    for chunk in pair.heldUp { pair.upstream.write(chunk) }
                    pair.heldUp = []
                }
                for chunk in pair.heldDown { pair.client.write(chunk) }
                pair.heldDown = []
            }
        }
    }

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
            let upstream = TCPTransport(host: "127.0.0.1", port: targetPort, connectTimeout: .seconds(5))
            let pair = Pair(client: client, upstream: upstream, stalled: stalling)
            pairs[ObjectIdentifier(pair)] = pair
            client.start(queue: queue) { [weak self, weak pair] event in
                guard let self, let pair else { return }
                switch event {
                case .received(let buffer): self.relay([UInt8](buffer), .toServer, on: pair)
                case .inputClosed, .closed: self.close(pair)
                default: break
                }
            }
            upstream.start(queue: queue) { [weak self, weak pair] event in
                guard let self, let pair else { return }
                switch event {
                case .connected:
                    pair.upstreamReady = true
                    if !pair.stalled {
                        for chunk in pair.heldUp { pair.upstream.write(chunk) }
                        pair.heldUp = []
                    }
                case .received(let buffer): self.relay([UInt8](buffer), .toClient, on: pair)
                case .inputClosed, .closed: self.close(pair)
                default: break
                }
            }
        }
    }

    private func relay(_ bytes: [UInt8], _ direction: Direction, on pair: Pair) {
        guard pairs[ObjectIdentifier(pair)] != nil else { return }
        var bytes = bytes
        var cutAfter = false
        if let cut = midFrameCut, cut.direction == direction, bytes.count >= cut.minimumChunk {
            midFrameCut = nil
            _midFrameCuts += 1
            bytes = Array(bytes.prefix(cut.forwarded))
            cutAfter = true
        }
        switch direction {
        case .toServer:
            if pair.stalled || !pair.upstreamReady { pair.heldUp.append(bytes) } else { pair.upstream.write(bytes) }
        case .toClient:
            if pair.stalled { pair.heldDown.append(bytes) } else { pair.client.write(bytes) }
        }
        // `close` lingers until written bytes are handed to the kernel, so the part arrives.
        if cutAfter { close(pair) }
    }

    private func close(_ pair: Pair) {
        guard pairs.removeValue(forKey: ObjectIdentifier(pair)) != nil else { return }
        pair.client.close()
        pair.upstream.close()
    }
}
