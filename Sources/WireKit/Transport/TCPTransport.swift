#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A TCP connection on a non-blocking POSIX socket, driven on one serial queue (no thread per
/// connection): by the `EventLoop` bound to that queue where there is one (WireKit's own queues
/// on Linux: one thread wake-up per readable socket), otherwise by Dispatch read/write sources.
///
/// Client side: `init(host:port:connectTimeout:)` resolves the name on a background queue
/// (the caller never blocks; an IP literal skips the resolver), then tries each IPv4/IPv6
/// address in turn with a non-blocking connect, all within `connectTimeout`. Server side:
/// `TCPListener` hands out accepted ones. Reads go into a reused 64 KiB buffer (one per thread,
/// see `ThreadIOBuffers`); writes use one gathered `sendmsg` for all queued buffers, keep what
/// the kernel did not take, and never raise SIGPIPE.
///
/// `@unchecked Sendable`: all mutable state is confined to the queue passed to `start`
/// (see `Transport`); the stored configuration is immutable.
public final class TCPTransport: Transport, @unchecked Sendable {
    /// Size of the reused read buffer (bytes).
    public static let readBufferSize = ThreadIOBuffers.readBufferSize
    /// Most buffers passed to one `sendmsg` call.
    private static let maxIOVecs = ThreadIOBuffers.maxIOVecs

    private enum State {
        case idle, resolving, connecting, open, closing, closed
    }

    private let host: String
    private let port: Int
    private let connectTimeout: Double
    private let lingerTimeout: Double
    private let addressAttemptTimeout: Double

    private var state: State = .idle
    private var queue: DispatchQueue?
    private var handler: (@Sendable (TransportEvent) -> Void)?
    private var fd: Int32 = -1
    private var addresses: [SocketAddress] = []
    private var nextAddressIndex = 0
    private var connectErrors: [Int32] = []
    private var readSource: DispatchSourceRead?
    /// The event loop found on the queue at `start` (see `EventLoop`); `nil`: Dispatch sources.
    private var loop: EventLoop?
    /// The socket's registration with `loop`, from the connect (or open) until closed.
    private var registration: EventLoopRegistration?
    /// The peer's EOF was read on the event-loop path: its read side is done.
    private var inputEnded = false
    /// Whether the owner paused reading (`setReadingPaused`).
    private var readingPaused = false
    /// Whether `readSource` is suspended (created suspended, or paused); resumed before release.
    private var readSourceSuspended = false
    /// Whether a read turn is queued (`scheduleReadTurn`): the read source's wake-ups meanwhile
    /// are left to it, so a connection never has more than one turn waiting on its queue.
    private var readTurnScheduled = false
    /// Exists only while waiting for the socket to become writable (connecting, or the kernel
    /// buffer was full). Never kept suspended: on Linux, a suspended write source can keep
    /// libdispatch from reporting the read side of the same descriptor (a lost EOF).
    private var writeSource: DispatchSourceWrite?
    private var timer: DispatchSourceTimer?
    private var attemptTimer: DispatchSourceTimer?
    private var attemptNumber = 0
    private var closer: DescriptorCloser?
    /// A duplicate of `fd` that only the write sources watch. With both kinds of source on one
    /// descriptor, libdispatch on Linux can miss the read side's EOF or reset (seen when a peer
    /// accepts and closes at once); separate descriptors get separate epoll registrations.
    private var writeFD: Int32 = -1
    private var writeCloser: DescriptorCloser?
    private var pending: [[UInt8]] = []
    private var pendingHead = 0
    private var pendingOffset = 0

    /// Set (before `start`) by an owner that times the connect with a timer it keeps anyway, the
    /// WebSocket driver's: the connect then arms no timer of its own, and the owner calls
    /// `connectDeadlinePassed()` when `connectTimeout` is up.
    var connectTimedByOwner = false

    /// Bytes queued by `write` and not yet handed to the kernel.
    public private(set) var bufferedAmount = 0

    /// The peer's address once connected (e.g. "127.0.0.1:8080", "[::1]:8080").
    public var remoteAddressDescription: String? { remoteAddress?.description }
    /// Kept as an address, and formatted only when asked: `getnameinfo` is no part of connecting.
    private var remoteAddress: SocketAddress?

