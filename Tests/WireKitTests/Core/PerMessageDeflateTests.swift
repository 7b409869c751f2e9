import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// permessage-deflate in the state machine, both roles, without a network: negotiation, RSV1,
/// control frames, the trailer, context takeover and the inflated-size limit.
final class PerMessageDeflateTests: XCTestCase {
    private let clock = ManualClock()

    /// A client and a server machine wired to each other through their outputs.
    private func pair(
        client: PerMessageDeflateOptions? = PerMessageDeflateOptions(), server: PerMessageDeflateOptions? = PerMessageDeflateOptions(),
        maxMessageSize: Int = 16 << 20
    ) throws -> (WebSocketStateMachine, WebSocketStateMachine) {
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://example.com/chat"))
        var c = WebSocketStateMachine(
            client: handshake,
            configuration: configured(WebSocketConfiguration()) {
                $0.maxFrameSize = maxMessageSize; $0.maxMessageSize = maxMessageSize; $0.perMessageDeflate = client
            })
        var s = WebSocketStateMachine(
            server: configured(WebSocketConfiguration()) {
                $0.maxFrameSize = maxMessageSize; $0.maxMessageSize = maxMessageSize; $0.perMessageDeflate = server
            })
        c.start(now: clock.now)
        s.start(now: clock.now)
        s.receive(c.takeOutput(), now: clock.now)
        c.receive(s.takeOutput(), now: clock.now)
        XCTAssertEqual(c.phase, .open)
        XCTAssertEqual(s.phase, .open)
        _ = c.drainEvents()
        _ = s.drainEvents()
        return (c, s)
    }

