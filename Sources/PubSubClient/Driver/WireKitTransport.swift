import Dispatch
import WireKit

/// Opens SocketCluster transports on WireKit's connection driver, run on the session queue
/// itself: no `WebSocket` object, no lock and no dispatch between the session and the socket.
/// Close codes pass through as raw `UInt16` values (4000–4999 included).
struct WireKitTransportFactory: SessionTransportFactory {
    /// Base options (TLS transport factory, limits); headers and timeouts come per connection.
    var options: WebSocketOptions = WebSocketOptions()

    /// How much later than the session's `connectTimeout` WireKit's connect and handshake timers
    /// run out. The session owns the deadline (4007); WireKit's timers are a backstop, and a
    /// WireKit timeout that still wins is reported as 4007 by the session too.
    static let timeoutMargin: Duration = .seconds(1)

    func open(
        url: String, headers: [String: String], connectTimeout: Duration, queue: DispatchQueue,
        onEvent: @escaping @Sendable (SessionTransportEvent) -> Void
    ) -> any SessionTransport {
        var options = self.options
        var fields = options.headers.fields.map { ($0.name, $0.value) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.append((name, value)) }
        options.headers = HTTPHeaders(fields)
        options.connectTimeout = connectTimeout + Self.timeoutMargin
        options.handshakeTimeout = connectTimeout + Self.timeoutMargin
        let driver: WebSocketConnectionDriver
        do {
            driver = try WebSocketConnectionDriver.client(url: try WebSocketURL(url), options: options, queue: queue)
        } catch {
            queue.async { onEvent(.closed(code: 1006, reason: error.description, error: TransportFailure(error))) }
            return FailedTransport()
        }
        let transport = WireKitTransport(driver: driver, onEvent: onEvent)
        transport.start()
        return transport
    }
}

/// WireKit's connection driver seen as a session transport. Lives on the session queue: the
/// session driver calls it there and the connection driver reports there.
///
/// `@unchecked Sendable`: every mutable property is touched only on `driver.queue`.
final class WireKitTransport: SessionTransport, @unchecked Sendable {
    private let driver: WebSocketConnectionDriver
    /// Where events go until the session closes this transport.
    private var onEvent: (@Sendable (SessionTransportEvent) -> Void)?
    private var finalInfo: WebSocketCloseInfo?
    private var closeWaiters: [CheckedContinuation<WebSocketCloseInfo?, Never>] = []
    /// Reading pause asked for; applied at open (pausing earlier would stall the upgrade).
    private var readingPaused = false
    private var isOpen = false

    init(driver: WebSocketConnectionDriver, onEvent: @escaping @Sendable (SessionTransportEvent) -> Void) {
        self.driver = driver
        self.onEvent = onEvent
    }

    /// Connects. On the queue.
    func start() {
        // Strong: the transport lives while its connection does; `closed` breaks the cycle.
        driver.onEvent = { [self] event in handle(event) }
        // Kept after `close`: the read under way still ends, and the session driver waits for it.
        let onEvent = self.onEvent
        driver.onEventsDelivered = { onEvent?(.endOfRead) }
        driver.start()
    }

    func send(utf8: [UInt8]) {
        // A write on a socket that is already closing fails; its close event follows and the
        // session fails the affected calls then.
        try? driver.sendText(trustedUTF8: utf8)
    }

    func send(binary: [UInt8]) {
        try? driver.sendBinary(binary)
    }

    func flush() {
        driver.flush()
    }

    var reportsEndOfReads: Bool { true }

    func setReadingPaused(_ paused: Bool) {
        guard paused != readingPaused else { return }
        readingPaused = paused
        if isOpen { driver.setReadingPaused(paused) }
    }

    func close(code: UInt16, reason: String) {
        onEvent = nil
        guard finalInfo == nil else { return }
        try? driver.perform { (machine: inout WebSocketStateMachine, now: WebSocketInstant) throws(WebSocketError) in
            machine.close(code: WebSocketCloseCode(code), reason: reason, now: now)
        }
    }

    func closed() async -> WebSocketCloseInfo? {
        await withCheckedContinuation { continuation in
            driver.queue.async { [self] in
                if let finalInfo { continuation.resume(returning: finalInfo) } else { closeWaiters.append(continuation) }
            }
        }
    }

    private func handle(_ event: WebSocketEvent) {
        switch event {
        case .opened:
            isOpen = true
            if readingPaused { driver.setReadingPaused(true) }
            onEvent?(.opened)
        case .text(let text): onEvent?(.text(text))
        case .binary(let data): onEvent?(.binary([UInt8](data)))
        case .ping, .pong, .pingCompleted, .pingTimedOut: break
        case .closed(let info):
            guard finalInfo == nil else { return }
            finalInfo = info
            driver.onEvent = { _ in }
            // A connection that failed has no close frame, so its reason is the failure's.
            let reason = info.reason.isEmpty ? info.error?.description ?? "" : info.reason
            let onEvent = self.onEvent
            self.onEvent = nil
            onEvent?(.closed(code: info.code.rawValue, reason: reason, error: info.error.map(TransportFailure.init)))
            for waiter in closeWaiters { waiter.resume(returning: info) }
            closeWaiters.removeAll()
        }
    }
}

/// Stands in for a WebSocket that could not even be created (its close event is already queued).
final class FailedTransport: SessionTransport {
    func send(utf8: [UInt8]) {}
    func send(binary: [UInt8]) {}
    func close(code: UInt16, reason: String) {}
    func closed() async -> WebSocketCloseInfo? { nil }
}

extension TransportFailure {
    /// WireKit's error in the session's terms; the original stays in `underlying`.
    init(_ error: WebSocketError) {
        self.init(
            Self.kind(of: error), message: error.description, httpStatus: error.httpStatus, location: error.location,
            underlying: error)
    }

    /// WireKit's typed reason when the WireKit driver reported this failure, else nil.
    public var webSocketError: WebSocketError? { underlying as? WebSocketError }

    static func kind(of error: WebSocketError) -> Kind {
        switch error.code {
        case .invalidURL, .invalidRequest: return .invalidRequest
        case .transport:
            guard let failure = error.transportError else { return .connectionLost }
            switch failure.code {
            case .hostNotFound: return .hostNotFound
            case .connectionRefused, .unreachable, .addressInUse: return .connectionRefused
            case .connectTimedOut: return .timedOut
            case .tls: return .tls
            // A proxy that does not answer in time is a timeout like any other (the session
            // reports it as its connect timeout, 4007).
            case .proxy where failure.proxyError?.code == .timedOut || failure.proxyError?.unreachableReason == .connectTimedOut:
                return .timedOut
            case .proxy: return .proxy
            case .unsupported: return .invalidRequest
            default: return .connectionLost
            }
        case .timedOut: return .timedOut
        case .tls: return .tls
        case .handshakeRejected: return .upgradeRejected
        case .redirected: return .redirected
        case .invalidHandshakeResponse, .invalidUpgradeRequest: return .invalidHandshake
        case .protocolViolation, .invalidUTF8, .messageTooBig, .partialMessageBudgetExceeded: return .protocolViolation
        default: return .connectionLost
        }
    }
}
