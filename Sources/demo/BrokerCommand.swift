import Dispatch
import Foundation
import PubSubBroker

/// `demo broker`: the embedded broker with the chat services, in the foreground until Ctrl-C
/// (or SIGTERM), logging connections and disconnections.
struct BrokerCommand {
    var host: String
    var port: Int

    func run() async -> Int32 {
        let broker: PubSubBroker
        do {
            broker = try await PubSubBroker.start(host: host, port: port)
        } catch {
            Output.error("demo broker: \(error)")
            return 1
        }
        ChatServices(broker: broker).install()
        broker.onConnection { socket in Output.line("connect     \(socket.id)") }
        broker.onDisconnection { socket, code, reason in
            Output.line("disconnect  \(socket.id) \(code)" + (reason.isEmpty ? "" : " \(reason)"))
        }
        Output.line("broker listening on \(broker.url.absoluteString) (Ctrl-C stops it)")

        let signal = await Self.waitForStopSignal()
        Output.line("\(signal), stopping")
        await broker.stop()
        Output.line("broker stopped")
        return 0
    }

    /// Waits for SIGINT or SIGTERM, delivered through dispatch sources instead of the default
    /// handler (which would kill the process without closing the connections).
    private static func waitForStopSignal() async -> String {
        await withCheckedContinuation { continuation in
            let queue = DispatchQueue(label: "demo.signals")
            let once = ResumeOnce(continuation)
            var sources: [any DispatchSourceSignal] = []
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                Foundation.signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { once.resume(name) }
                source.resume()
                sources.append(source)
            }
            // The sources must outlive this scope; they live until the process ends.
            SignalSources.keep(sources)
        }
    }
}

/// Keeps signal sources alive for the life of the process.
/// `@unchecked Sendable`: `sources` is only touched while holding `lock`.
final class SignalSources: @unchecked Sendable {
    private static let shared = SignalSources()
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    static func keep(_ sources: [any DispatchSourceSignal]) {
        shared.lock.withLock { shared.sources += sources }
    }
}

/// Resumes a continuation the first time only.
/// `@unchecked Sendable`: `continuation` is only touched while holding `lock`.
final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = continuation }

    func resume(_ value: Value) {
        let pending: CheckedContinuation<Value, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: value)
    }
}
