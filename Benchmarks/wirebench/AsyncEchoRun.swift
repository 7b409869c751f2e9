#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WireKit
import BenchSupport

/// `rtt`, `pipeline` and `bulk` through WireKit's async/await API (`--api async`, not part of the
/// contract): `connect()`, `send(text:)`/`send(bytes:)` and `for await` over `messages`, all
/// from one task, on the global executor or (`--api async-executor`) preferring the socket's
/// executor. Same payloads, verification and timing as `EchoRun`.
enum AsyncEchoRun {
    static func run(options: BenchOptions) async -> BenchReport {
        let patterns = PayloadPatterns(size: options.size, binary: options.binary)
        let socket: WebSocket
        var socketOptions = WebSocketOptions()
        socketOptions.maxMessageSize = max(options.size, 1 << 20) + 1024
        do {
            socket = try WebSocket(url: options.url, options: socketOptions)
            try await socket.connect()
        } catch {
            BenchReport.fail("connect: \(error)")
        }
        guard options.api == .asyncExecutor else { return await echo(socket, options: options, patterns: patterns) }
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { BenchReport.fail("--api async-executor needs macOS 15") }
        // apple-runtime-check: guarded
        return await withTaskExecutorPreference(socket.executor) { await echo(socket, options: options, patterns: patterns) }
    }

    /// The measured part, on whichever executor the caller's task prefers.
    private static func echo(_ socket: WebSocket, options: BenchOptions, patterns: PayloadPatterns) async -> BenchReport {
        var latencies = options.mode == .rtt ? [UInt64](repeating: 0, count: options.count) : []
        var sent = 0
        var verified = 0

        func sendNext() async {
            let k = sent & 15
            if options.mode == .rtt { latencies[sent] = BenchClock.now() }
            sent += 1
            do {
                if patterns.binary {
                    try await socket.send(bytes: patterns.bytes[k])
                } else {
                    try await socket.send(text: patterns.strings[k])
                }
            } catch {
                BenchReport.fail("send \(sent - 1) failed: \(error)")
            }
        }

        let start = BenchClock.now()
        var end = start
        for _ in 0..<min(options.window, options.count) { await sendNext() }
        for await message in socket.messages {
            let index = verified
            let matches: Bool
            switch message {
            case .text(var text):
                matches = !patterns.binary && text.withUTF8 { patterns.matches(UnsafeRawBufferPointer($0), pattern: index & 15) }
            case .binary(let data):
                matches = patterns.binary && data.withUnsafeBytes { patterns.matches($0, pattern: index & 15) }
            }
            guard matches else { BenchReport.fail("echo \(index) differs from message \(index) or has the wrong type") }
            verified += 1
            if options.mode == .rtt { latencies[index] = BenchClock.now() &- latencies[index] }
            if verified == options.count {
                end = BenchClock.now()
                break
            }
            if sent < options.count { await sendNext() }
        }
        guard verified == options.count else {
            BenchReport.fail("connection closed after \(verified) of \(options.count) echoes")
        }
        await socket.close()

        let client = options.api == .asyncExecutor ? "wirekit-async-executor" : "wirekit-async"
        return .echo(options: options, client: client, start: start, end: end, latencies: latencies)
    }
}
