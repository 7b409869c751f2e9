import Dispatch

extension DispatchQueue {
    /// Whether this is the main queue. By label: on Linux `DispatchQueue.main` returns a new
    /// wrapper object at each access, so `===` never matches it there.
    package var isMainQueue: Bool {
        self === DispatchQueue.main || label == DispatchQueue.main.label
    }

    /// Whether this is one of the global concurrent queues (by label, as `isMainQueue`).
    package var isGlobalQueue: Bool {
        let classes: [DispatchQoS.QoSClass] = [.background, .utility, .default, .userInitiated, .userInteractive, .unspecified]
        return classes.contains { self === DispatchQueue.global(qos: $0) || label == DispatchQueue.global(qos: $0).label }
    }

    /// Binds an event loop (Linux) to a queue a user handed in as a callback queue, unless it is
    /// the main queue or a global one, so the sockets whose queues target it are read on the
    /// loop's thread inside the queue, one wake-up per readable socket, and all of them share
    /// that loop. The main queue keeps Dispatch sources (a loop waiting on it would wait for the
    /// whole app's main thread); a global queue's blocks do not exclude each other.
    package func bindEventLoopForCallbacks(name: String) {
        guard !isMainQueue, !isGlobalQueue else { return }
        EventLoop.bindIfUnbound(to: self, name: name)
    }
}
