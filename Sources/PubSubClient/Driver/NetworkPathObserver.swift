#if canImport(Network)
import Dispatch
import Foundation
import Network

/// Watches the device's network path and tells the session when it becomes usable again, so a
/// scheduled reconnect happens at once instead of after its back-off delay (Apple platforms).
final class NetworkPathObserver: @unchecked Sendable {
    // @unchecked: `wasSatisfied` is guarded by `lock`; `monitor` is immutable and thread-safe.
    private let monitor = NWPathMonitor()
    private let lock = NSLock()
    private var wasSatisfied = true

    init(queue: DispatchQueue, onAvailable: @escaping @Sendable () -> Void) {
        monitor.pathUpdateHandler = { [weak self] path in
            guard let self else { return }
            let satisfied = path.status == .satisfied
            let cameBack = self.lock.withLock { () -> Bool in
                defer { self.wasSatisfied = satisfied }
                return satisfied && !self.wasSatisfied
            }
            if cameBack { onAvailable() }
        }
        monitor.start(queue: queue)
    }

    deinit { monitor.cancel() }
}
#endif
