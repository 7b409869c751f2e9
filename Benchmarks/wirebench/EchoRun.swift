import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WireKit
import BenchSupport

/// One connection running `rtt`, `pipeline` or `bulk`: keeps `window` messages in flight until
/// `count` echoes are verified, through WireKit's callback API (`write` + `onText`/`onBinary`)
/// with every callback on one serial queue.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue` (the socket's
/// callback queue), after `start()` hands over to it.
final class EchoRun: @unchecked Sendable {
    private let options: BenchOptions
    private let patterns: PayloadPatterns
    private let queue = DispatchQueue(label: "wirebench.callbacks")
    private let socket: WebSocket
    private let opened = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let closedSignal = DispatchSemaphore(value: 0)

    // queue
    private var sent = 0
    private var verified = 0
    private var startNanos: UInt64 = 0
    private var endNanos: UInt64 = 0
    /// rtt: when message `i` was sent, then its latency (ns).
    private var latencies: [UInt64]
    private var failure: String?
    private var isOpen = false
    private var isDone = false

    init(options: BenchOptions) throws(WebSocketError) {
        self.options = options
        patterns = PayloadPatterns(size: options.size, binary: options.binary)
        latencies = options.mode == .rtt ? [UInt64](repeating: 0, count: options.count) : []
        var socketOptions = WebSocketOptions()
        socketOptions.maxMessageSize = max(options.size, 1 << 20) + 1024
        socket = try WebSocket(url: options.url, options: socketOptions, callbackQueue: queue)
    }

    /// Connects, runs the workload, closes, and returns the result line (or exits on failure).
    func run() -> BenchReport {
        socket.onOpen = { [self] _ in
            isOpen = true
            opened.signal()
        }
        if patterns.binary {
            socket.onBinary = { [self] data in
                data.withUnsafeBytes { received(isText: false, $0) }
            }
            socket.onText = { [self] _ in fail("echo \(verified) is text, expected binary") }
        } else {
            socket.onText = { [self] text in
                var text = text
                text.withUTF8 { received(isText: true, UnsafeRawBufferPointer($0)) }
            }
            socket.onBinary = { [self] _ in fail("echo \(verified) is binary, expected text") }
        }
        socket.onClose = { [self] info in
            if !isDone { fail("connection closed before the run finished: \(info.error.map { "\($0)" } ?? "code \(info.code.rawValue)")") }
            closedSignal.signal()
        }
        socket.open()
        opened.wait()
        if let early = queue.sync(execute: { failure }) { BenchReport.fail(early) }

        queue.async { [self] in
            startNanos = BenchClock.now()
            let first = min(options.window, options.count)
            for _ in 0..<first { sendNext() }
        }
        finished.wait()
        let (outcome, start, end, latencies) = queue.sync { (failure, startNanos, endNanos, self.latencies) }
        if let outcome { BenchReport.fail(outcome) }

        socket.disconnect()
        _ = closedSignal.wait(timeout: .now() + 10)

        return .echo(options: options, client: "wirekit", start: start, end: end, latencies: latencies)
    }

    // MARK: On the queue

    private func sendNext() {
        let k = sent & 15
        if options.mode == .rtt { latencies[sent] = BenchClock.now() }
        sent += 1
        do {
            if patterns.binary {
                try socket.write(bytes: patterns.bytes[k])
            } else {
                try socket.write(text: patterns.strings[k])
            }
        } catch {
            fail("send \(sent - 1) failed: \(error)")
        }
    }

    private func received(isText: Bool, _ bytes: UnsafeRawBufferPointer) {
        guard !isDone else { return fail("unexpected message after the run") }
        let index = verified
        guard patterns.matches(bytes, pattern: index & 15) else {
            return fail("echo \(index) differs from message \(index) (\(bytes.count) bytes, expected \(options.size))")
        }
        verified += 1
        if options.mode == .rtt { latencies[index] = BenchClock.now() &- latencies[index] }
        if verified == options.count {
            endNanos = BenchClock.now()
            isDone = true
            finished.signal()
            return
        }
        if sent < options.count { sendNext() }
    }

    private func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        isDone = true
        if !isOpen { opened.signal() }
        finished.signal()
    }
}
