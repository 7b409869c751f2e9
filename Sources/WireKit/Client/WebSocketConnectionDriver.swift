import Dispatch

/// Runs one `WebSocketStateMachine` over one `Transport` on one serial queue: feeds it bytes
/// and the time, writes what it produces, arms a timer for its next deadline and closes the
/// transport when it asks.
///
/// Two owners use it: `WebSocketConnection` (behind the public, thread-safe `WebSocket`), and,
/// through the `package` face below, an owner that already runs on a serial queue of its own
/// (PubSubClient's session driver): it makes the driver on that queue with
/// `client(url:options:queue:)`, reads `onEvent`, queues messages with `sendText(trustedUTF8:)` and sends
/// them with one `flush()` per step of its own, with no lock and no dispatch per message.
///
/// Against a peer that sends and never reads, it writes a pong only once the one it wrote
/// before has left its transport (the machine keeps answering just the latest ping meanwhile),
/// and it stops reading the transport while more than `writeLimit` bytes wait to be written,
/// until they all were (TCP then pushes back on the peer).
///
/// `@unchecked Sendable`: every mutable property is confined to `queue`; call `start`,
/// `perform`, `sendText` and `flush` on it only. Events reach `onEvent` on `queue`, in order.
package final class WebSocketConnectionDriver: @unchecked Sendable {
    package let queue: DispatchQueue
    private var machine: WebSocketStateMachine
    private let transport: any Transport
    private var timer: QueueTimer?
    private var armedDeadline: WebSocketInstant?
    /// How long a `TCPTransport` may take to connect when this driver times it (see `start`).
    private let connectTimeout: Duration?
    /// When the transport's connect times out, while this driver times it and it has not
    /// connected yet.
    private var connectDeadline: WebSocketInstant?
    /// Swapped with the machine's output buffer so both capacities get reused.
    private var spareOutput: [UInt8] = []
    private var pumping = false
    private var pumpAgain = false
    private var transportCloseRequested = false
    private(set) var transportIsClosed = false
    /// Buffered bytes beyond which reading stops until the transport drained (`Int.max`: never).
    private let writeLimit: Int
    /// Reading paused by the owner (`setReadingPaused`).
    private var readingPausedByOwner = false
    /// Reading paused because more than `writeLimit` bytes wait to be written.
    private(set) var readingPausedForOutput = false
    /// Transport bytes (in the transport's own count) queued behind the last pong written, or
    /// `nil` once that pong left the transport: while it has not, newer pongs stay owed.
    private var bytesBehindPong: Int?
    /// Lifecycle and error records (connecting, open, closed and why); never per message.
    let log: ConnectionLog

    /// Receives the machine's events, on `queue`.
    package var onEvent: (WebSocketEvent) -> Void = { _ in }
    /// Called on `queue` when the transport's buffered bytes were all written.
    var onWritable: () -> Void = {}
    /// Called on `queue` at the end of every pump (after the output was written), once per
    /// batch of events rather than once per event.
    var onPumpFinished: () -> Void = {}
    /// Called on `queue` inside a pump once the events it read were all delivered, before their
    /// output is written: what is sent from here joins the same write. Once per batch of events.
    package var onEventsDelivered: () -> Void = {}
    /// Whether a pump is delivering events (`onEvent`, then `onEventsDelivered`) right now.
    package private(set) var isDeliveringEvents = false

    init(
        machine: WebSocketStateMachine, transport: any Transport, queue: DispatchQueue, writeLimit: Int = .max,
        log: ConnectionLog = .off, connectTimeout: Duration? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.machine = machine
        self.transport = transport
        self.queue = queue
        self.writeLimit = writeLimit
        self.log = log
    }

    /// The current instant on the monotonic clock the machine's deadlines use.
    static func now() -> WebSocketInstant {
        WebSocketInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds)
    }

    /// A client-role driver for `url` with `options` (handshake, limits, timeouts, transport),
    /// run on `queue`, for an owner that runs on `queue` itself. Nothing happens until `start`.
    /// Throws `.invalidRequest` for a bad header, origin or subprotocol, or what the transport
    /// factory throws.
    package static func client(url: WebSocketURL, options: WebSocketOptions, queue: DispatchQueue) throws(WebSocketError)
        -> WebSocketConnectionDriver
    {
        let handshake = try ClientHandshake(url: url, origin: options.origin, subprotocols: options.subprotocols, headers: options.headers)
        let transport = try options.transportFactory.makeTransport(url, options.connectTimeout)
        return WebSocketConnectionDriver(
            machine: WebSocketStateMachine(client: handshake, configuration: options.configuration),
            transport: transport, queue: queue, writeLimit: options.writeLimit,
            log: ConnectionLog(sink: options.logSink, client: url, proxy: nil), connectTimeout: options.connectTimeout)
    }

    /// Starts the transport (connect or, when accepted, read). Call once, on `queue`.
    ///
    /// A `TCPTransport` connect is timed with this driver's one timer, which then serves the
    /// opening handshake and everything after, rather than with a timer of the transport's own:
    /// every Dispatch timer armed or cancelled costs a wake-up of libdispatch's manager thread.
    package func start() {
        log.connecting()
        if let connectTimeout, let tcp = transport as? TCPTransport {
            tcp.connectTimedByOwner = true
            connectDeadline = Self.now() + connectTimeout
        }
        transport.start(queue: queue) { [self] event in handle(event) }
        if connectDeadline != nil { armTimer() }
    }

    /// Runs `body` on the machine (a user call such as send or close), then executes what it
    /// produced. On `queue` only.
    package func perform<R>(_ body: (inout WebSocketStateMachine, WebSocketInstant) throws(WebSocketError) -> R) throws(WebSocketError) -> R {
        let result: R
        do {
            result = try body(&machine, Self.now())
        } catch {
            pump()
            throw error
        }
        pump()
        return result
    }

    /// Queues one text message of UTF-8 the caller produced itself (`sendText(trustedUTF8:)`)
    /// without writing it: the next `flush()`, or the pump running now when called from
    /// `onEvent`, writes everything queued since in one write. On `queue` only. The send of the
    /// client's and the broker's hot path, and not generic: a generic `package` method runs
    /// unspecialized when called from another module.
    package func sendText(trustedUTF8 utf8: [UInt8]) throws(WebSocketError) {
        try machine.sendText(trustedUTF8: utf8)
    }

    /// Queues one binary message without writing it, as `sendText(trustedUTF8:)` does. On
    /// `queue` only.
    package func sendBinary(_ bytes: [UInt8]) throws(WebSocketError) {
        try machine.sendBinary(bytes)
    }

    /// Writes what `sendText(trustedUTF8:)` queued (one write for all of it) and executes
    /// whatever else the machine has produced. Inside `onEvent` it folds into the running pump.
    /// On `queue` only.
    package func flush() {
        pump()
    }

    /// Bytes accepted for sending and not yet handed to the kernel.
    package var bufferedAmount: Int { machine.pendingOutputCount + (transportIsClosed ? 0 : transport.bufferedAmount) }

    /// Stops or resumes reading the transport (TCP then pushes back on the peer); events already
    /// read are still delivered. On `queue` only.
    package func setReadingPaused(_ paused: Bool) {
        readingPausedByOwner = paused
        applyReadingPause()
    }

    private func applyReadingPause() {
        guard !transportIsClosed else { return }
        transport.setReadingPaused(readingPausedByOwner || readingPausedForOutput)
    }

    /// The machine's phase.
    package var phase: WebSocketStateMachine.Phase { machine.phase }

    // MARK: Transport events

    private func handle(_ event: TransportEvent) {
        switch event {
        case .connected:
            connectDeadline = nil
            log.transportConnected()
            machine.start(now: Self.now())
        case .received(let bytes):
            machine.receive(bytes, now: Self.now())
        case .writable:
            if readingPausedForOutput {
                readingPausedForOutput = false
                applyReadingPause()
            }
            onWritable()
        case .inputClosed:
            machine.transportClosed(now: Self.now())
        case .closed(let error):
            transportIsClosed = true
            machine.transportClosed(error: error.map(Self.webSocketError), now: Self.now())
            timer?.cancel()
            timer = nil
        }
        pump()
        if case .closed = event { onWritable() }
    }

    /// How a transport failure reads to a WebSocket user.
    static func webSocketError(_ error: TransportError) -> WebSocketError {
        if error.code == .tls, let failure = error.tlsError { .tls(failure) } else { .transport(error) }
    }

    // MARK: Executing the machine's output

    /// Drains events and output, closes the transport if asked, re-arms the timer. Re-entrant
    /// calls (a user call made from inside `onEvent`) fold into the running loop.
    private func pump() {
        if pumping {
            pumpAgain = true
            return
        }
        pumping = true
        defer { pumping = false }
        repeat {
            pumpAgain = false
            // Events first: what the user sends in reaction joins the same write.
            var delivered = false
            isDeliveringEvents = true
            while let event = machine.nextEvent() {
                switch event {
                case .opened(let info): log.opened(info)
                case .closed(let info): log.closed(info)
                default: break
                }
                onEvent(event)
                delivered = true
            }
            if delivered { onEventsDelivered() }
            isDeliveringEvents = false
            flushOutput()
        } while pumpAgain
        if machine.wantsTransportClosed, !transportCloseRequested {
            transportCloseRequested = true
            transport.close()
        }
        armTimer()
        onPumpFinished()
    }

    private func flushOutput() {
        guard machine.hasOutput else { return }
        if transportIsClosed {
            _ = machine.takeOutput()
            return
        }
        // A pong is written only once the one written before it left the transport: it was the
        // last of its write, so it left when no more than what was queued behind it is buffered.
        if let behind = bytesBehindPong, transport.bufferedAmount <= behind { bytesBehindPong = nil }
        let bufferedBefore = bytesBehindPong == nil ? 0 : transport.bufferedAmount
        let placedPong = machine.takeOutput(appendingTo: &spareOutput, includingPong: bytesBehindPong == nil)
        guard !spareOutput.isEmpty else { return }
        transport.write(spareOutput)
        // Unique again unless the transport kept it (partial write): then this allocates anew.
        spareOutput.removeAll(keepingCapacity: true)
        let buffered = transport.bufferedAmount
        if placedPong {
            bytesBehindPong = 0
        } else if let behind = bytesBehindPong {
            bytesBehindPong = behind + max(0, buffered - bufferedBefore)
        }
        if buffered > writeLimit, !readingPausedForOutput {
            readingPausedForOutput = true
            applyReadingPause()
        }
    }

    private func armTimer() {
        let deadline = transportIsClosed ? nil : Self.earlier(machine.nextDeadline, connectDeadline)
        guard deadline != armedDeadline else { return }
        // A deadline that moved later (keepalive, which every read pushes back) keeps the timer
        // armed for the earlier instant: it then fires early, finds nothing due and is re-armed,
        // at most once per keepalive interval instead of a reschedule after every read.
        if let deadline, let armed = armedDeadline, armed < deadline { return }
        armedDeadline = deadline
        guard let deadline else {
            timer?.unschedule()
            return
        }
        if timer == nil {
            timer = QueueTimer(queue: queue) { [self] in deadlineReached() }
        }
        timer?.schedule(at: deadline)
    }

    private static func earlier(_ a: WebSocketInstant?, _ b: WebSocketInstant?) -> WebSocketInstant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    private func deadlineReached() {
        armedDeadline = nil
        let now = Self.now()
        if let connectDeadline, now >= connectDeadline, let tcp = transport as? TCPTransport {
            self.connectDeadline = nil
            // Reported back as `.closed(.connectTimedOut)`, like the transport's own timer would.
            tcp.connectDeadlinePassed()
        }
        machine.timeElapsed(now: now)
        pump()
    }

    deinit {
        timer?.cancel()
    }
}
