import Foundation
import XCTest
import TestSupport
@testable import WireKit

/// What a hostile peer can make the sans-I/O core hold: one pong however many pings arrive, an
/// unfinished message only until its deadline, and message storage only within the shared budget.
final class HostilePeerStateMachineTests: XCTestCase {
    private func pongs(_ frames: [WebSocketFrame]) -> [[UInt8]] {
        frames.filter { $0.opcode == .pong }.map(\.payload)
    }

    private func closedInfo(_ events: [WebSocketEvent]) -> WebSocketCloseInfo? {
        events.lazy.compactMap { event -> WebSocketCloseInfo? in
            if case .closed(let info) = event { return info }
            return nil
        }.first
    }

    // MARK: Pong coalescing

    func testEveryPingOfAReadIsAnsweredWhilePongsFlow() {
        // Autobahn|Testsuite case 2.10: ten pings in one read, ten pongs with their payloads.
        let clock = ManualClock()
        var server = openServer(clock: clock)
        _ = server.drainEvents()
        _ = server.takeOutput()
        var pings: [UInt8] = []
        for n in 0..<10 { pings += wireFrame(.ping, Array("payload \(n)".utf8), masked: true) }
        server.receive(pings, now: clock.now)
        XCTAssertEqual(pongs(server.drainFrames()), (0..<10).map { Array("payload \($0)".utf8) })
    }

    func testManyPingsWhilePongsAreHeldBackGetOnePongForTheLatest() {
        let clock = ManualClock()
        var server = openServer(clock: clock)
        _ = server.drainEvents()
        var written: [UInt8] = []
        // The driver's pump while its last pong still waits in the transport.
        XCTAssertFalse(server.takeOutput(appendingTo: &written, includingPong: false))
        var flood: [UInt8] = []
        for n in 0..<1_000 { flood += wireFrame(.ping, [UInt8(n & 0xFF), UInt8(n >> 8)], masked: true) }
        server.receive(flood, now: clock.now)
        XCTAssertEqual(server.drainEvents().count, 1_000, "every ping is still reported")
        XCTAssertTrue(server.owesPong)
        XCTAssertEqual(server.pendingOutputCount, 4, "one pong frame: 2 header bytes and the 2-byte payload")
        XCTAssertEqual(pongs(server.drainFrames()), [[UInt8(999 & 0xFF), UInt8(999 >> 8)]])
        XCTAssertFalse(server.owesPong)
    }

    func testPongHeldBackIsReplacedByLaterPingsAndCountsAsOutput() throws {
        let clock = ManualClock()
        var client = try openClient(clock: clock)
        _ = client.drainEvents()
        client.receive(wireFrame(.ping, [1], masked: false), now: clock.now)
        var written: [UInt8] = []
        XCTAssertTrue(client.takeOutput(appendingTo: &written, includingPong: true))
        XCTAssertEqual(written.count, 2 + 4 + 1, "the client's pong is masked")
        // The transport still holds that pong: the driver's next pump holds pongs back, and
        // newer pings only replace the one owed.
        var nothing: [UInt8] = []
        XCTAssertFalse(client.takeOutput(appendingTo: &nothing, includingPong: false))
        for payload in 2...500 { client.receive(wireFrame(.ping, [UInt8(payload & 0xFF)], masked: false), now: clock.now) }
        try client.sendText("data")
        var held: [UInt8] = []
        XCTAssertFalse(client.takeOutput(appendingTo: &held, includingPong: false))
        var decoder = WebSocketFrameDecoder(maskRequirement: .either)
        XCTAssertEqual(try decoder.decode(held).map(\.opcode), [.text], "data goes out, the pong stays owed")
        XCTAssertTrue(client.owesPong)
        XCTAssertTrue(client.hasOutput)
        XCTAssertEqual(client.pendingOutputCount, 2 + 4 + 1, "the owed pong counts against the write limit")
        XCTAssertEqual(pongs(client.drainFrames()), [[UInt8(500 & 0xFF)]])
    }

