import Foundation
import XCTest
@testable import WireKit

/// A manual clock for driving state machines in tests.
struct ManualClock {
    var now = WebSocketInstant(nanoseconds: 1_000_000_000)
    mutating func advance(_ duration: Duration) { now = now + duration }
}

extension WebSocketStateMachine {
    /// Every event queued so far.
    mutating func drainEvents() -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        while let event = nextEvent() { events.append(event) }
        return events
    }

    /// Every frame in the pending output, decoded (with a decoder accepting either masking).
    mutating func drainFrames(file: StaticString = #filePath, line: UInt = #line) -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder(maskRequirement: .either)
        do {
            return try decoder.decode(takeOutput())
        } catch {
            XCTFail("output does not decode: \(error)", file: file, line: line)
            return []
        }
    }
}

/// Builds frames as a peer would put them on the wire.
func wireFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, masked: Bool, reservedBits: UInt8 = 0) -> [UInt8] {
    WebSocketFrameEncoder.encode(
        WebSocketFrame(
            fin: fin, reservedBits: reservedBits, opcode: opcode,
            maskingKey: masked ? WebSocketMaskingKey(0x37FA_213D) : nil, payload: payload))
}

func wireFrame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true, masked: Bool) -> [UInt8] {
    wireFrame(opcode, Array(text.utf8), fin: fin, masked: masked)
}

/// Close frame payload: code plus reason bytes.
func closePayload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
    [UInt8(code >> 8), UInt8(code & 0xFF)] + reason
}

/// A client state machine that completed its handshake; the events and output so far are drained.
func openClient(configuration: WebSocketConfiguration = WebSocketConfiguration(), clock: ManualClock = ManualClock(), extraBytes: [UInt8] = []) throws
    -> WebSocketStateMachine
{
    let handshake = try ClientHandshake(url: try WebSocketURL("ws://example.com/chat"))
    var machine = WebSocketStateMachine(client: handshake, configuration: configuration)
    machine.start(now: clock.now)
    _ = machine.takeOutput()
    let response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(handshake.expectedAccept)\r\n\r\n"
    machine.receive(Array(response.utf8) + extraBytes, now: clock.now)
    return machine
}

/// A server state machine that accepted a valid upgrade request.
func openServer(configuration: WebSocketConfiguration = WebSocketConfiguration(), clock: ManualClock = ManualClock(), extraBytes: [UInt8] = [])
    -> WebSocketStateMachine
{
    var machine = WebSocketStateMachine(server: configuration)
    machine.start(now: clock.now)
    let request =
        "GET /chat HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    machine.receive(Array(request.utf8) + extraBytes, now: clock.now)
    return machine
}
