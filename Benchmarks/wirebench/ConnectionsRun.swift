import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WireKit
import BenchSupport

/// `connections` mode: opens C WebSockets at once; each sends one message once open and verifies
/// its echo. The interval ends when all C echoes are verified; then the peak RSS is read with all
/// C still open, and all are closed with a close handshake.
///
/// `@unchecked Sendable`: every mutable property is touched only on `queue`, the callback queue
/// all sockets share (or before the sockets start).
final class ConnectionsRun: @unchecked Sendable {
    private let options: BenchOptions
    private let patterns: PayloadPatterns
    private let queue = DispatchQueue(label: "wirebench.callbacks")
    private let finished = DispatchSemaphore(value: 0)
    private let allClosed = DispatchSemaphore(value: 0)

    // queue
    private var sockets: [WebSocket] = []
    private var echoed: [Bool]
    private var verified = 0
    private var closed = 0
    private var endNanos: UInt64 = 0
    private var failure: String?
    private var isDone = false

    init(options: BenchOptions) {
        self.options = options
        patterns = PayloadPatterns(size: options.size, binary: options.binary)
        echoed = [Bool](repeating: false, count: options.connections)
    }

    func run() -> BenchReport {
        let count = options.connections
        var socketOptions = WebSocketOptions()
        socketOptions.connectTimeout = .seconds(60)
        socketOptions.handshakeTimeout = .seconds(60)
        // Parsed once, as an application connecting many sockets to one server would.
        let url: WebSocketURL
        do {
            url = try WebSocketURL(options.url)
        } catch {
            BenchReport.fail("\(error)")
        }
        let start = BenchClock.now()
        queue.sync {
            sockets.reserveCapacity(count)
            for i in 0..<count {
                let socket: WebSocket
                do {
                    socket = try WebSocket(url: url, options: socketOptions, callbackQueue: queue)
                } catch {
                    return fail("connection \(i): \(error)")
                }
                configure(socket, index: i)
                sockets.append(socket)
                socket.open()
            }
        }
        finished.wait()
        let (outcome, end) = queue.sync { (failure, endNanos) }
        if let outcome { BenchReport.fail(outcome) }
        let rss = BenchReport.peakResidentKiB()

        queue.sync {
            isDone = true
            for socket in sockets { socket.disconnect() }
        }
        if allClosed.wait(timeout: .now() + 30) == .timedOut {
            BenchReport.emit("wirebench: not every connection closed within 30 s\n", to: 2)
        }

        let milliseconds = Double(end &- start) / 1e6
        var report = BenchReport()
        report.add("mode", options.mode.rawValue)
        report.add("client", "wirekit")
        report.add("connect_total_ms", milliseconds, decimals: 2)
        report.add("rss_kib", rss)
        report.add("elapsed_s", milliseconds / 1000, decimals: 6)
        report.add("connections", count)
        report.add("size", options.size)
        report.add("binary", options.binary)
        return report
    }

    /// Wires socket `index`'s callbacks; they all run on `queue`.
    private func configure(_ socket: WebSocket, index: Int) {
        let k = index & 15
        socket.onOpen = { [self, unowned socket] _ in
            do {
                if patterns.binary { try socket.write(bytes: patterns.bytes[k]) } else { try socket.write(text: patterns.strings[k]) }
            } catch {
                fail("connection \(index): send failed: \(error)")
            }
        }
        let check: @Sendable (Bool, UnsafeRawBufferPointer) -> Void = { [self] isText, bytes in
            guard isText != patterns.binary else { return fail("connection \(index): echo has the wrong type") }
            guard !echoed[index] else { return fail("connection \(index): more than one echo") }
            guard patterns.matches(bytes, pattern: k) else { return fail("connection \(index): echo differs from the message") }
            echoed[index] = true
            verified += 1
            if verified == options.connections {
                endNanos = BenchClock.now()
                finished.signal()
            }
        }
        socket.onText = { text in
            var text = text
            text.withUTF8 { check(true, UnsafeRawBufferPointer($0)) }
        }
        socket.onBinary = { data in data.withUnsafeBytes { check(false, $0) } }
        socket.onClose = { [self] info in
            if !isDone { fail("connection \(index) closed early: \(info.error.map { "\($0)" } ?? "code \(info.code.rawValue)")") }
            closed += 1
            if closed == options.connections { allClosed.signal() }
        }
    }

    private func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        finished.signal()
    }
}
