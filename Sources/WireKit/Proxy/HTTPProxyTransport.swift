import Dispatch

/// A byte stream to a WebSocket origin through an HTTP proxy: connects `inner` to the proxy,
/// runs the `HTTPConnectTunnel` exchange, and from then on is a plain pass-through. Wrap it in
/// a `TLSTransport` for `wss://` (TLS to the origin inside the tunnel).
///
/// `.connected` is reported once the tunnel is open; a failure before that ends with
/// `.closed(.proxy(...))`.
///
/// `@unchecked Sendable`: like every `Transport`, all mutable state is confined to the serial
/// queue passed to `start`; the stored configuration is immutable.
public final class HTTPProxyTransport: Transport, @unchecked Sendable {
    private let inner: any Transport
    private let proxy: HTTPProxy
    private let answerTimeout: Double
    private var tunnel: HTTPConnectTunnel?
    private var handler: (@Sendable (TransportEvent) -> Void)?
    private var isOpen = false
    private var failure: HTTPProxyError?
    private var closeRequested = false
    private var timer: DispatchSourceTimer?

    /// A tunnel to `host`:`port` through `proxy`, over a new `TCPTransport` to the proxy.
    /// - Parameters:
    ///   - host: the origin's host name or address, as the proxy should reach it.
    ///   - port: the origin's port.
    ///   - proxy: the HTTP proxy and its credentials.
    ///   - connectTimeout: the time connecting to the proxy may take, and again its answer to CONNECT.
    public convenience init(host: String, port: Int, proxy: HTTPProxy, connectTimeout: Duration = .seconds(10)) {
        self.init(
            wrapping: TCPTransport(host: proxy.host, port: proxy.port, connectTimeout: connectTimeout),
            host: host, port: port, proxy: proxy, answerTimeout: connectTimeout)
    }

    /// A tunnel to `host`:`port` over `inner`, an unstarted transport to `proxy`.
    public init(wrapping inner: any Transport, host: String, port: Int, proxy: HTTPProxy, answerTimeout: Duration = .seconds(10)) {
        self.inner = inner
        self.proxy = proxy
        self.answerTimeout = answerTimeout.wireKitSeconds
        self.tunnel = HTTPConnectTunnel(host: host, port: port, proxy: proxy)
    }

    // MARK: Transport

    public func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) {
        queue.async { [self] in
            guard self.handler == nil, !closeRequested else { return }
            self.handler = handler
            inner.start(queue: queue) { [self] event in handleInner(event, queue: queue) }
        }
    }

    public func write(_ bytes: [UInt8]) {
        guard isOpen else { return }
        inner.write(bytes)
    }

    public var bufferedAmount: Int { inner.bufferedAmount }

    public func close() {
        closeRequested = true
        cancelTimer()
        inner.close()
    }

    // MARK: Events of the connection to the proxy

    private func handleInner(_ event: TransportEvent, queue: DispatchQueue) {
        if isOpen {
            handler?(event)
            if case .closed = event { handler = nil }
            return
        }
        switch event {
        case .connected:
            guard let tunnel, failure == nil else { return }
            armTimer(queue: queue)
            inner.write(tunnel.request)
        case .received(let bytes):
            guard var tunnel, failure == nil else { return }
            let verdict: HTTPConnectTunnel.Verdict
            do {
                verdict = try tunnel.receive(bytes)
            } catch {
                return fail(error)
            }
            self.tunnel = tunnel
            guard case .established(let consumed) = verdict else { return }
            self.tunnel = nil
            isOpen = true
            cancelTimer()
            handler?(.connected)
            if consumed < bytes.count, !closeRequested {
                handler?(.received(UnsafeRawBufferPointer(rebasing: bytes[consumed...])))
            }
        case .writable:
            break
        case .inputClosed:
            if let tunnel { fail(tunnel.closedEarly) }
        case .closed(let error):
            cancelTimer()
            let handler = self.handler
            self.handler = nil
            if let failure {
                handler?(.closed(.proxy(failure)))
            } else if let error {
                switch error.code {
                case .hostNotFound, .connectionRefused, .connectTimedOut, .unreachable:
                    handler?(.closed(.proxy(.unreachable(host: proxy.host, port: proxy.port, failure: error))))
                default:
                    handler?(.closed(.proxy(.tunnelClosed("\(error)"))))
                }
            } else if closeRequested {
                handler?(.closed(nil))
            } else {
                handler?(.closed(.proxy(tunnel?.closedEarly ?? .tunnelClosed("the connection to the proxy closed"))))
            }
        }
    }

    private func fail(_ error: HTTPProxyError) {
        guard failure == nil else { return }
        failure = error
        cancelTimer()
        inner.close()
    }

    private func armTimer(queue: DispatchQueue) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let seconds = answerTimeout
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [weak self] in self?.fail(.timedOut(.seconds(seconds))) }
        self.timer = timer
        timer.resume()
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}
