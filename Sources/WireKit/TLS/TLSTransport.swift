#if canImport(Glibc)
import Dispatch

/// TLS over another byte stream (normally a `TCPTransport`), behind the same `Transport`
/// protocol, so the WebSocket layer above does not know it is encrypted. Uses the system's
/// OpenSSL through a `TLSEngine`.
///
/// Client: `.connected` is delivered only once the TLS handshake succeeded and the server was
/// verified; any TLS failure ends with `.closed(error)` of code `.tls`. `close` sends
/// close_notify first; a peer's close_notify arrives as `.inputClosed`.
///
/// `@unchecked Sendable`: like every `Transport`, all mutable state is confined to the serial
/// queue passed to `start`; the stored configuration is immutable.
public final class TLSTransport: Transport, @unchecked Sendable {
    private enum Role {
        case client(host: String, configuration: TLSConfiguration)
        case server(TLSServerIdentity)
    }

    private let inner: any Transport
    private let role: Role
    private let handshakeTimeout: Double

    private var engine: TLSEngine?
    private var handler: (@Sendable (TransportEvent) -> Void)?
    private var failure: TLSError?
    private var reportedConnected = false
    private var reportedInputClosed = false
    private var closeRequested = false
    private var handshakeTimer: DispatchSourceTimer?

    /// A TLS client connection to `host`:`port` over a new `TCPTransport`.
    /// - Parameters:
    ///   - host: DNS name or IP literal (IPv6 with or without brackets); it is sent as SNI (names
    ///     only) and the certificate must be valid for it.
    ///   - port: the TCP port.
    ///   - connectTimeout: the time the TCP connection may take.
    ///   - handshakeTimeout: the time the TLS handshake may take once TCP is connected.
    ///   - configuration: trust roots, pins and protocol versions.
    public convenience init(
        host: String, port: Int, connectTimeout: Duration = .seconds(10), handshakeTimeout: Duration = .seconds(10),
        configuration: TLSConfiguration = TLSConfiguration()
    ) {
        self.init(
            wrapping: TCPTransport(host: host, port: port, connectTimeout: connectTimeout),
            host: host, configuration: configuration, handshakeTimeout: handshakeTimeout)
    }

    /// A TLS client over `inner`, an unstarted transport to `host`.
    public init(
        wrapping inner: any Transport, host: String, configuration: TLSConfiguration,
        handshakeTimeout: Duration = .seconds(10)
    ) {
        self.inner = inner
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        self.role = .client(host: String(name), configuration: configuration)
        self.handshakeTimeout = handshakeTimeout.wireKitSeconds
    }

    /// The server side of TLS over an accepted, unstarted transport (from `TCPListener`).
    public init(server inner: any Transport, identity: TLSServerIdentity, handshakeTimeout: Duration = .seconds(10)) {
        self.inner = inner
        self.role = .server(identity)
        self.handshakeTimeout = handshakeTimeout.wireKitSeconds
    }

    // MARK: Transport

    public func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) {
        queue.async { [self] in
            guard self.handler == nil, engine == nil, failure == nil else { return }
            self.handler = handler
            do throws(TLSError) {
                switch role {
                case .client(let host, let configuration):
                    engine = try TLSEngine(client: TLSContext.client(configuration), host: host)
                case .server(let identity):
                    engine = try TLSEngine(server: identity.context)
                }
            } catch {
                // No TLS (library missing, bad configuration): fail before opening a socket.
                self.handler = nil
                handler(.closed(.tls(error)))
                return
            }
            inner.start(queue: queue) { [self] event in handleInner(event, queue: queue) }
        }
    }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { send($0) }
    }

    /// Ciphertext queued in the underlying transport, not yet handed to the kernel (bytes).
    public var bufferedAmount: Int { inner.bufferedAmount }

    public func setReadingPaused(_ paused: Bool) {
        inner.setReadingPaused(paused)
    }

    public func close() {
        closeRequested = true
        sendCloseNotify()
        inner.close()
    }

    // MARK: Events of the underlying transport

    private func handleInner(_ event: TransportEvent, queue: DispatchQueue) {
        switch event {
        case .connected:
            guard let engine, failure == nil else { return }
            armHandshakeTimer(queue: queue)
            do {
                try engine.startHandshake()
            } catch {
                fail(error)
                return
            }
            flushCiphertext()
        case .received(let ciphertext):
            guard let engine, failure == nil else { return }
            do {
                try engine.receive(ciphertext) { plaintext in
                    reportConnectedIfEstablished()
                    handler?(.received(plaintext))
                }
            } catch {
                fail(error)
                return
            }
            flushCiphertext()
            reportConnectedIfEstablished()
            if engine.receivedCloseNotify, !reportedInputClosed {
                reportedInputClosed = true
                handler?(.inputClosed)
            }
        case .writable:
            if reportedConnected { handler?(.writable) }
        case .inputClosed:
            guard failure == nil else { return }
            guard reportedConnected else {
                fail(.handshakeFailed(reason: "the peer closed the connection during the TLS handshake"))
                return
            }
            // EOF without close_notify is passed on too: the WebSocket close handshake above
            // already tells a complete conversation from a truncated one.
            if !reportedInputClosed {
                reportedInputClosed = true
                handler?(.inputClosed)
            }
        case .closed(let error):
            cancelHandshakeTimer()
            let handler = self.handler
            self.handler = nil
            if let failure {
                handler?(.closed(.tls(failure)))
            } else if !reportedConnected, !closeRequested, error == nil {
                handler?(.closed(.tls(.handshakeFailed(reason: "the connection closed during the TLS handshake"))))
            } else {
                handler?(.closed(error))
            }
        }
    }

    private func reportConnectedIfEstablished() {
        guard !reportedConnected, engine?.state == .established else { return }
        reportedConnected = true
        cancelHandshakeTimer()
        handler?(.connected)
    }

    private func send(_ plaintext: UnsafeRawBufferPointer) {
        guard let engine, failure == nil, !closeRequested else { return }
        do {
            try engine.send(plaintext)
        } catch {
            fail(error)
            return
        }
        flushCiphertext()
    }

    private func sendCloseNotify() {
        guard let engine, failure == nil else { return }
        engine.shutdown()
        flushCiphertext()
    }

    private func flushCiphertext() {
        guard let engine, engine.hasCiphertext else { return }
        inner.write(engine.takeCiphertext())
    }

    /// Records the first failure, sends any alert OpenSSL queued, and closes the stream; the
    /// failure is reported with `.closed`.
    private func fail(_ error: TLSError) {
        guard failure == nil else { return }
        flushCiphertext()
        failure = error
        cancelHandshakeTimer()
        inner.close()
    }

    private func armHandshakeTimer(queue: DispatchQueue) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let seconds = handshakeTimeout
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [weak self] in
            self?.fail(.handshakeFailed(reason: "no TLS handshake within \(seconds) s"))
        }
        handshakeTimer = timer
        timer.resume()
    }

    private func cancelHandshakeTimer() {
        handshakeTimer?.cancel()
        handshakeTimer = nil
    }
}
#endif