    func testOwedPongGoesOutBeforeTheCloseFrame() {
        let clock = ManualClock()
        var server = openServer(clock: clock)
        _ = server.takeOutput()
        server.receive(wireFrame(.ping, [7], masked: true), now: clock.now)
        server.close(code: .goingAway, now: clock.now)
        XCTAssertEqual(server.drainFrames().map(\.opcode), [.pong, .close])
        server.receive(wireFrame(.ping, [8], masked: true), now: clock.now)
        XCTAssertFalse(server.owesPong, "no pong after our close frame")
    }

    // MARK: Message deadline

    func testUnfinishedMessageFailsWithPolicyViolationAtItsDeadline() {
        var clock = ManualClock()
        var server = openServer(configuration: configured(WebSocketConfiguration()) { $0.messageTimeout = .seconds(5) }, clock: clock)
        _ = server.drainEvents()
        _ = server.takeOutput()
        server.receive(wireFrame(.text, "begin", fin: false, masked: true), now: clock.now)
        XCTAssertEqual(server.nextDeadline, clock.now + .seconds(5))
        clock.advance(.seconds(3))
        // Frames of the same message, and control frames, do not move its deadline.
        server.receive(wireFrame(.continuation, "more", fin: false, masked: true) + wireFrame(.ping, [], masked: true), now: clock.now)
        clock.advance(.milliseconds(1_999))
        server.timeElapsed(now: clock.now)
        XCTAssertEqual(server.phase, .open)
        clock.advance(.milliseconds(1))
        server.timeElapsed(now: clock.now)
        let info = closedInfo(server.drainEvents())
        XCTAssertEqual(info?.code, .policyViolation)
        XCTAssertEqual(info?.error, .timedOut(.message(limit: .seconds(5))))
        let close = server.drainFrames().last
        XCTAssertEqual(close?.opcode, .close)
        XCTAssertEqual(close?.payload.prefix(2).map { $0 }, [0x03, 0xF0], "1008 on the wire")
        XCTAssertTrue(server.wantsTransportClosed)
    }

    func testEachMessageGetsItsOwnDeadlineAndAWholeMessageNone() {
        var clock = ManualClock()
        var server = openServer(configuration: configured(WebSocketConfiguration()) { $0.messageTimeout = .seconds(5) }, clock: clock)
        _ = server.drainEvents()
        server.receive(wireFrame(.text, "whole", masked: true), now: clock.now)
        XCTAssertNil(server.nextDeadline, "a message delivered within its read arms nothing")
        server.receive(wireFrame(.text, "a", fin: false, masked: true), now: clock.now)
        clock.advance(.seconds(4))
        // The first message ends and a second one starts in the same read: its deadline is new.
        server.receive(wireFrame(.continuation, "b", masked: true) + wireFrame(.binary, [1], fin: false, masked: true), now: clock.now)
        XCTAssertEqual(server.nextDeadline, clock.now + .seconds(5))
        server.receive(wireFrame(.continuation, [2], masked: true), now: clock.now)
        XCTAssertNil(server.nextDeadline)
        XCTAssertEqual(server.drainEvents(), [.text("whole"), .text("ab"), .binary(Data([1, 2]))])
    }

    // MARK: Shared budget for unfinished messages

    /// A masked frame header announcing `length` bytes (payload to follow, masked with key 0).
    private func header(_ opcode: WebSocketOpcode, length: Int, fin: Bool = true) -> [UInt8] {
        [(fin ? 0x80 : 0) | opcode.rawValue, 0x80 | 127] + withUnsafeBytes(of: UInt64(length).bigEndian, Array.init) + [0, 0, 0, 0]
    }

