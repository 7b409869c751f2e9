import XCTest
@testable import WireKit

/// The decoder must give the same frames whatever the split of its input.
final class WebSocketFrameChunkingPropertyTests: XCTestCase {
    /// SplitMix64: a small seeded generator so failures reproduce.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private func randomFrames(_ rng: inout SeededGenerator) -> [WebSocketFrame] {
        (0..<Int.random(in: 1...12, using: &rng)).map { _ in
            let opcode: WebSocketOpcode = [.text, .binary, .continuation, .ping, .pong, .close].randomElement(using: &rng) ?? .binary
            let length: Int
            if opcode.isControl {
                length = Int.random(in: 0...125, using: &rng)
            } else {
                length = [Int.random(in: 0...130, using: &rng), Int.random(in: 120...70_000, using: &rng)].randomElement(using: &rng) ?? 0
            }
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let key = Bool.random(using: &rng) ? WebSocketMaskingKey(UInt32.random(in: 0...UInt32.max, using: &rng)) : nil
            return WebSocketFrame(fin: opcode.isControl || Bool.random(using: &rng), opcode: opcode, maskingKey: key, payload: payload)
        }
    }

    func testRandomFrameStreamsDecodeIdenticallyForRandomSplits() throws {
        var rng = SeededGenerator(state: 0x5EED_6455)
        for iteration in 0..<300 {
            let frames = randomFrames(&rng)
            var stream: [UInt8] = []
            for frame in frames { WebSocketFrameEncoder.encode(frame, into: &stream) }

            var whole = WebSocketFrameDecoder(maskRequirement: .either)
            XCTAssertEqual(try whole.decode(stream), frames, "iteration \(iteration), unsplit")

            var split = WebSocketFrameDecoder(maskRequirement: .either)
            var decoded: [WebSocketFrame] = []
            var index = 0
            while index < stream.count {
                let size = [1, 2, 3, Int.random(in: 1...20, using: &rng), Int.random(in: 1...5000, using: &rng)].randomElement(using: &rng) ?? 1
                let end = min(stream.count, index + size)
                decoded += try split.decode(Array(stream[index..<end]))
                index = end
            }
            XCTAssertEqual(decoded, frames, "iteration \(iteration), split")
            XCTAssertTrue(split.isAtFrameBoundary)
        }
    }

    func testRandomStreamsDeliverTheSameMessagesThroughTheStateMachineForAnySplit() throws {
        var rng = SeededGenerator(state: 42)
        for iteration in 0..<60 {
            // A server-side view: masked frames forming valid messages.
            var stream: [UInt8] = []
            var expected: [WebSocketEvent] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let isText = Bool.random(using: &rng)
                let text = String(
                    (0..<Int.random(in: 0...3000, using: &rng)).map { _ in
                        ["a", "é", "€", "𝄞", " "].randomElement(using: &rng) ?? "a"
                    })
                let bytes = isText ? Array(text.utf8) : (0..<Int.random(in: 0...3000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let message: WebSocketEvent = isText ? .text(text) : .binary(Data(bytes))
                let pieces = Int.random(in: 1...4, using: &rng)
                let cut = (0..<pieces - 1).map { _ in Int.random(in: 0...bytes.count, using: &rng) }.sorted()
                let bounds = [0] + cut + [bytes.count]
                for p in 0..<pieces {
                    let opcode: WebSocketOpcode = p == 0 ? (isText ? .text : .binary) : .continuation
                    stream += WebSocketFrameEncoder.encode(
                        WebSocketFrame(
                            fin: p == pieces - 1, opcode: opcode,
                            maskingKey: WebSocketMaskingKey(UInt32.random(in: 0...UInt32.max, using: &rng)),
                            payload: Array(bytes[bounds[p]..<bounds[p + 1]])))
                    if p == pieces - 1 { expected.append(message) }
                    // Control frames may sit between fragments and are reported as they arrive.
                    if Bool.random(using: &rng) {
                        stream += WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .ping, maskingKey: WebSocketMaskingKey(7), payload: [1, 2]))
                        expected.append(.ping(Data([1, 2])))
                    }
                }
            }
            var machine = openServer()
            _ = machine.drainEvents()
            var index = 0
            while index < stream.count {
                let end = min(stream.count, index + Int.random(in: 1...700, using: &rng))
                machine.receive(Array(stream[index..<end]), now: ManualClock().now)
                index = end
            }
            let events = machine.drainEvents()
            XCTAssertTrue(events == expected, "iteration \(iteration): \(events.count) events, expected \(expected.count)")
        }
    }
}
