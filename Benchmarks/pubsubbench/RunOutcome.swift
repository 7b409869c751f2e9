import Dispatch
import PubSubClient

/// How a closure-face run ends: `wait` starts the run on its queue and returns the first
/// `finish` (a failure, or nil once every check passed); later ones are ignored.
///
/// `@unchecked Sendable`: `continuation` is touched only on the run's queue.
final class RunOutcome: @unchecked Sendable {
    private var continuation: CheckedContinuation<String?, Never>?

    /// Runs `start` on `queue`, then waits for the run to `finish`.
    func wait(on queue: DispatchQueue, _ start: @escaping @Sendable () -> Void) async -> String? {
        await withCheckedContinuation { continuation in
            queue.async {
                self.continuation = continuation
                start()
            }
        }
    }

    /// Ends the run (on its queue); `failure` nil means it passed.
    func finish(_ failure: String?) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(returning: failure)
    }
}

extension ScClient {
    /// A client of `url` with its callbacks on `queue` whose failed connect or disconnection
    /// ends the run (`name` says which client in the message); nil, with the run ended, when the
    /// URL is refused.
    static func forRun(
        url: String, codec: any PacketCodec, queue: DispatchQueue, outcome: RunOutcome, name: String = "client",
        onConnect: (@Sendable (ScClient) -> Void)? = nil
    ) -> ScClient? {
        let client: ScClient
        do {
            client = try ScClient(url: url, codec: codec, callbackQueue: queue)
        } catch {
            outcome.finish("\(name): \(error)")
            return nil
        }
        client.setBasicListener(
            onConnect: onConnect,
            onConnectError: { _, info in outcome.finish("\(name): connect failed: \(info.code) \(info.reason)") },
            onDisconnect: { _, info in outcome.finish("\(name): disconnected: \(info.code) \(info.reason)") })
        return client
    }
}

extension DispatchQueue {
    /// `body`'s value, computed on this queue (a run's state, read once it is over).
    func value<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in self.async { continuation.resume(returning: body()) } }
    }
}