    func testBudgetRefusesTheMessageThatWouldTakeItPastItsLimitAndIsGivenBackAtTheEnd() {
        let clock = ManualClock()
        let budget = PartialMessageBudget(limit: 1 << 20)
        let configuration = configured(WebSocketConfiguration()) { $0.partialMessageBudget = budget }
        var first = openServer(configuration: configuration, clock: clock)
        var second = openServer(configuration: configuration, clock: clock)
        _ = first.drainEvents()
        _ = second.drainEvents()
        // Each announces 16 MiB; the first holds 700 KiB (storage 1 MiB once grown past 512 KiB).
        first.receive(header(.binary, length: 16 << 20 - 1), now: clock.now)
        for _ in 0..<7 { first.receive([UInt8](repeating: 1, count: 100 << 10), now: clock.now) }
        XCTAssertEqual(first.phase, .open)
        XCTAssertGreaterThan(budget.reservedBytes, 512 << 10)
        XCTAssertLessThanOrEqual(budget.reservedBytes, 1 << 20)
        // The second gets its free 64 KiB, then is refused when it needs more.
        second.receive(header(.binary, length: 16 << 20 - 1), now: clock.now)
        second.receive([UInt8](repeating: 2, count: 60 << 10), now: clock.now)
        XCTAssertEqual(second.phase, .open)
        second.receive([UInt8](repeating: 2, count: 100 << 10), now: clock.now)
        let info = closedInfo(second.drainEvents())
        XCTAssertEqual(info?.code, .messageTooBig)
        guard let error = info?.error, error.code == .partialMessageBudgetExceeded, let limit = error.limit else {
            return XCTFail("\(String(describing: info))")
        }
        XCTAssertEqual(limit, 1 << 20)
        // The first ends without finishing: all it held goes back.
        first.transportClosed(now: clock.now)
        XCTAssertEqual(budget.reservedBytes, 0)
    }

    func testBudgetCoversFragmentedTextAndIsGivenBackWhenTheMessageIsDelivered() {
        let clock = ManualClock()
        let budget = PartialMessageBudget(limit: 4 << 20)
        var server = openServer(configuration: configured(WebSocketConfiguration()) { $0.partialMessageBudget = budget }, clock: clock)
        _ = server.drainEvents()
        let chunk = String(repeating: "x", count: 200 << 10)
        server.receive(wireFrame(.text, chunk, fin: false, masked: true), now: clock.now)
        server.receive(wireFrame(.continuation, chunk, fin: false, masked: true), now: clock.now)
        XCTAssertGreaterThanOrEqual(budget.reservedBytes, 400 << 10)
        server.receive(wireFrame(.continuation, "!", masked: true), now: clock.now)
        XCTAssertEqual(server.drainEvents(), [.text(chunk + chunk + "!")])
        XCTAssertEqual(budget.reservedBytes, 0)
    }

    func testBudgetBoundsInflatedOutputOfACompressedMessage() throws {
        guard ZlibLibrary.isAvailable else { throw XCTSkip("no zlib") }
        let clock = ManualClock()
        let budget = PartialMessageBudget(limit: 256 << 10)
        let deflate = configured(PerMessageDeflateOptions()) { $0.minimumMessageSize = 0 }
        var server = WebSocketStateMachine(
            server: configured(WebSocketConfiguration()) {
                $0.perMessageDeflate = deflate; $0.partialMessageBudget = budget
            })
        server.start(now: clock.now)
        // Handshake through both machines so permessage-deflate is negotiated.
        let handshake = try ClientHandshake(url: try WebSocketURL("ws://example.com/chat"))
        var client = WebSocketStateMachine(client: handshake, configuration: configured(WebSocketConfiguration()) { $0.perMessageDeflate = deflate })
        client.start(now: clock.now)
        server.receive(client.takeOutput(), now: clock.now)
        client.receive(server.takeOutput(), now: clock.now)
        _ = client.drainEvents()
        _ = server.drainEvents()
        XCTAssertNotNil(server.perMessageDeflateParameters)
        // 1 MiB of zeros compresses to about 1 KiB: sent as a compressed first fragment whose
        // continuation never comes, it inflates within one read and must stop at the budget.
        try client.sendBinary([UInt8](repeating: 0, count: 1 << 20))
        var wire = client.takeOutput()
        wire[0] &= 0x7F  // clear FIN: the message stays unfinished
        server.receive(wire, now: clock.now)
        let info = closedInfo(server.drainEvents())
        guard case .partialMessageBudgetExceeded? = info?.error else { return XCTFail("\(String(describing: info))") }
        XCTAssertEqual(budget.reservedBytes, 0)
    }
}
