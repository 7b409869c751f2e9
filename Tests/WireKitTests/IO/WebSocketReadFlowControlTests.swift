import Dispatch
import Foundation
import XCTest
@testable import WireKit

/// Read-side flow control over loopback: an unread `messages` stream, or `pauseReading()`, stops
/// the client reading its socket, so the server's `send` waits instead of either side buffering
/// without bound; nothing is lost or reordered once reading resumes.
final class WebSocketReadFlowControlTests: XCTestCase {
    /// A server that sends `count` numbered messages of `size` bytes with the async `send` (which
    /// waits above its high-water mark) and counts how many it got out.
    private func floodingServer(count: Int, size: Int, sent: LockedBox<Int>) throws -> WebSocketServer {
        try WebSocketServer.start { connection in
            Task {
                let padding = String(repeating: "p", count: size)
                for n in 0..<count {
                    do { try await connection.send(text: "\(n) \(padding)") } catch { return }
                    sent.value = n + 1
                }
            }
        }
    }

    /// Waits until `sent` stops moving (the flood is held back) and returns where it stopped.
    private func waitForStall(_ sent: LockedBox<Int>, count: Int) async throws -> Int {
        var last = -1
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(200))
            let now = sent.value
            if now == last && now > 0 { return now }
            last = now
        }
        XCTFail("the server's sends never stalled (\(sent.value) of \(count) sent)")
        return last
    }

    func testAnUnreadMessagesStreamStopsReadingUntilConsumed() async throws {
        let count = 4_000, size = 32 << 10  // 128 MiB if nothing pushed back
        let sent = LockedBox(0)
        let server = try floodingServer(count: count, size: size, sent: sent)
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        try await client.connect()
        let stalled = try await waitForStall(sent, count: count)
        XCTAssertLessThan(stalled, count, "the server sent everything although nobody read")
        // Held back: the client's 1 MiB high-water mark, the kernel's socket buffers and the
        // server's own send buffer, far from the 128 MiB of the flood.
        XCTAssertLessThan(stalled * size, 64 << 20)
        var expected = 0
        for await message in client.messages {
            guard case .text(let text) = message else { return XCTFail("binary") }
            XCTAssertTrue(text.hasPrefix("\(expected) "), "message \(expected) missing or out of order")
            expected += 1
            if expected == count { break }
        }
        XCTAssertEqual(expected, count)
        // The server counts a message once its send returned, which can be after the client
        // read it: wait for the count rather than race it.
        for _ in 0..<100 where sent.value < count { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertEqual(sent.value, count)
        await client.close()
        await server.stop()
    }

    func testPauseReadingHoldsBackCallbacksAndResumeDeliversEverythingInOrder() async throws {
        let count = 4_000, size = 32 << 10
        let sent = LockedBox(0)
        let server = try floodingServer(count: count, size: size, sent: sent)
        let received = LockedBox<[Int]>([])
        let client = try WebSocket(url: "ws://127.0.0.1:\(server.port)/")
        client.onText = { text in
            let n = Int(text.prefix { $0 != " " }) ?? -1
            received.mutate { $0.append(n) }
        }
        client.pauseReading()  // applies once open
        try await client.connect()
        let stalled = try await waitForStall(sent, count: count)
        XCTAssertLessThan(stalled, count)
        let whilePaused = received.value.count
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(received.value.count, whilePaused, "callbacks ran while paused")
        client.resumeReading()
        for _ in 0..<300 where received.value.count < count { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertEqual(received.value, Array(0..<count))
        await client.close()
        await server.stop()
    }
}