    /// A client connection to `host`:`port` (a name, an IPv4 literal or an IPv6 literal with
    /// or without brackets), established within `connectTimeout` once started.
    /// - Parameters:
    ///   - host: a name, an IPv4 literal or an IPv6 literal (brackets optional).
    ///   - port: the TCP port.
    ///   - connectTimeout: how long connecting may take in all.
    ///   - lingerTimeout: how long `close()` keeps trying to write buffered bytes.
    ///   - addressAttemptTimeout: when the name has several addresses, how long one attempt may
    ///     hang before the next address is tried; the last one gets what is left of
    ///     `connectTimeout`.
    public init(
        host: String, port: Int, connectTimeout: Duration = .seconds(10), lingerTimeout: Duration = .seconds(5),
        addressAttemptTimeout: Duration = .seconds(2)
    ) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout.wireKitSeconds
        self.lingerTimeout = lingerTimeout.wireKitSeconds
        self.addressAttemptTimeout = addressAttemptTimeout.wireKitSeconds
    }

    /// A client connection trying `addresses` in order, without name resolution.
    init(addresses: [SocketAddress], connectTimeout: Double, addressAttemptTimeout: Double) {
        self.host = addresses.first?.host ?? "?"
        self.port = addresses.first?.port ?? 0
        self.connectTimeout = connectTimeout
        self.lingerTimeout = 5
        self.addressAttemptTimeout = addressAttemptTimeout
        self.addresses = addresses
    }

    /// An accepted, already connected socket (owned from now on).
    init(acceptedSocket fd: Int32, peer: SocketAddress?, lingerTimeout: Double = 5) {
        self.host = peer?.host ?? "?"
        self.port = peer?.port ?? 0
        self.connectTimeout = 0
        self.lingerTimeout = lingerTimeout
        self.addressAttemptTimeout = 0
        self.fd = fd
        self.remoteAddress = peer
    }

    deinit {
        // Sources retain the transport until cancelled, so a live socket cannot get here;
        // an accepted socket that was never started is closed here.
        if fd >= 0, closer == nil { _ = systemClose(fd) }
        if writeFD >= 0, writeCloser == nil { _ = systemClose(writeFD) }
    }

    // MARK: Transport

    public func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) {
        queue.async { [self] in
            guard state == .idle else {
                if state == .closed { queue.async { handler(.closed(nil)) } }
                return
            }
            self.queue = queue
            self.handler = handler
            loop = EventLoop.current
            if fd >= 0 {
                POSIXSocket.prepareAccepted(fd)
                state = .open
                if loop == nil, !attachWriteDescriptor() { return finish(error: .system(operation: "dup", errno: errno)) }
                becomeOpen()
            } else {
                beginResolving(queue: queue)
            }
        }
    }

    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, acceptsWrites else { return }
        var sent = 0
        if state == .open, !waitingForWritable, pendingHead == pending.count, fd >= 0 {
            // Nothing queued: hand the bytes to the kernel straight from the caller's array,
            // and queue only what it did not take.
            sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                var done = 0
                while done < raw.count {
                    let n = systemSend(fd, base + done, raw.count - done, POSIXSocket.sendFlags)
                    if n > 0 {
                        done += n
                    } else if n < 0 && errno == EINTR {
                        continue
                    } else {
                        break  // EAGAIN or a failure: the queued path below reports it.
                    }
                }
                return done
            }
            if sent == bytes.count { return }
        }
        pending.append(bytes)
        if pending.count - pendingHead == 1 { pendingOffset = sent }
        bufferedAmount += bytes.count - sent
        if state == .open, !waitingForWritable { flush() }
    }

    public func close() {
        switch state {
        case .closed, .closing:
            return
        case .idle:
            // Not started (or `start` not yet run): nothing to tear down but the socket.
            state = .closed
            if fd >= 0 { _ = systemClose(fd); fd = -1 }
        case .resolving, .connecting:
            finish(error: nil)
        case .open:
            if bufferedAmount == 0 {
                finish(error: nil)
            } else {
                state = .closing
                armTimer(seconds: lingerTimeout) { [self] in finish(error: nil) }
            }
        }
    }

    // MARK: Connecting

    private var acceptsWrites: Bool {
        switch state {
        case .idle, .resolving, .connecting, .open: return true
        case .closing, .closed: return false
        }
    }

    private func beginResolving(queue: DispatchQueue) {
        state = .resolving
        let host = self.host, port = self.port
        if !connectTimedByOwner {
            armTimer(seconds: connectTimeout) { [self] in connectDeadlinePassed() }
        }
        // An IP literal needs no resolver: connect at once, on this queue.
        if addresses.isEmpty, let literal = SocketAddress.numeric(host: host, port: port) { addresses = [literal] }
        if !addresses.isEmpty {
            state = .connecting
            return connectNextAddress()
        }
        // getaddrinfo blocks: on a thread of its own, never on a queue other sockets share.
        SharedQueues.runBlocking {
            let result = SocketAddress.resolve(host: host, port: port, passive: false)
            queue.async { [self] in
                guard state == .resolving else { return }
                switch result {
                case .failure(let error):
                    finish(error: error)
                case .success(let resolved):
                    addresses = resolved
                    state = .connecting
                    connectNextAddress()
                }
            }
        }
    }

    /// `connectTimeout` is up: a connect still under way fails with `.connectTimedOut`. On the
    /// queue only.
    func connectDeadlinePassed() {
        guard state == .resolving || state == .connecting else { return }
        finish(error: .connectTimedOut(host: host, port: port, timeout: .seconds(connectTimeout)))
    }

    /// Starts a non-blocking connect to the next address, or fails with the most telling error.
    private func connectNextAddress() {
        guard let queue else { return }
        while nextAddressIndex < addresses.count {
            let address = addresses[nextAddressIndex]
            nextAddressIndex += 1
            let socketResult = POSIXSocket.makeStreamSocket(family: address.family)
            guard case .success(let newFD) = socketResult else {
                if case .failure(let error) = socketResult, error.code == .system, let code = error.errnoCode { connectErrors.append(code) }
                continue
            }
            POSIXSocket.setNoDelay(newFD)
            var rc: Int32 = 0
            repeat {
                rc = address.withSockAddr { systemConnect(newFD, $0, $1) }
            } while rc != 0 && errno == EINTR
            let code = rc == 0 ? 0 : errno
            if rc != 0 && code != EINPROGRESS {
                connectErrors.append(code)
                _ = systemClose(newFD)
                continue
            }
            fd = newFD
            remoteAddress = address
            // Over loopback the connect has usually ended by the time `connect` returns: then
            // there is no write source to register, fire and cancel (each a wake-up of
            // libdispatch's manager thread) and no duplicate descriptor to make for it.
            if rc == 0 || POSIXSocket.hasConnectEnded(newFD) {
                return connectCompleted()
            }
            guard loop != nil || attachWriteDescriptor() else {
                connectErrors.append(errno)
                _ = systemClose(newFD)
                fd = -1
                continue
            }
            startWaitingForWritable(queue: queue)
            guard state == .connecting else { return }
            if nextAddressIndex < addresses.count { armAttemptTimer(queue: queue) }
            return
        }
        finish(error: connectFailure())
    }

    /// Gives up on a hanging attempt (e.g. an IPv6 route that drops SYNs) so the next address
    /// gets its turn before the overall timeout.
    private func armAttemptTimer(queue: DispatchQueue) {
        attemptNumber += 1
        let attempt = attemptNumber
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + addressAttemptTimeout)
        timer.setEventHandler { [self] in
            guard state == .connecting, attempt == attemptNumber else { return }
            attemptTimer = nil
            connectErrors.append(ETIMEDOUT)
            cancelSources()
            connectNextAddress()
        }
        attemptTimer?.cancel()
        attemptTimer = timer
        timer.resume()
    }

    private func cancelAttemptTimer() {
        attemptNumber += 1
        attemptTimer?.cancel()
        attemptTimer = nil
    }

    /// The write source fired while connecting: the connect finished one way or the other.
    private func connectCompleted() {
        let code = POSIXSocket.pendingError(fd)
        if code != EINPROGRESS && code != EALREADY { cancelAttemptTimer() }
        if code == 0 {
            becomeOpen()
            return
        }
        if code == EINPROGRESS || code == EALREADY { return }
        connectErrors.append(code)
        cancelSources()
        connectNextAddress()
    }

    private func connectFailure() -> TransportError {
        if connectErrors.contains(ECONNREFUSED) { return .connectionRefused(host: host, port: port) }
        if connectErrors.contains(where: { $0 == ENETUNREACH || $0 == EHOSTUNREACH || $0 == EADDRNOTAVAIL || $0 == EAFNOSUPPORT }) {
            return .unreachable(host: host, port: port)
        }
        if connectErrors.contains(ETIMEDOUT) {
            return .connectTimedOut(host: host, port: port, timeout: .seconds(connectTimeout))
        }
        return .system(operation: "connect", errno: connectErrors.last ?? EIO)
    }

    private func becomeOpen() {
        guard let queue else { return }
        cancelTimer()
        state = .open
        if let loop {
            if registration == nil {
                guard register(with: loop, queue: queue, writable: false) else { return }
            }
        } else {
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [self] in
                if !readTurnScheduled { readAvailable() }
            }
            let closer = self.closer ?? DescriptorCloser(fd: fd)
            self.closer = closer
            track(source, with: closer)
            readSource = source
            if readingPaused {
                readSourceSuspended = true
            } else {
                source.resume()
            }
        }
        stopWaitingForWritable()  // the connect's write source
        handler?(.connected)
        if state == .open, !waitingForWritable, bufferedAmount > 0 { flush() }
        // Bytes or an EOF that arrived before the read source was armed may never be reported
        // by it (libdispatch on Linux), so look once now.
        if state == .open, !readingPaused { readAvailable() }
    }

    // MARK: The event loop

    /// Registers the socket with `loop`; on failure finishes with the error and returns false.
    private func register(with loop: EventLoop, queue: DispatchQueue, writable: Bool) -> Bool {
        registration = loop.register(fd: fd, queue: queue, writable: writable) { [self] readiness in
            loopReported(readiness)
        }
        guard registration == nil else { return true }
        finish(error: .system(operation: "epoll_ctl", errno: errno))
        return false
    }

    /// The loop reported the socket ready (edge-triggered: each arrival once).
    private func loopReported(_ readiness: EventLoopReadiness) {
        if readiness.isTurn { return takeReadTurn() }
        if readiness.isWritable, registration?.writable == true {
            if state == .connecting { connectCompleted() } else { flush() }
        }
        if readiness.isReadable, state == .open || state == .closing, !inputEnded, !readingPaused, !readTurnScheduled {
            // A short read drained the socket: what arrives later is a new edge. Unless the peer's
            // EOF (or an error) is already known, whose zero-byte read must not be missed.
            readAvailable(stopAtShortRead: !readiness.isEndOfInput)
        }
    }

    /// Whether the socket's read side is still watched (by either path).
    private var readingActive: Bool { readSource != nil || (registration != nil && !inputEnded) }

    /// Whether the socket is watched for room to write (connecting, or the kernel buffer was full).
    private var waitingForWritable: Bool { writeSource != nil || registration?.writable == true }

    // MARK: Reading

    public func setReadingPaused(_ paused: Bool) {
        guard paused != readingPaused else { return }
        readingPaused = paused
        if registration != nil {
            // Edge-triggered: what arrived while paused is not reported again; look once.
            if !paused { scheduleReadTurn() }
            return
        }
        guard let readSource else { return }
        if paused {
            readSource.suspend()
            readSourceSuspended = true
        } else {
            if readSourceSuspended {
                readSourceSuspended = false
                readSource.resume()
            }
            // Look once in a fresh block (never re-entrantly): what arrived while paused may not
            // be reported again.
            scheduleReadTurn()
        }
    }

    /// - Parameter stopAtShortRead: stop after a read that did not fill the buffer (the socket
    ///   was drained then; the event loop's edge-triggered wake-ups report what comes later)
    ///   instead of reading until `EAGAIN`.
    private func readAvailable(stopAtShortRead: Bool = false) {
        // Read until EAGAIN (not just once): libdispatch on Linux may not report an EOF that
        // follows data in the same wake-up again. After 4 full buffers (256 KiB), yield to the
        // queue's other work and continue in a fresh block rather than relying on another event:
        // connections sharing a queue (a server's, the broker's) take turns of at most 256 KiB
        // each, so a peer that floods (pings, a huge message) delays the others by one short
        // turn, not by everything it sent. One turn at most waits on the queue per connection:
        // were every wake-up of the read source to start a chain of turns of its own, a flood
        // would soon have hundreds of turns queued ahead of everyone else's (other connections'
        // calls then waited 140 ms and more on 2 cores; with one turn, a few milliseconds).
        for _ in 0..<4 {
            guard state == .open || state == .closing, fd >= 0, !readingPaused else { return }
            let readBuffer = ThreadIOBuffers.readBuffer
            let n = systemRead(fd, readBuffer.baseAddress, readBuffer.count)
            if n > 0 {
                if state == .open {
                    handler?(.received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])))
                }
                if stopAtShortRead, n < readBuffer.count { return }
            } else if n == 0 {
                // EOF: the read source would fire forever, so it goes away.
                readSource?.cancel()
                readSource = nil
                inputEnded = true
                if state == .open { handler?(.inputClosed) } else { finish(error: nil) }
                return
            } else {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return }
                finish(error: code == ECONNRESET || code == EPIPE || code == ETIMEDOUT ? .connectionReset : .system(operation: "read", errno: code))
                return
            }
        }
        scheduleReadTurn()
    }

    /// Queues one read turn behind the queue's other work (on an event loop: behind the other
    /// sockets' events and turns), unless one is queued already.
    private func scheduleReadTurn() {
        guard !readTurnScheduled, let queue else { return }
        readTurnScheduled = true
        if let registration {
            registration.requestTurn()
            return
        }
        queue.async { [self] in takeReadTurn() }
    }

    /// The turn `scheduleReadTurn` queued (by either path).
    private func takeReadTurn() {
        readTurnScheduled = false
        if readingActive, !readingPaused { readAvailable() }
    }

    // MARK: Writing

    private func startWaitingForWritable(queue: DispatchQueue) {
        if let loop {
            if let registration {
                registration.watchWritable(true)
            } else {
                _ = register(with: loop, queue: queue, writable: true)
            }
            return
        }
        guard writeSource == nil else { return }
        // A connect that ended at once made no duplicate yet.
        if writeFD < 0, !attachWriteDescriptor() { return finish(error: .system(operation: "dup", errno: errno)) }
        let source = DispatchSource.makeWriteSource(fileDescriptor: writeFD, queue: queue)
        source.setEventHandler { [self] in
            if state == .connecting { connectCompleted() } else { flush() }
        }
        let closer = writeCloser ?? DescriptorCloser(fd: writeFD)
        writeCloser = closer
        track(source, with: closer)
        writeSource = source
        source.resume()
    }

    private func stopWaitingForWritable() {
        registration?.watchWritable(false)
        writeSource?.cancel()
        writeSource = nil
    }

    /// Hands as many queued bytes to the kernel as it takes; waits for the write source if it
    /// takes fewer.
    private func flush() {
        let waited = waitingForWritable
        while bufferedAmount > 0 {
            guard state == .open || state == .closing else { return }
            let n = sendPending()
            if n >= 0 {
                consume(n)
                continue
            }
            let code = Int32(-n)
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                if let queue { startWaitingForWritable(queue: queue) }
                return
            }
            finish(error: code == EPIPE || code == ECONNRESET || code == ETIMEDOUT ? .connectionReset : .system(operation: "write", errno: code))
            return
        }
        stopWaitingForWritable()
        if state == .closing {
            finish(error: nil)
            return
        }
        if waited { handler?(.writable) }
    }

    /// One gathered `sendmsg` of up to `maxIOVecs` queued buffers: bytes sent, or `-errno`.
    private func sendPending() -> Int {
        let count = min(pending.count - pendingHead, Self.maxIOVecs)
        let iovecs = ThreadIOBuffers.iovecs
        func fill(_ i: Int) -> Int {
            if i == count {
                var message = msghdr()
                message.msg_iov = iovecs
                message.msg_iovlen = numericCast(count)
                let n = sendmsg(fd, &message, POSIXSocket.sendFlags)
                return n >= 0 ? n : -Int(errno)
            }
            return pending[pendingHead + i].withUnsafeBytes { raw -> Int in
                let skip = i == 0 ? pendingOffset : 0
                // Non-empty by construction (empty writes are dropped).
                guard let base = raw.baseAddress else { return fill(i + 1) }
                iovecs[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + skip), iov_len: raw.count - skip)
                return fill(i + 1)
            }
        }
        return fill(0)
    }

    private func consume(_ count: Int) {
        var left = count
        bufferedAmount -= count
        while left > 0, pendingHead < pending.count {
            let available = pending[pendingHead].count - pendingOffset
            if left >= available {
                left -= available
                pendingHead += 1
                pendingOffset = 0
            } else {
                pendingOffset += left
                left = 0
            }
        }
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 256)
            pendingHead = 0
        } else if pendingHead >= 64 {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
    }

    // MARK: Closing

    /// Tears everything down and delivers `.closed(error)` (asynchronously: never from inside
    /// a call the owner made).
    private func finish(error: TransportError?) {
        guard state != .closed else { return }
        state = .closed
        cancelTimer()
        cancelAttemptTimer()
        cancelSources()
        pending.removeAll()
        pendingHead = 0
        pendingOffset = 0
        bufferedAmount = 0
        guard let handler, let queue else { return }
        self.handler = nil
        queue.async { handler(.closed(error)) }
    }

    /// Cancels the sources and closes both descriptors, each once its last source is cancelled.
    private func cancelSources() {
        guard fd >= 0 else { return }
        // After `cancel` the loop never reports the descriptor again: it may be closed at once.
        registration?.cancel()
        registration = nil
        readSource?.cancel()
        if readSourceSuspended {
            // A suspended source's cancel handler (which closes the descriptor) never runs.
            readSourceSuspended = false
            readSource?.resume()
        }
        writeSource?.cancel()
        readSource = nil
        writeSource = nil
        if let closer { closer.requestClose() } else { _ = systemClose(fd) }
        if let writeCloser { writeCloser.requestClose() } else if writeFD >= 0 { _ = systemClose(writeFD) }
        closer = nil
        writeCloser = nil
        fd = -1
        writeFD = -1
    }

    /// Duplicates `fd` for the write sources (close-on-exec). False if out of descriptors.
    private func attachWriteDescriptor() -> Bool {
        writeFD = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        return writeFD >= 0
    }

    /// Counts `source` against `closer`, so a descriptor is closed only after every source
    /// watching it is gone (closing earlier could let the kernel reuse the number while
    /// Dispatch still watches it).
    private func track(_ source: DispatchSourceProtocol, with closer: DescriptorCloser) {
        closer.liveSources += 1
        source.setCancelHandler { closer.sourceCancelled() }
    }

    private func armTimer(seconds: Double, _ action: @escaping @Sendable () -> Void) {
        guard let queue else { return }
        cancelTimer()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler(handler: action)
        self.timer = timer
        timer.resume()
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}

/// Closes a descriptor once it was asked to and every Dispatch source watching it has been
/// cancelled. `@unchecked Sendable`: only touched on the owning transport's queue (cancel
/// handlers run on the sources' queue, which is that queue).
private final class DescriptorCloser: @unchecked Sendable {
    let fd: Int32
    var liveSources = 0
    private var closeRequested = false
    private var closed = false

    init(fd: Int32) { self.fd = fd }

    func sourceCancelled() {
        liveSources -= 1
        closeIfDone()
    }

    func requestClose() {
        closeRequested = true
        closeIfDone()
    }

    private func closeIfDone() {
        guard closeRequested, liveSources == 0, !closed else { return }
        closed = true
        _ = systemClose(fd)
    }
}

// The C calls whose names clash with this class's methods.
@inline(__always) private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}

@inline(__always) private func systemSend(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
    return Glibc.send(fd, buffer, count, flags)
    #else
    return Darwin.send(fd, buffer, count, flags)
    #endif
}

@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}

@inline(__always) private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    return Glibc.connect(fd, address, length)
    #else
    return Darwin.connect(fd, address, length)
    #endif
}
