import Foundation

/// The broker's serial context: owns `BrokerCore`, runs it on one dispatch queue, carries out the
/// actions it returns (frames to the transport, timers, application handlers) and feeds back the
/// application's commands. Application handlers for procedures start on this queue, so a
/// synchronous handler's pushes and its answer leave in the order it made them.
final class BrokerEngine: @unchecked Sendable {
    // Every mutable property below is confined to `queue`, except `inFlight` (guarded by
    // `inFlightLock`) and `nextConnection` (guarded by `connectionLock`).
    enum ProcedureHandler {
        case sync(@Sendable (BrokerRequest) throws -> JSONValue?)
        case async(@Sendable (BrokerRequest) async throws -> JSONValue?)
    }

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<UInt8>()
    private var core: BrokerCore
    private let clock: @Sendable () -> ClockReading
    private let log: BrokerLog
    private var scheduler: DeadlineScheduler?
    /// The deadline the scheduler's timer is armed for.
    private var armedDeadline: MonotonicInstant?
    private weak var transport: BrokerTransport?

    private var procedures: [String: ProcedureHandler] = [:]
    private var receivers: [String: @Sendable (BrokerMessage) -> Void] = [:]
    private var hooks = BrokerHooks()
    private var connectionHandlers: [@Sendable (BrokerSocket) -> Void] = []
    private var disconnectionHandlers: [@Sendable (BrokerDisconnection) -> Void] = []
    private var slowConsumerHandlers: [@Sendable (BrokerSlowConsumer) -> Void] = []
    private var socketIDs: [BrokerConnectionID: String] = [:]
    private var openCalls: [UInt64: (connection: BrokerConnectionID, cid: BrokerCallID)] = [:]
    private var nextCallID: UInt64 = 1
    private var invokeWaiters: [UInt64: (event: String, continuation: CheckedContinuation<JSONValue?, any Error>)] = [:]

    private let connectionLock = NSLock()
    private var nextConnection: UInt64 = 1
    private let inFlightLock = NSLock()
    private var inFlight = 0

    /// What the runtime reads from its clocks for one input: the monotonic instant every
    /// deadline uses, and the wall-clock time JWT `iat`/`exp` need.
    struct ClockReading: Sendable {
        var now: MonotonicInstant
        var wallClock: Date

