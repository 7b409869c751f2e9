import Dispatch
import Foundation
import XCTest
import TestSupport
@testable import WireKit

#if canImport(Glibc)
import Glibc
#endif

/// Hostile peers over loopback, from a raw socket: a ping flood that never reads (both roles)
/// leaves one pong waiting, not one per ping; the server's budget refuses unfinished messages
/// beyond it; an unfinished message ends at its deadline.
final class HostilePeerTests: XCTestCase {
    /// Pings of 125 bytes, numbered in their first 4 bytes: `count` of them make `count` × 127
    /// bytes of pongs if every ping were answered, far beyond what the kernel's socket buffers
    /// absorb on loopback (a few MiB). Sent one per `send` with Nagle off, so a reader that
    /// keeps up gets about one ping per read: only the driver's holding back of pongs (not the
    /// machine's coalescing within one read) keeps them from piling up.
    /// The most pong bytes a connection may hold for a peer that floods pings and never reads:
    /// every ping of the (at most two) 64 KiB reads before the driver saw its pongs stop leaving,
    /// then one pong owed, and the one handed over before.
    private static func pongBound(ping: Int, pong: Int) -> Int {
        2 * (ThreadIOBuffers.readBufferSize / ping + 1) * pong + 2 * pong
    }

    private static func pings(count: Int, masked: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 131)
        for n in 0..<count {
            var payload = [UInt8](repeating: 0x70, count: 125)
            withUnsafeBytes(of: UInt32(n).bigEndian) { payload.replaceSubrange(0..<4, with: $0) }
            bytes += [0x89, (masked ? 0x80 : 0) | 125] + (masked ? [0, 0, 0, 0] : []) + payload
        }
        return bytes
    }

    /// Writes all of `bytes` to a blocking socket, at most `chunk` bytes per call (false when
    /// the peer ended the connection).
    @discardableResult
    private static func sendAll(_ fd: Int32, _ bytes: [UInt8], chunk: Int = .max, sent counter: LockedBox<Int>? = nil) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { TestSocket.send(fd, $0.baseAddress! + sent, min(chunk, $0.count - sent)) }
            if n <= 0 { return false }
            sent += n
            if sent & 0xFFFF < n || sent == bytes.count { counter?.value = sent }
        }
        return true
    }

    /// Reads until the HTTP head ended; returns the head.
    private static func readHead(_ fd: Int32) -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: [13, 10, 13, 10]), recv(fd, &byte, 1, 0) == 1 { head.append(byte) }
        return String(decoding: head, as: UTF8.self)
    }

    /// Reads frames until a close frame or EOF (the receive timeout of `connectBlocking` bounds
    /// the wait); returns the unmasked frames' opcodes and payloads (the peer here is a server).
    private static func readFrames(_ fd: Int32, stopAtClose: Bool = true) -> [(opcode: UInt8, payload: [UInt8])] {
        var buffer: [UInt8] = []
        var frames: [(UInt8, [UInt8])] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            while buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7F), at = 2
                if length == 126 {
                    guard buffer.count >= 4 else { break }
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    at = 4
                }
                guard buffer.count >= at + length else { break }
                frames.append((buffer[0] & 0x0F, Array(buffer[at..<at + length])))
                buffer.removeFirst(at + length)
                if stopAtClose, frames.last?.0 == 8 { return frames }
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return frames }
            buffer += chunk[0..<n]
        }
    }

    private static let upgradeRequest =
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    /// An upgraded raw client of `server`; the returned socket times out reads after `timeout` s.
    private func rawClient(of server: WebSocketServer, timeout: Int = 5) throws -> Int32 {
        let fd = try connectBlocking(port: server.port, timeout: timeout)
        Self.sendAll(fd, Array(Self.upgradeRequest.utf8))
        XCTAssertTrue(Self.readHead(fd).hasPrefix("HTTP/1.1 101"))
        return fd
    }

    // MARK: Ping flood

    func testServerFloodedWithPingsByAPeerThatNeverReadsKeepsOnePongWaiting() async throws {
        let accepted = LockedBox<WebSocket?>(nil)
        let server = try WebSocketServer.start { socket in accepted.value = socket }
        let fd = try rawClient(of: server)
        defer { TestSocket.close(fd) }
        let count = 150_000  // 19 MB of pongs if each were queued
        let flood = Self.pings(count: count, masked: true)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let sent = LockedBox(0)
        Thread.detachNewThread { Self.sendAll(fd, flood, chunk: 131, sent: sent) }
        var most = 0
        let deadline = Date().addingTimeInterval(6)
        while sent.value < flood.count, Date() < deadline {
            most = max(most, accepted.value?.bufferedAmount ?? 0)
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertGreaterThan(sent.value, 20_000 * 131, "the server kept reading")
        XCTAssertEqual(accepted.value?.closeInfo, nil, "still open")
        // Whatever the flood: the pongs of the reads before the hold-back began (at most two
        // reads of 64 KiB of 131-byte pings, each answered by a 127-byte pong) plus the pong owed.
        XCTAssertLessThanOrEqual(most, Self.pongBound(ping: 131, pong: 127), "output waiting to be written")
        if sent.value == flood.count {
            // The last pong answers the last ping (RFC 6455 §5.5.3: the most recent one).
            var tv = timeval(tv_sec: 0, tv_usec: 500_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            let frames = Self.readFrames(fd)
            XCTAssertLessThan(frames.count, count, "pongs were coalesced")
            XCTAssertEqual(frames.last?.opcode, 0xA)
            XCTAssertEqual(frames.last.map { Array($0.payload.prefix(4)) }, withUnsafeBytes(of: UInt32(count - 1).bigEndian, Array.init))
        }
        TestSocket.shutdownBoth(fd)  // ends the sender if it is still going
        await server.stop()
    }

    func testClientFloodedWithPingsByAServerThatNeverReadsKeepsOnePongWaiting() async throws {
        let (listenFD, port) = try loopbackListener()
        defer { TestSocket.close(listenFD) }
        let count = 150_000
        let flood = Self.pings(count: count, masked: false)
        let sent = LockedBox(0)
        Thread.detachNewThread {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            defer { TestSocket.close(fd) }
            let head = Self.readHead(fd)
            let key =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { String($0.dropFirst("sec-websocket-key:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
            Self.sendAll(
                fd,
                Array(
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(ClientHandshake.acceptValue(forKey: key))\r\n\r\n"
                        .utf8))
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            Self.sendAll(fd, flood, chunk: 129, sent: sent)
            // Holds the connection until the client closes it.
            var tv = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
        }
        let client = try WebSocket(url: "ws://127.0.0.1:\(port)/", options: configured(WebSocketOptions()) { $0.perMessageDeflate = nil })
        try await client.connect()
        var most = 0
        let deadline = Date().addingTimeInterval(6)
        while sent.value < flood.count, Date() < deadline {
            most = max(most, client.bufferedAmount)
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertGreaterThan(sent.value, 20_000 * 129, "the client kept reading")
        // Unmasked 127-byte pings, masked 131-byte pongs.
        XCTAssertLessThanOrEqual(most, Self.pongBound(ping: 127, pong: 131), "output waiting to be written")
        await client.close()
    }

    // MARK: Unfinished messages

    /// A masked binary frame header announcing `length` bytes (key 0, so the payload goes as is).
    private static func header(length: Int, fin: Bool = true) -> [UInt8] {
        [(fin ? 0x80 : 0) | 0x2, 0x80 | 127] + withUnsafeBytes(of: UInt64(length).bigEndian, Array.init) + [0, 0, 0, 0]
    }

    func testServerBudgetRefusesAPartialMessageBeyondItWith1009() async throws {
        var options = WebSocketServerOptions()
        options.maxPartialMessageBytes = 1 << 20
        let server = try WebSocketServer.start(options: options) { _ in }
        let first = try rawClient(of: server)
        defer { TestSocket.close(first) }
        let second = try rawClient(of: server)
        defer { TestSocket.close(second) }
        // Both announce 16 MiB; the first sends 700 KiB (its storage then takes the whole 1 MiB).
        Self.sendAll(first, Self.header(length: 16 << 20 - 1) + [UInt8](repeating: 1, count: 700 << 10))
        for _ in 0..<200 where server.partialMessageBytes < 1 << 20 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(server.partialMessageBytes, 1 << 20)
        Self.sendAll(second, Self.header(length: 16 << 20 - 1) + [UInt8](repeating: 2, count: 200 << 10))
        let close = Self.readFrames(second).last
        XCTAssertEqual(close?.opcode, 8)
        XCTAssertEqual(close.map { Array($0.payload.prefix(2)) }, [0x03, 0xF1], "1009")
        XCTAssertLessThanOrEqual(server.partialMessageBytes, 1 << 20)
        // When the first ends unfinished, what it held goes back.
        TestSocket.shutdownBoth(first)
        for _ in 0..<200 where server.partialMessageBytes > 0 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(server.partialMessageBytes, 0)
        await server.stop()
    }

    func testServerEndsAnUnfinishedMessageAtItsDeadlineWith1008() async throws {
        var options = WebSocketServerOptions()
        options.messageTimeout = .milliseconds(300)
        let closes = LockedBox<[WebSocketCloseInfo]>([])
        let server = try WebSocketServer.start(options: options) { socket in
            socket.onClose = { info in closes.mutate { $0.append(info) } }
        }
        let fd = try rawClient(of: server)
        defer { TestSocket.close(fd) }
        let started = Date()
        Self.sendAll(fd, Self.header(length: 1_000) + [UInt8](repeating: 1, count: 500))
        let close = Self.readFrames(fd).last
        let waited = Date().timeIntervalSince(started)
        XCTAssertEqual(close?.opcode, 8)
        XCTAssertEqual(close.map { Array($0.payload.prefix(2)) }, [0x03, 0xF0], "1008")
        XCTAssertGreaterThanOrEqual(waited, 0.25)
        XCTAssertLessThan(waited, 3)
        for _ in 0..<100 where closes.value.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(closes.value.first?.error, .timedOut(.message(limit: .milliseconds(300))))
        await server.stop()
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
