import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// The non-async `write` against a peer that stops reading: bounded by `writeLimit`, refused with
/// a typed error (nothing queued), and accepted again once the peer drains.
final class WebSocketWriteLimitTests: XCTestCase {
    func testWriteToAStalledPeerFailsTypedAtTheLimitAndRecoversOnceDrained() async throws {
        let peer = try StalledWebSocketPeer()
        defer { peer.stop() }
        var options = WebSocketOptions()
        options.writeLimit = 2 << 20
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        try await client.connect()
        let chunk = Data(testBytes(count: 256 << 10))
        var accepted = 0
        var refusal: WebSocketError?
        // Far more than the kernel's buffers and the limit: 256 MiB if nothing refused.
        for _ in 0..<1_024 {
            do {
                try client.write(data: chunk)
                accepted += 1
            } catch {
                refusal = error
                break
            }
            // Let the queue hand what it can to the kernel, as an app writing over time would.
            if accepted % 8 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        guard let refusal, refusal.code == .sendBufferFull, let buffered = refusal.bufferedBytes, let limit = refusal.limit else {
            return XCTFail("expected sendBufferFull after \(accepted) writes, got \(String(describing: refusal))")
        }
        XCTAssertEqual(limit, 2 << 20)
        XCTAssertGreaterThan(buffered + chunk.count, limit)  // below the limit, writes were accepted
        XCTAssertLessThanOrEqual(client.bufferedAmount, limit)  // never beyond it
        XCTAssertLessThan(accepted, 1_024)
        peer.startDraining()
        for _ in 0..<500 where client.bufferedAmount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(client.bufferedAmount, 0)
        XCTAssertNoThrow(try client.write(data: chunk))
    }

    /// Writes made inside a callback run on the connection's queue and are checked there
    /// (`sendOnQueue`): a burst inside one callback is refused at the limit too, although no
    /// pump finished in between to refresh the buffered amount.
    func testABurstInsideOneCallbackIsRefusedAtTheLimit() async throws {
        let peer = try StalledWebSocketPeer()
        defer { peer.stop() }
        var options = WebSocketOptions()
        options.writeLimit = 2 << 20
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        let chunk = Data(testBytes(count: 64 << 10))
        let outcome = LockedBox<(accepted: Int, refusal: WebSocketError?)?>(nil)
        client.onOpen = { [weak client] _ in
            guard let client else { return }
            var accepted = 0
            // 64 MiB if nothing refused; nothing reaches the kernel until this callback returns.
            for _ in 0..<1_024 {
                do {
                    try client.write(data: chunk)
                    accepted += 1
                } catch {
                    outcome.mutate { $0 = (accepted, error as? WebSocketError) }
                    return
                }
            }
            outcome.mutate { $0 = (accepted, nil) }
        }
        try await client.connect()
        for _ in 0..<500 where outcome.value == nil { try await Task.sleep(for: .milliseconds(10)) }
        let result = try XCTUnwrap(outcome.value)
        guard let refusal = result.refusal, refusal.code == .sendBufferFull, let buffered = refusal.bufferedBytes, let limit = refusal.limit
        else {
            return XCTFail("expected sendBufferFull after \(result.accepted) writes, got \(String(describing: result.refusal))")
        }
        XCTAssertEqual(limit, 2 << 20)
        XCTAssertGreaterThan(buffered + chunk.count, limit)
        XCTAssertLessThanOrEqual(result.accepted * chunk.count, limit + chunk.count, "accepted beyond the limit")
        XCTAssertGreaterThanOrEqual(result.accepted, limit / (chunk.count + 14) - 1, "refused well below the limit")
    }

    func testAMessageLargerThanTheLimitFitsAnEmptyBuffer() async throws {
        let peer = try StalledWebSocketPeer()
        defer { peer.stop() }
        var options = WebSocketOptions()
        options.writeLimit = 1_024
        let client = try WebSocket(url: "ws://127.0.0.1:\(peer.port)/", options: options)
        try await client.connect()
        let big = Data(testBytes(count: 64 << 10))
        XCTAssertNoThrow(try client.write(data: big))  // empty buffer: accepted
        for _ in 0..<100 where client.bufferedAmount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        // 64 KiB may all fit the kernel's buffer; the next ones must not pass the limit.
        var refused = false
        for _ in 0..<200 {
            do { try client.write(data: big) } catch { refused = true; break }
            try await Task.sleep(for: .milliseconds(2))
        }
        XCTAssertTrue(refused)
        XCTAssertLessThanOrEqual(client.bufferedAmount, 64 << 10)
        peer.startDraining()
    }
}