        /// The system's uptime clock and wall clock.
        static func system() -> ClockReading {
            ClockReading(now: MonotonicInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds), wallClock: Date())
        }
    }

    init(options: BrokerOptions, clock: @escaping @Sendable () -> ClockReading = { .system() }, label: String = "PubSubBroker") {
        queue = DispatchQueue(label: label)
        // The broker's connections are read on a loop bound to its queue (Linux): one thread
        // wake-up per readable socket instead of libdispatch's two or three.
        EventLoop.bind(to: queue, name: label)
        core = BrokerCore(options: options)
        log = BrokerLog(options: options)
        self.clock = clock
        queue.setSpecific(key: queueKey, value: 1)
    }

    /// Connects the I/O side; `scheduler` defaults to a Dispatch timer on the broker queue.
    func attach(transport: BrokerTransport, scheduler: DeadlineScheduler? = nil) {
        sync {
            self.transport = transport
            self.scheduler = scheduler ?? DispatchDeadlineScheduler(queue: queue)
        }
    }

    var options: BrokerOptions { read { core in core.options } }

    // MARK: - Serial context

    private var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) != nil }

    /// Runs `body` on the queue and waits (runs inline when already on it).
    func sync<T>(_ body: () -> T) -> T {
        isOnQueue ? body() : queue.sync(execute: body)
    }

    /// Reads core state.
    func read<T>(_ body: (BrokerCore) -> T) -> T {
        sync { body(core) }
    }

    /// Applies a command to the core and carries out its actions: at once when called on the
    /// queue (inside a handler), else asynchronously in call order.
    func perform(_ body: @escaping @Sendable (inout BrokerCore, ClockReading) -> Void) {
        if isOnQueue {
            body(&core, clock())
            execute()
        } else {
            queue.async {
                body(&self.core, self.clock())
                self.execute()
            }
        }
    }

    /// Applies a command that returns a value, waiting for it.
    func performReturning<T>(_ body: (inout BrokerCore, ClockReading) -> T) -> T {
        sync {
            let value = body(&core, clock())
            execute()
            return value
        }
    }

    /// Handlers currently running outside the queue (async procedures); for tests that wait for
    /// quiescence.
    var inFlightHandlerCount: Int {
        inFlightLock.lock()
        defer { inFlightLock.unlock() }
        return inFlight
    }

    private func adjustInFlight(_ delta: Int) {
        inFlightLock.lock()
        inFlight += delta
        inFlightLock.unlock()
    }

    // MARK: - Registration

    func setProcedure(_ name: String, _ handler: ProcedureHandler) {
        sync { procedures[name] = handler }
    }

    func setReceiver(_ name: String, _ handler: @escaping @Sendable (BrokerMessage) -> Void) {
        sync { receivers[name] = handler }
    }

    func setHooks(_ update: (inout BrokerHooks) -> Void) {
        sync {
            update(&hooks)
            core.authorizesSubscribe = hooks.authorizeSubscribe != nil
            core.authorizesPublish = hooks.authorizePublish != nil
            core.authorizesHandshake = hooks.authorizeHandshake != nil
        }
    }

    func addConnectionHandler(_ handler: @escaping @Sendable (BrokerSocket) -> Void) {
        sync { connectionHandlers.append(handler) }
    }

    func addDisconnectionHandler(_ handler: @escaping @Sendable (BrokerDisconnection) -> Void) {
        sync { disconnectionHandlers.append(handler) }
    }

    func addSlowConsumerHandler(_ handler: @escaping @Sendable (BrokerSlowConsumer) -> Void) {
        sync { slowConsumerHandlers.append(handler) }
    }

    // MARK: - Transport inputs (any thread; at once on the queue, where the network side runs)

    /// Registers a newly accepted connection and returns its id.
    func connectionOpened() -> BrokerConnectionID {
        connectionLock.lock()
        let connection = BrokerConnectionID(rawValue: nextConnection)
        nextConnection += 1
        connectionLock.unlock()
        guard isOnQueue else {
            queue.async { self.register(connection) }
            return connection
        }
        register(connection)
        return connection
    }

    private func register(_ connection: BrokerConnectionID) {
        core.connectionOpened(connection, now: clock().now)
        execute()
        if let id = core.socketInfo(connection)?.id { socketIDs[connection] = id }
    }

    func received(text: String, from connection: BrokerConnectionID) {
        guard isOnQueue else { return queue.async { self.received(text: text, from: connection) } }
        let clock = self.clock()
        core.receivedText(text, from: connection, now: clock.now, wallClock: clock.wallClock)
        execute()
    }

    func received(binary: [UInt8], from connection: BrokerConnectionID) {
        guard isOnQueue else { return queue.async { self.received(binary: binary, from: connection) } }
        core.receivedBinary(binary, from: connection, wallClock: clock().wallClock)
        execute()
    }

    func connectionClosed(_ connection: BrokerConnectionID, code: UInt16, reason: String) {
        guard isOnQueue else { return queue.async { self.connectionClosed(connection, code: code, reason: reason) } }
        core.connectionClosed(connection, code: code, reason: reason)
        execute()
        socketIDs[connection] = nil
    }

    /// The transport found `bufferedBytes` waiting on the connection, over
    /// `maxOutboundBufferedBytes`, and stopped writing to it: the slow-consumer handlers run,
    /// then the session ends with `BrokerOptions.slowConsumerCloseCode` and `reason` (the transport
    /// has already sent that close). Always queued: the transport reports it from inside a step.
    func slowConsumer(_ connection: BrokerConnectionID, bufferedBytes: Int, reason: String) {
        queue.async {
            self.log.slowConsumer(connection, socket: self.socketIDs[connection], bufferedBytes: bufferedBytes)
            if let id = self.socketIDs[connection], self.core.socketInfo(connection) != nil {
                let slow = BrokerSlowConsumer(
                    socket: BrokerSocket(id: id, connection: connection, engine: self), bufferedBytes: bufferedBytes)
                for handler in self.slowConsumerHandlers { handler(slow) }
            }
            self.core.disconnect(connection, code: BrokerOptions.slowConsumerCloseCode.rawValue, reason: reason)
            self.execute()
        }
    }

    /// The core's deadline passed (called by the scheduler on the queue).
    func deadlineReached() {
        sync {
            core.timeElapsed(now: clock().now)
            execute()
        }
    }

    // MARK: - Application commands

    func answer(callID: UInt64, result: Result<JSONValue?, RemoteError>) {
        perform { [self] core, _ in
            // Runs on the queue: `openCalls` is confined to it.
            guard let call = self.openCalls.removeValue(forKey: callID) else { return }
            core.respond(to: call.connection, cid: call.cid, result: result)
        }
    }

    func invoke(
        connection: BrokerConnectionID, socketID: String, event: String, data: JSONValue?, ackTimeout: Duration?
    ) async throws -> JSONValue? {
        try await withCheckedThrowingContinuation { continuation in
            perform { [self] core, now in
                let token = core.invoke(on: connection, event: event, data: data, ackTimeout: ackTimeout, now: now.now)
                guard let token else {
                    continuation.resume(throwing: PubSubBrokerError.socketNotOpen(socketID: socketID))
                    return
                }
                self.invokeWaiters[token] = (event, continuation)
            }
        }
    }

    func socket(for connection: BrokerConnectionID) -> BrokerSocket? {
        sync { socketIDs[connection].map { BrokerSocket(id: $0, connection: connection, engine: self) } }
    }

    var connectedSockets: [BrokerSocket] {
        sync {
            core.connectedSockets.compactMap { connection in
                socketIDs[connection].map { BrokerSocket(id: $0, connection: connection, engine: self) }
            }
        }
    }

    /// Closes every connection with `code` (used by `stop`).
    func disconnectAll(code: UInt16, reason: String) {
        sync {
            for connection in Array(core.sessions.keys).sorted(by: { $0.rawValue < $1.rawValue }) {
                core.disconnect(connection, code: code, reason: reason)
                execute()
            }
            scheduler?.schedule(at: nil, now: clock().now) {}
        }
    }

    // MARK: - Carrying out actions (on the queue)

    /// Carries out the actions the core queued, flushes the transport (the step's frames leave
    /// together), then arms the one timer for its next deadline.
    /// The queued actions are taken first, so a synchronous handler's own command (run from
    /// `carryOut`) executes its actions at once, before the rest of this list.
    private func execute() {
        // A worklist rather than recursion: an authorization's outcome runs before the rest of
        // the list (held back meanwhile), and a long batch of authorized packets does not deepen
        // the stack. `held` allocates only when an authorization holds a list back.
        var current = takeActions()
        var held: [ArraySlice<BrokerAction>] = []
        while true {
            guard let action = current.popFirst() else {
                guard let next = held.popLast() else { break }
                current = next
                continue
            }
            if case .authorize(let connection, .handshake(let handshake)) = action {
                core.handshakeDecided(connection, rejection: authorizeHandshake(handshake), wallClock: clock().wallClock)
                held.append(current)
                current = takeActions()
                continue
            }
            if case .authorize(let connection, let request) = action {
                core.authorizationDecided(connection, rejection: authorize(request), wallClock: clock().wallClock)
                held.append(current)
                current = takeActions()
                continue
            }
            carryOut(action)
        }
        transport?.flush()
        let deadline = core.nextDeadline
        guard deadline != armedDeadline else { return }
        armedDeadline = deadline
        // The timer holds this engine strongly, not weakly: a weak reference gives the engine a
        // side table, and every retain and release of it then takes the runtime's slow path
        // (each message and call retains it). The hold lasts while a deadline is armed, that is
        // while sessions are open, whose connections hold the engine anyway.
        scheduler?.schedule(at: deadline, now: clock().now) { [self] in
            armedDeadline = nil
            deadlineReached()
            // Nothing re-armed (no session left): let the timer go, and its hold with it.
            if armedDeadline == nil { scheduler?.schedule(at: nil, now: clock().now) {} }
        }
    }

    private func takeActions() -> ArraySlice<BrokerAction> {
        var actions: [BrokerAction] = []
        while let action = core.nextAction() { actions.append(action) }
        return actions[...]
    }

    /// Runs the application's hook; returns its error, `nil` when it allows.
    private func authorize(_ request: BrokerAuthorizationRequest) -> RemoteError? {
        do {
            switch request {
            case .subscribe(let subscribe): try hooks.authorizeSubscribe?(subscribe)
            case .publish(let publish): try hooks.authorizePublish?(publish)
            case .handshake: break  // `authorizeHandshake`
            }
            return nil
        } catch {
            return RemoteError(applicationError: error)
        }
    }

    /// Runs the application's handshake hook; returns the rejection, `nil` when it allows.
    private func authorizeHandshake(_ request: BrokerHandshakeRequest) -> BrokerHandshakeRejection? {
        do {
            try hooks.authorizeHandshake?(request)
            return nil
        } catch let rejection as BrokerHandshakeRejection {
            return rejection
        } catch {
            return BrokerHandshakeRejection(reason: String(describing: error))
        }
    }

    private func carryOut(_ action: BrokerAction) {
        switch action {
        case .authorize:
            break  // Handled by `execute`, which needs the rest of the list.
        case .send(let connection, let utf8):
            transport?.send(utf8, on: connection)
        case .sendBinary(let connection, let bytes):
            transport?.sendBinary(bytes, on: connection)
        case .close(let connection, let code, let reason):
            log.closing(connection, socket: socketIDs[connection], code: code, reason: reason)
            transport?.close(connection, code: code, reason: reason)
        case .callProcedure(let call):
            callProcedure(call)
        case .deliverMessage(let message):
            guard let receiver = receivers[message.receiver] else { return }
            let socket = BrokerSocket(id: message.socket.id, connection: message.connection, engine: self)
            receiver(BrokerMessage(socket: socket, receiver: message.receiver, data: message.data))
        case .completeInvoke(let token, let result):
            guard let waiter = invokeWaiters.removeValue(forKey: token) else { return }
            switch result {
            case .success(let data):
                waiter.continuation.resume(returning: data)
            case .failure(.remote(let payload)):
                waiter.continuation.resume(throwing: payload)
            case .failure(.timedOut):
                waiter.continuation.resume(throwing: PubSubBrokerError.invokeTimedOut(event: waiter.event))
            case .failure(.connectionClosed):
                waiter.continuation.resume(throwing: PubSubBrokerError.connectionClosed(event: waiter.event))
            }
        case .channelLimitReached(let connection, let channel, let limit):
            log.channelLimitReached(connection, socket: socketIDs[connection], channel: channel, limit: limit)
        case .channelNameTooLong(let connection, let length, let limit):
            log.channelNameTooLong(connection, socket: socketIDs[connection], length: length, limit: limit)
        case .subscriptionBytesLimitReached(let connection, let limit):
            log.subscriptionBytesLimitReached(connection, socket: socketIDs[connection], limit: limit)
        case .socketConnected(let connection, let info):
            log.connected(connection, socket: info.id)
            let socket = BrokerSocket(id: info.id, connection: connection, engine: self)
            for handler in connectionHandlers { handler(socket) }
        case .socketDisconnected(let connection, let info, let code, let reason):
            log.disconnected(connection, socket: info.id, code: code, reason: reason)
            let disconnection = BrokerDisconnection(
                socket: BrokerSocket(id: info.id, connection: connection, engine: self), code: SocketClusterCloseCode(code),
                reason: reason)
            for handler in disconnectionHandlers { handler(disconnection) }
        }
    }

    private func callProcedure(_ call: BrokerInboundCall) {
        // A procedure nobody registered is never answered, as socketcluster-server does.
        guard let handler = procedures[call.procedure] else { return }
        let callID = nextCallID
        nextCallID += 1
        openCalls[callID] = (call.connection, call.cid)
        let request = BrokerRequest(
            socket: BrokerSocket(id: call.socket.id, connection: call.connection, engine: self),
            procedure: call.procedure, data: call.data, callID: callID)
        switch handler {
        case .sync(let body):
            do {
                let result = try body(request)
                answer(callID: callID, result: .success(result))
            } catch {
                answer(callID: callID, result: .failure(RemoteError(applicationError: error)))
            }
        case .async(let body):
            adjustInFlight(1)
            Task {
                do {
                    let result = try await body(request)
                    self.answer(callID: callID, result: .success(result))
                } catch {
                    self.answer(callID: callID, result: .failure(RemoteError(applicationError: error)))
                }
                // Let the answer reach the queue before counting the handler as done.
                self.queue.async { self.adjustInFlight(-1) }
            }
        }
    }
}
