import Foundation
import XCTest
@testable import WireKit

/// permessage-deflate against Python `websockets` in both roles, for each negotiation variant:
/// its server with its own settings against our default client offer, and its client's offers
/// against our server.
final class PerMessageDeflateInteropTests: XCTestCase {
    /// Peer settings and the parameters both sides must end up with.
    private static let variants: [([String], PerMessageDeflateParameters)] = [
        ([], PerMessageDeflateParameters()),
        (["client_no_context_takeover=1"], PerMessageDeflateParameters(clientNoContextTakeover: true)),
        (["server_no_context_takeover=1"], PerMessageDeflateParameters(serverNoContextTakeover: true)),
        (["server_max_window_bits=10"], PerMessageDeflateParameters(serverMaxWindowBits: 10)),
        (["client_max_window_bits=11"], PerMessageDeflateParameters(clientMaxWindowBits: 11)),
        (
            ["server_no_context_takeover=1", "client_no_context_takeover=1", "server_max_window_bits=9", "client_max_window_bits=9"],
            PerMessageDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 9, clientMaxWindowBits: 9)
        ),
    ]

    private func json(_ size: Int) -> String {
        String(String(repeating: #"{"channel": "chat/lobby", "data": {"name": "ann", "text": "hello there"}}, "#, count: size / 70 + 1).prefix(size))
    }

    func testOurClientAgainstWebsocketsServerForEachVariant() async throws {
        for (settings, expected) in Self.variants {
            let peer = try PythonPeer(script: "deflate_peer.py", arguments: ["server"] + settings)
            defer { peer.stop() }
            let line = try await peer.line(startingWith: "PORT ")
            let client = try WebSocket(url: "ws://127.0.0.1:\(line.dropFirst(5))/")
            try await client.connect()
            XCTAssertEqual(client.handshakeInfo?.perMessageDeflate, expected, "\(settings)")
            var iterator = client.messages.makeAsyncIterator()
            for size in [10, 4096, 1 << 20] {
                let text = json(size), bytes = Array(text.utf8)
                for _ in 0..<3 {
                    try await client.send(text: text)
                    let echoed = await iterator.next()
                    XCTAssertEqual(echoed, .text(text), "\(settings) \(size)")
                    try await client.send(bytes: bytes)
                    let binary = await iterator.next()
                    XCTAssertEqual(binary, .binary(Data(bytes)), "\(settings) \(size)")
                }
            }
            let info = await client.close()
            XCTAssertTrue(info.wasClean)
            let ext = try await peer.line(startingWith: "EXT ")
            XCTAssertTrue(ext.hasPrefix("EXT permessage-deflate"), ext)
        }
    }

    func testWebsocketsClientAgainstOurServerForEachVariant() async throws {
        var options = WebSocketServerOptions()
        options.perMessageDeflate = PerMessageDeflateOptions()
        let negotiated = NegotiationLog()
        let server = try WebSocketServer.start(host: "127.0.0.1", port: 0, options: options) { connection in
            connection.onOpen = { info in negotiated.append(info.perMessageDeflate) }
            connection.onText = { [weak connection] text in try? connection?.write(text: text) }
            connection.onBinary = { [weak connection] data in try? connection?.write(data: data) }
        }
        defer { Task { await server.stop() } }
        var clientVariants = Self.variants.map { ($0.0, $0.1) }
        // The bare offer: the server may pick, ours leaves 15.
        clientVariants.append((["client_max_window_bits=bare"], PerMessageDeflateParameters()))
        for (settings, expected) in clientVariants {
            let peer = try PythonPeer(script: "deflate_peer.py", arguments: ["client", "ws://127.0.0.1:\(server.port)/"] + settings)
            defer { peer.stop() }
            let status = try await peer.exitStatus(timeout: 60)
            XCTAssertEqual(status, 0, "\(settings): \(peer.output)")
            XCTAssertEqual(peer.output.filter { $0.hasPrefix("OK ") }.count, 6, "\(settings): \(peer.output)")
            XCTAssertEqual(negotiated.last, expected, "\(settings)")
        }
    }
}

/// The parameters each accepted connection negotiated, in order.
private final class NegotiationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [PerMessageDeflateParameters?] = []
    func append(_ entry: PerMessageDeflateParameters?) { lock.withLock { entries.append(entry) } }
    var last: PerMessageDeflateParameters?? { lock.withLock { entries.last } }
}
