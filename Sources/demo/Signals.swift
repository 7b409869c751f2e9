import Dispatch
import Foundation

/// Signals delivered through dispatch sources instead of their default handlers (which would
/// end the process without closing its connections).
enum Signals {
    /// Calls `handler` with the signal number, on a private serial queue, each time one of
    /// `numbers` arrives. The handler stays installed for the life of the process.
    static func handle(_ numbers: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) {
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            installed.keep(source)
        }
    }

    /// Installs handlers for SIGINT and SIGTERM now; the stream yields "SIGINT" or "SIGTERM"
    /// each time one arrives.
    static func stopRequests() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        handle([SIGINT, SIGTERM]) { number in continuation.yield(number == SIGINT ? "SIGINT" : "SIGTERM") }
        return stream
    }

    private static let queue = DispatchQueue(label: "demo.signals")
    private static let installed = SignalSources()
}

/// Keeps signal sources alive (a source that is released stops delivering).
/// `@unchecked Sendable`: `sources` is only touched while holding `lock`.
private final class SignalSources: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    func keep(_ source: any DispatchSourceSignal) {
        lock.withLock { sources.append(source) }
    }
}
