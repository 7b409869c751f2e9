#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A listening TCP socket whose accept loop runs on a Dispatch read source (no thread of its
/// own). Each accepted connection is handed out as an unstarted `TCPTransport`.
///
/// `@unchecked Sendable`: the socket and the read source are only touched on `queue`; the
/// bound address is immutable after `init`.
public final class TCPListener: @unchecked Sendable {
    /// The host given to `init`.
    public let host: String
    /// The port actually bound (the system's choice when 0 was asked for).
    public let port: Int

    private let fd: Int32
    private let queue: DispatchQueue
    private var source: DispatchSourceRead?
    private var pausedForDescriptors = false
    private var closed = false
    /// The descriptor is closed: the port refuses connections from here on.
    private var descriptorClosed = false
    /// Waiting for `descriptorClosed`.
    private var closeCompletions: [@Sendable () -> Void] = []

    /// Binds and listens on `host`:`port` (port 0: any free port, see `port`). `host` is an
    /// address or name to bind to ("127.0.0.1", "::", "0.0.0.0", "localhost"); resolution
    /// happens here, on the caller's thread, since listening is a set-up step.
    /// - Parameters:
    ///   - host: the address or name to bind to.
    ///   - port: the TCP port; 0 picks a free one.
    ///   - backlog: the kernel's queue of not yet accepted connections.
    public init(host: String, port: Int, backlog: Int32 = 1024) throws(TransportError) {
        let addresses: [SocketAddress]
        switch SocketAddress.resolve(host: host, port: port, passive: true) {
        case .success(let list): addresses = list
        case .failure(let error): throw error
        }
        var lastError = TransportError.system(operation: "bind", errno: EADDRNOTAVAIL)
        for address in addresses {
            let socketResult = POSIXSocket.makeStreamSocket(family: address.family)
            guard case .success(let fd) = socketResult else {
                if case .failure(let error) = socketResult { lastError = error }
                continue
            }
            POSIXSocket.setReuseAddress(fd)
            let bound = address.withSockAddr { bind(fd, $0, $1) } == 0
            guard bound, listen(fd, backlog) == 0 else {
                let code = errno
                _ = closeDescriptor(fd)
                lastError = code == EADDRINUSE ? .addressInUse(host: host, port: port) : .system(operation: bound ? "listen" : "bind", errno: code)
                continue
            }
            self.fd = fd
            self.host = host
            self.port = SocketAddress.local(of: fd)?.port ?? port
            self.queue = DispatchQueue(label: "WireKit.TCPListener.\(self.port)")
            return
        }
        throw lastError
    }

    deinit {
        if !closed, source == nil { _ = closeDescriptor(fd) }
    }

    /// Starts accepting. `onAccept` runs on the listener's queue with each new connection,
    /// which the receiver must `start` (or `close`).
    public func start(onAccept: @escaping @Sendable (TCPTransport) -> Void) {
        queue.async { [self] in
            guard !closed, source == nil else { return }
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            let fd = self.fd
            source.setEventHandler { [self] in acceptAll(onAccept) }
            source.setCancelHandler { [self] in
                _ = closeDescriptor(fd)
                didCloseDescriptor()
            }
            self.source = source
            source.resume()
        }
    }

    /// Stops listening and closes the socket. Connections already accepted are not affected.
    public func close() {
        close(completion: nil)
    }

    /// `close()`; `completion` runs on the listener's queue once the socket is closed (a
    /// connection attempt is refused from then on, not taken by the kernel and then reset).
    public func close(completion: (@Sendable () -> Void)?) {
        queue.async { [self] in
            if let completion {
                if descriptorClosed { completion() } else { closeCompletions.append(completion) }
            }
            guard !closed else { return }
            closed = true
            if let source {
                source.cancel()
                if pausedForDescriptors { source.resume() }
            } else {
                _ = closeDescriptor(fd)
                didCloseDescriptor()
            }
        }
    }

    /// On the queue, once `fd` is closed.
    private func didCloseDescriptor() {
        descriptorClosed = true
        let completions = closeCompletions
        closeCompletions.removeAll()
        for completion in completions { completion() }
    }

    private func acceptAll(_ onAccept: @Sendable (TCPTransport) -> Void) {
        while !closed {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> (Int32, SocketAddress?) in
                    let newFD = accept(fd, address, &length)
                    guard newFD >= 0 else { return (newFD, nil) }
                    return (newFD, SocketAddress(family: Int32(address.pointee.sa_family), sockaddr: address, length: length))
                }
            }
            if client.0 >= 0 {
                onAccept(TCPTransport(acceptedSocket: client.0, peer: client.1))
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors: the pending connection keeps the source firing, so pause
                // briefly instead of spinning; it is accepted once descriptors are free again.
                pauseAccepting()
                return
            default:
                return  // EAGAIN: nothing more to accept
            }
        }
    }

    private func pauseAccepting() {
        guard let source, !pausedForDescriptors else { return }
        source.suspend()
        pausedForDescriptors = true
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
            guard pausedForDescriptors, !closed, let source = self.source else { return }
            pausedForDescriptors = false
            source.resume()
        }
    }
}

@inline(__always) private func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}
