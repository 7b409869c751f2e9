import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// Arbitrary peer bytes must never crash the machine, and `closed` comes at most once.
final class WebSocketStateMachineFuzzTests: XCTestCase {
    private func countClosed(_ machine: inout WebSocketStateMachine) -> Int {
        var closed = 0
        while let event = machine.nextEvent() {
            if case .closed = event { closed += 1 }
        }
        return closed
    }

    private func mutate(_ bytes: [UInt8], _ rng: inout WebSocketFrameChunkingPropertyTests.SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        }
        return bytes
    }

    func testRandomAndMutatedFramesNeverCrashEitherRole() throws {
        var rng = WebSocketFrameChunkingPropertyTests.SeededGenerator(state: 0xF022)
        for iteration in 0..<400 {
            let role: WebSocketRole = iteration % 2 == 0 ? .client : .server
            var valid: [UInt8] = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let opcode = [WebSocketOpcode.text, .binary, .ping, .pong, .close, .continuation].randomElement(using: &rng) ?? .text
                let payload = (0..<Int.random(in: 0...(opcode.isControl ? 125 : 300), using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                valid += wireFrame(opcode, payload, fin: Bool.random(using: &rng), masked: role == .server)
            }
            let garbage = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let input = Bool.random(using: &rng) ? mutate(valid, &rng) : valid + garbage
            var machine =
                role == .server
                ? openServer(
                    configuration: configured(WebSocketConfiguration()) {
                        $0.maxFrameSize = 200; $0.maxMessageSize = 400
                    })
                : try openClient(
                    configuration: configured(WebSocketConfiguration()) {
                        $0.maxFrameSize = 200; $0.maxMessageSize = 400
                    })
            var closed = countClosed(&machine)  // drains opened
            var index = 0
            var clock = ManualClock()
            while index < input.count {
                let end = min(input.count, index + Int.random(in: 1...50, using: &rng))
                machine.receive(Array(input[index..<end]), now: clock.now)
                index = end
                closed += countClosed(&machine)
                clock.advance(.milliseconds(100))
                machine.timeElapsed(now: clock.now)
                _ = machine.takeOutput()
            }
            machine.transportClosed(now: clock.now)
            closed += countClosed(&machine)
            XCTAssertEqual(closed, 1, "iteration \(iteration)")
        }
    }

    func testRandomBytesDuringTheHandshakeNeverCrash() throws {
        var rng = WebSocketFrameChunkingPropertyTests.SeededGenerator(state: 0xBEEF)
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://h/"))
        let response = Array(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(handshake.expectedAccept)\r\nContent-Length: 5\r\n\r\n"
                .utf8)
        let request = Array(
            "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                .utf8)
        for iteration in 0..<400 {
            let isClient = iteration % 2 == 0
            var machine =
                isClient
                ? WebSocketStateMachine(client: handshake, configuration: configured(WebSocketConfiguration()) { $0.maxHandshakeHeadSize = 256 })
                : WebSocketStateMachine(server: configured(WebSocketConfiguration()) { $0.maxHandshakeHeadSize = 256 })
            machine.start(now: ManualClock().now)
            let input =
                mutate(isClient ? response : request, &rng) + (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var index = 0
            var closed = 0
            while index < input.count {
                let end = min(input.count, index + Int.random(in: 1...40, using: &rng))
                machine.receive(Array(input[index..<end]), now: ManualClock().now)
                index = end
                closed += countClosed(&machine)
            }
            machine.transportClosed(now: ManualClock().now)
            closed += countClosed(&machine)
            XCTAssertEqual(closed, 1, "iteration \(iteration)")
        }
    }
}