    private let json = String(repeating: #"{"channel":"chat/lobby","data":{"name":"ann","text":"hello there"}},"#, count: 40)

    func testBothRolesNegotiateAndCompressWithRSV1OnlyOnDataFrames() throws {
        var (c, s) = try pair()
        XCTAssertEqual(c.perMessageDeflateParameters, PerMessageDeflateParameters())
        XCTAssertEqual(s.perMessageDeflateParameters, PerMessageDeflateParameters())
        try c.sendText(json)
        try c.sendPing([1, 2, 3])
        let wire = c.takeOutput()
        var decoder = WebSocketFrameDecoder(maskRequirement: .either, allowedReservedBits: 0b100)
        let frames = try decoder.decode(wire)
        XCTAssertEqual(frames.map(\.reservedBits), [0b100, 0])
        XCTAssertLessThan(frames[0].payload.count, json.utf8.count / 5)
        XCTAssertFalse(frames[0].payload.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]), "the trailer is removed")
        s.receive(wire, now: clock.now)
        XCTAssertEqual(s.drainEvents(), [.text(json), .ping(Data([1, 2, 3]))])
        // Server to client, several messages sharing the context.
        for _ in 0..<3 { try s.sendBinary(Array(json.utf8)) }
        let back = s.takeOutput()
        c.receive(back, now: clock.now)
        XCTAssertEqual(c.drainEvents(), [.pong(Data([1, 2, 3]))] + Array(repeating: .binary(Data(json.utf8)), count: 3))
    }

    func testSmallMessagesGoUncompressedAndEmptyCompressedMessageIsOneZeroByte() throws {
        var (c, s) = try pair(client: configured(PerMessageDeflateOptions()) { $0.minimumMessageSize = 10 })
        try c.sendText("hi")
        var frames = c.drainFrames()
        XCTAssertEqual(frames.map(\.reservedBits), [0])
        (c, s) = try pair(client: configured(PerMessageDeflateOptions()) { $0.minimumMessageSize = 0 })
        try c.sendText("")
        let wire = c.takeOutput()
        var decoder = WebSocketFrameDecoder(maskRequirement: .either, allowedReservedBits: 0b100)
        frames = try decoder.decode(wire)
        XCTAssertEqual(frames.first?.payload, [0x00])
        s.receive(wire, now: clock.now)
        XCTAssertEqual(s.drainEvents(), [.text("")])
    }

    func testFragmentedCompressedMessageFromThePeerAndTrailerPresent() throws {
        var (c, _) = try pair()
        // Compress with a peer machine's codec: then split into three frames, RSV1 on the first only.
        var codec = PerMessageDeflate(parameters: PerMessageDeflateParameters(), role: .server, options: PerMessageDeflateOptions(), maxMessageSize: 1 << 20)
        var body: [UInt8] = []
        XCTAssertTrue(json.utf8.withContiguousStorageIfAvailable { codec.compress(UnsafeRawBufferPointer($0)) { body = Array($0) } } ?? false)
        let third = body.count / 3
        let wire =
            wireFrame(.text, Array(body[..<third]), fin: false, masked: false, reservedBits: 0b100)
            + wireFrame(.continuation, Array(body[third..<(2 * third)]), fin: false, masked: false)
            + wireFrame(.ping, [7], masked: false)
            + wireFrame(.continuation, Array(body[(2 * third)...]) + [0, 0, 0xFF, 0xFF], fin: true, masked: false)
        for byte in wire { c.receive([byte], now: clock.now) }
        XCTAssertEqual(c.drainEvents(), [.ping(Data([7])), .text(json)])
    }

    func testRSV1OnContinuationOrControlFramesIsAProtocolError() throws {
        let cases: [([UInt8], WebSocketProtocolViolation)] = [
            (
                wireFrame(.text, [0x00], fin: false, masked: false, reservedBits: 0b100) + wireFrame(.continuation, [0x00], masked: false, reservedBits: 0b100),
                .compressedContinuationFrame
            ),
            (wireFrame(.ping, [], masked: false, reservedBits: 0b100), .compressedControlFrame(.ping)),
            (
                wireFrame(.text, [0x61], fin: false, masked: false) + wireFrame(.text, [0x00], masked: false, reservedBits: 0b100),
                .compressedFrameInsideFragmentedMessage(.text)
            ),
        ]
        for (wire, violation) in cases {
            var (c, _) = try pair()
            c.receive(wire, now: clock.now)
            guard case .closed(let info)? = c.drainEvents().last else { return XCTFail("not closed") }
            XCTAssertEqual(info.code, .protocolError)
            XCTAssertEqual(info.error, .protocolViolation(violation))
        }
        // Without negotiation RSV1 stays a protocol error.
        var (c, _) = try pair(server: nil)
        XCTAssertNil(c.perMessageDeflateParameters)
        c.receive(wireFrame(.text, [0x00], masked: false, reservedBits: 0b100), now: clock.now)
        guard case .closed(let info)? = c.drainEvents().last else { return XCTFail("not closed") }
        XCTAssertEqual(info.code, .protocolError)
    }

    func testDecompressionBombFailsWith1009AtTheLimit() throws {
        var (c, s) = try pair(maxMessageSize: 64 << 10)
        _ = s
        // 4 MiB of zeros deflate to about 4 KiB: well under the frame limit, far over the message limit.
        var codec = PerMessageDeflate(
            parameters: PerMessageDeflateParameters(), role: .server, options: configured(PerMessageDeflateOptions()) { $0.level = 9 }, maxMessageSize: .max)
        var bomb: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 4 << 20)
        XCTAssertTrue(zeros.withUnsafeBytes { codec.compress($0) { bomb = Array($0) } })
        XCTAssertLessThan(bomb.count, 64 << 10)
        c.receive(wireFrame(.binary, bomb, masked: false, reservedBits: 0b100), now: clock.now)
        guard case .closed(let info)? = c.drainEvents().last else { return XCTFail("not closed") }
        XCTAssertEqual(info.code, .messageTooBig)
        guard let error = info.error, error.code == .messageTooBig, let size = error.size, let limit = error.limit else {
            return XCTFail("\(String(describing: info.error))")
        }
        XCTAssertEqual(limit, 64 << 10)
        XCTAssertLessThanOrEqual(size, UInt64(64 << 10) + 1)
    }

    func testCorruptDataIsAProtocolError() throws {
        var (c, _) = try pair()
        c.receive(wireFrame(.text, [0xFF, 0xFF, 0xFF, 0xFF], masked: false, reservedBits: 0b100), now: clock.now)
        guard case .closed(let info)? = c.drainEvents().last else { return XCTFail("not closed") }
        XCTAssertEqual(info.code, .protocolError)
    }

    func testNoContextTakeoverAndWindowBitsVariants() throws {
        let variants: [(PerMessageDeflateOptions, PerMessageDeflateOptions, PerMessageDeflateParameters)] = [
            (
                configured(PerMessageDeflateOptions()) { $0.clientNoContextTakeover = true }, PerMessageDeflateOptions(),
                PerMessageDeflateParameters(clientNoContextTakeover: true)
            ),
            (
                configured(PerMessageDeflateOptions()) { $0.serverNoContextTakeover = true }, PerMessageDeflateOptions(),
                PerMessageDeflateParameters(serverNoContextTakeover: true)
            ),
            (
                configured(PerMessageDeflateOptions()) { $0.serverMaxWindowBits = 10 }, PerMessageDeflateOptions(),
                PerMessageDeflateParameters(serverMaxWindowBits: 10)
            ),
            (
                PerMessageDeflateOptions(), configured(PerMessageDeflateOptions()) { $0.clientMaxWindowBits = 9 },
                PerMessageDeflateParameters(clientMaxWindowBits: 9)
            ),
            (
                configured(PerMessageDeflateOptions()) { $0.clientMaxWindowBits = 11 },
                configured(PerMessageDeflateOptions()) {
                    $0.serverMaxWindowBits = 12; $0.serverNoContextTakeover = true
                },
                PerMessageDeflateParameters(serverNoContextTakeover: true, serverMaxWindowBits: 12, clientMaxWindowBits: 11)
            ),
        ]
        for (clientOptions, serverOptions, expected) in variants {
            var (c, s) = try pair(client: clientOptions, server: serverOptions)
            XCTAssertEqual(c.perMessageDeflateParameters, expected, "\(clientOptions) / \(serverOptions)")
            XCTAssertEqual(s.perMessageDeflateParameters, expected)
            for _ in 0..<3 {
                try c.sendText(json)
                s.receive(c.takeOutput(), now: clock.now)
                try s.sendText(json)
                c.receive(s.takeOutput(), now: clock.now)
            }
            XCTAssertEqual(s.drainEvents(), Array(repeating: .text(json), count: 3))
            XCTAssertEqual(c.drainEvents(), Array(repeating: .text(json), count: 3))
        }
    }

    func testServerPicksTheFirstAcceptableOfSeveralOffers() {
        let options = PerMessageDeflateOptions()
        let offers = [
            "x-webkit-deflate-frame, permessage-deflate; server_max_window_bits=99, permessage-deflate; bogus, permessage-deflate; client_max_window_bits=10; server_no_context_takeover",
            "permessage-deflate",
        ]
        let picked = PerMessageDeflateNegotiation.respond(to: offers, options: options)
        XCTAssertEqual(picked?.0, PerMessageDeflateParameters(serverNoContextTakeover: true, clientMaxWindowBits: 10))
        XCTAssertEqual(picked?.1, "permessage-deflate; server_no_context_takeover; client_max_window_bits=10")
        XCTAssertEqual(
            PerMessageDeflateNegotiation.respond(
                to: ["permessage-deflate; client_max_window_bits"], options: configured(PerMessageDeflateOptions()) { $0.clientMaxWindowBits = 12 })?.1,
            "permessage-deflate; client_max_window_bits=12")
        XCTAssertNil(PerMessageDeflateNegotiation.respond(to: ["permessage-deflate; server_no_context_takeover=1"], options: options))
        XCTAssertNil(PerMessageDeflateNegotiation.respond(to: ["foo"], options: options))
        XCTAssertEqual(PerMessageDeflateNegotiation.offer(options), "permessage-deflate; client_max_window_bits")
    }

    func testClientRejectsAMalformedOrUnsupportedAnswer() throws {
        let options = configured(PerMessageDeflateOptions()) { $0.clientMaxWindowBits = 12 }
        for bad in [
            "permessage-deflate; foo", "permessage-deflate; server_max_window_bits=16", "permessage-deflate; client_max_window_bits=13",
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover", "x-other", "permessage-deflate, permessage-deflate",
            "permessage-deflate; client_no_context_takeover=yes", "permessage-deflate; server_max_window_bits",
        ] {
            XCTAssertThrowsError(try PerMessageDeflateNegotiation.accept(answer: [bad], offered: options), bad) {
                guard case WebSocketError.Code.invalidHandshakeResponse = $0 else { return XCTFail("\($0)") }
            }
        }
        XCTAssertNil(try PerMessageDeflateNegotiation.accept(answer: [], offered: options))
        // Through the machine: the handshake fails (1006, invalid response).
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://example.com/chat"))
        var machine = WebSocketStateMachine(client: handshake, configuration: configured(WebSocketConfiguration()) { $0.perMessageDeflate = options })
        machine.start(now: clock.now)
        let request = String(decoding: machine.takeOutput(), as: UTF8.self)
        XCTAssertTrue(request.contains("\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=12\r\n\r\n"), request)
        machine.receive(
            Array(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(handshake.expectedAccept)\r\nSec-WebSocket-Extensions: permessage-deflate; mystery\r\n\r\n"
                    .utf8), now: clock.now)
        guard case .closed(let info)? = machine.drainEvents().last, case .invalidHandshakeResponse? = info.error else { return XCTFail("not failed") }
    }
}
