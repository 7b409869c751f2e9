#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLinuxEvents
import Dispatch
import MonotonicTime

/// A thread that waits for socket readiness with `epoll` (Linux) and runs each ready socket's
/// handler on that socket's queue without a thread hand-off: the handler runs in a `sync` onto
/// the queue, on the loop's own thread, when the queue is free.
///
/// Why: on Linux, a Dispatch read source wakes libdispatch's manager thread, which wakes a
/// worker thread to run the handler, whose re-arming of the source pokes the manager again,
/// so every readable socket costs two or three thread wake-ups in turn. With an event loop it
/// costs one: the loop's thread wakes in `epoll_wait` and reads, decodes and answers on the
/// spot, as swift-nio's event loops and the C servers' epoll loops do.
///
/// A loop is bound to one serial queue (`bind(to:)`), and serves only sockets whose queue is
/// that queue or targets it (`TCPTransport.start` finds the loop through the queue's specific
/// value). So the loop waits only for the queue it is bound to: while that queue runs a long
/// block, the loop's sockets wait, as they would on the queue anyway, and no other queue's
/// sockets do. Work on a bound queue must not block (as on any of WireKit's queues).
///
/// The loop also keeps timers (`QueueTimer` on a bound queue): `epoll_wait` sleeps until the
/// earliest, and one scheduled or moved from the loop's own thread (while it runs a socket's
/// handler) costs no system call at all, where re-scheduling a Dispatch timer wakes
/// libdispatch's manager thread.
///
/// The loop's thread exists only while sockets are registered or timers scheduled: it starts
/// with the first and ends after the last is gone, so a process with no open socket and no
/// timer has no loop thread.
/// On platforms without `epoll` (Apple platforms) `bind(to:)` returns `nil` and sockets use
/// Dispatch sources, which there cost no hand-off of this kind (the kernel runs the queues).
///
/// `@unchecked Sendable`: the registration table and the thread's state are guarded by `lock`;
/// the epoll descriptor is immutable and `epoll_ctl` is safe from any thread.
package final class EventLoop: @unchecked Sendable {
    /// The key under which a bound queue carries its loop.
    private static let specificKey = DispatchSpecificKey<EventLoop>()

    /// Whether event loops are used on this platform (`epoll`, Linux only). Set the
    /// environment variable `WIREKIT_EVENT_LOOP=0` to use Dispatch sources instead (for
    /// comparison; the choice is made once, when the first queue is bound).
    package static let isSupported: Bool = {
        #if canImport(Glibc) && os(Linux)
        if let value = getenv("WIREKIT_EVENT_LOOP"), String(cString: value) == "0" { return false }
        return true
        #else
        return false
        #endif
    }()

    private let descriptor: Int32
    /// Written to wake the loop's thread from `epoll_wait`: when a timer is scheduled earlier
    /// than it sleeps, a socket asks for a turn, or the last socket or timer goes (so it ends).
    private let wakeDescriptor: Int32
    private let lock = WireKitLock()
    private var registrations: [UInt64: EventLoopRegistration] = [:]
    private var nextID: UInt64 = 1
    private var threadRunning = false
    /// The loop's thread while it runs.
    private var loopThread: pthread_t?
    /// Scheduled timers by id, with the deadline the loop fires them at; `timerHeap` orders them
    /// (stale entries are skipped when they come to the top).
    private var timers: [UInt64: (timer: QueueTimer, deadline: MonotonicInstant)] = [:]
    private var timerHeap = DeadlineHeap()
    /// The instant the thread sleeps until in `epoll_wait` (nil: not asleep); a timer scheduled
    /// earlier than this wakes it.
    private var sleepingUntil: MonotonicInstant?
    /// Sockets that asked for another turn (`EventLoopRegistration.requestTurn`): each gets one
    /// after the events at hand, in order, before the loop looks for new events.
    private var turns: [EventLoopRegistration] = []
    private let name: String

    /// The loop bound to the queue this code runs on (or to a queue it targets), if any.
    package static var current: EventLoop? { DispatchQueue.getSpecific(key: specificKey) }

    /// Binds a new loop to `queue`: sockets started on `queue`, or on a queue targeting it, are
    /// served by the loop. `nil` where event loops are not supported (see `isSupported`) or the
    /// kernel refused a descriptor; such queues keep using Dispatch sources.
    @discardableResult
    package static func bind(to queue: DispatchQueue, name: String) -> EventLoop? {
        guard isSupported, let loop = EventLoop(name: name) else { return nil }
        queue.setSpecific(key: specificKey, value: loop)
        return loop
    }

    /// Binds a loop to `queue` unless one is bound already, and returns the queue's loop. For a
    /// serial queue a user hands in (a client's callback queue, which its session targets), so
    /// all the sessions on it share one loop. Never for a concurrent queue: its blocks do not
    /// exclude each other, so a loop waiting on one session would hold up the others.
    @discardableResult
    package static func bindIfUnbound(to queue: DispatchQueue, name: String) -> EventLoop? {
        bindingLock.withLock {
            if let loop = queue.getSpecific(key: specificKey) { return loop }
            return bind(to: queue, name: name)
        }
    }

    private static let bindingLock = WireKitLock()

    private init?(name: String) {
        #if canImport(Glibc) && os(Linux)
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            _ = Glibc.close(descriptor)
            return nil
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = 0
        guard epoll_ctl(descriptor, EPOLL_CTL_ADD, wake, &event) == 0 else {
            _ = Glibc.close(wake)
            _ = Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.wakeDescriptor = wake
        self.name = name
        #else
        return nil
        #endif
    }

    deinit {
        #if canImport(Glibc) && os(Linux)
        _ = Glibc.close(wakeDescriptor)
        _ = Glibc.close(descriptor)
        #endif
    }

    /// How many sockets are registered (tests).
    var registrationCount: Int { lock.withLock { registrations.count } }

    /// How many timers are scheduled (tests).
    var scheduledTimerCount: Int { lock.withLock { timers.count } }

    /// Whether the loop's thread runs (tests).
    var isThreadRunning: Bool { lock.withLock { threadRunning } }

    /// Whether the caller runs on the loop's thread (tests: handlers run there, not on a worker).
    var isCurrentThread: Bool {
        lock.withLock { loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// A new timer id.
    func makeTimerID() -> UInt64 {
        lock.withLock {
            defer { nextID += 1 }
            return nextID
        }
    }

    /// Fires `timer` at `deadline` (replacing an earlier schedule): the loop calls
    /// `timer.fire(scheduledFor:)` on the timer's queue.
    func schedule(_ timer: QueueTimer, at deadline: MonotonicInstant) {
        let wake: Bool = lock.withLock {
            timers[timer.id] = (timer, deadline)
            timerHeap.insert(deadline, timer.id)
            if timerHeap.count > 2 * timers.count + 64 { dropStaleTimerEntries() }
            guard let sleepingUntil else { return false }
            return deadline < sleepingUntil
        }
        if wake { poke() }
        startThreadIfNeeded()
    }

    /// Forgets `timer`'s schedule.
    func unschedule(_ timer: QueueTimer) {
        let last: Bool = lock.withLock {
            guard timers.removeValue(forKey: timer.id) != nil else { return false }
            return isIdle && threadRunning
        }
        if last { poke() }
    }

    /// Gives `registration` a turn (`EventLoopReadiness.turn`) after the events at hand.
    fileprivate func requestTurn(_ registration: EventLoopRegistration) {
        let wake: Bool = lock.withLock {
            turns.append(registration)
            return sleepingUntil != nil
        }
        if wake { poke() }
    }

    /// No socket registered and no timer scheduled: the thread has nothing to wait for. With the
    /// lock held.
    private var isIdle: Bool { registrations.isEmpty && timers.isEmpty }

    /// With the lock held.
    private func dropStaleTimerEntries() {
        timerHeap.rebuild { entry in timers[entry.key]?.deadline == entry.deadline }
    }

    /// Watches `fd` for reading (edge-triggered: `handler` runs when new bytes, an EOF or an
    /// error arrive, not again for bytes left unread) and, while `writable` is set, for room to
    /// write. `handler` runs on `queue`, with the ready events (`EventLoopReadiness`), until the
    /// registration is cancelled. Call from `queue`. `nil` if the kernel refused.
    func register(
        fd: Int32, queue: DispatchQueue, writable: Bool, handler: @escaping (EventLoopReadiness) -> Void
    ) -> EventLoopRegistration? {
        #if canImport(Glibc) && os(Linux)
        let registration: EventLoopRegistration = lock.withLock {
            let registration = EventLoopRegistration(id: nextID, fd: fd, loop: self, queue: queue, handler: handler)
            nextID += 1
            registrations[registration.id] = registration
            return registration
        }
        var event = epoll_event()
        event.events = Self.interest(writable: writable)
        event.data.u64 = registration.id
        guard epoll_ctl(descriptor, EPOLL_CTL_ADD, fd, &event) == 0 else {
            let code = errno
            remove(registration)
            errno = code
            return nil
        }
        registration.writable = writable
        startThreadIfNeeded()
        return registration
        #else
        return nil
        #endif
    }

    #if canImport(Glibc) && os(Linux)
    private static func interest(writable: Bool) -> UInt32 {
        var events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        if writable { events |= EPOLLOUT.rawValue }
        return events
    }
    #endif

    /// Turns watching for room to write on or off.
    fileprivate func update(_ registration: EventLoopRegistration, writable: Bool) {
        #if canImport(Glibc) && os(Linux)
        var event = epoll_event()
        event.events = Self.interest(writable: writable)
        event.data.u64 = registration.id
        _ = epoll_ctl(descriptor, EPOLL_CTL_MOD, registration.fd, &event)
        #endif
    }

    /// Stops watching: after this returns, the handler is never called again and the
    /// descriptor may be closed.
    fileprivate func cancel(_ registration: EventLoopRegistration) {
        #if canImport(Glibc) && os(Linux)
        var event = epoll_event()
        _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, registration.fd, &event)
        #endif
        remove(registration)
    }

    private func remove(_ registration: EventLoopRegistration) {
        let last: Bool = lock.withLock {
            registrations[registration.id] = nil
            return isIdle && threadRunning
        }
        // Wake the thread so that it sees it has nothing left to watch and ends.
        if last { poke() }
    }

    private func poke() {
        #if canImport(Glibc) && os(Linux)
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(wakeDescriptor, $0.baseAddress, 8) }
        #endif
    }

    private func startThreadIfNeeded() {
        let start: Bool = lock.withLock {
            guard !threadRunning else { return false }
            threadRunning = true
            return true
        }
        guard start else { return }
        #if canImport(Glibc) && os(Linux)
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                // The thread holds the loop until it ends.
                let loop = Unmanaged<EventLoop>.fromOpaque(argument!).takeRetainedValue()
                loop.run()
                return nil
            }, box.toOpaque())
        if rc == 0 {
            pthread_detach(thread)
        } else {
            box.release()
            lock.withLock { threadRunning = false }
        }
        #endif
    }

    /// The loop's thread: fires due timers and runs each ready socket's handler, each on its
    /// queue, and sleeps in between, until no socket is registered and no timer scheduled.
    private func run() {
        #if canImport(Glibc) && os(Linux)
        wirekit_set_thread_name(name)
        lock.withLock { loopThread = pthread_self() }
        let capacity = 64
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        var ready: [(EventLoopRegistration, UInt32)] = []
        ready.reserveCapacity(capacity)
        var due: [(QueueTimer, MonotonicInstant)] = []
        var turnsNow: [EventLoopRegistration] = []
        while true {
            let now = MonotonicInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds)
            lock.lock()
            while let top = timerHeap.top, top.deadline <= now {
                timerHeap.popTop()
                if let entry = timers[top.key], entry.deadline == top.deadline {
                    timers[top.key] = nil
                    due.append((entry.timer, top.deadline))
                }
            }
            while let top = timerHeap.top, timers[top.key]?.deadline != top.deadline { timerHeap.popTop() }
            if due.isEmpty, isIdle {
                threadRunning = false
                loopThread = nil
                lock.unlock()
                return
            }
            swap(&turns, &turnsNow)
            let busy = !due.isEmpty || !turnsNow.isEmpty
            let wakeAt = busy ? now : timerHeap.top?.deadline
            sleepingUntil = busy ? nil : wakeAt ?? MonotonicInstant(nanoseconds: .max)
            lock.unlock()
            for (timer, deadline) in due {
                timer.queue.sync { timer.fire(scheduledFor: deadline) }
            }
            due.removeAll(keepingCapacity: true)
            // A socket that read its share (see `TCPTransport`) continues here, one turn each, so
            // a flooded socket takes turns with the others instead of holding the loop.
            for registration in turnsNow {
                registration.queue.sync { registration.deliver(.turn) }
            }
            turnsNow.removeAll(keepingCapacity: true)
            // epoll_wait counts milliseconds: round up, so a timer never fires early. With work
            // done just now, only look for new events (turns asked for meanwhile come next).
            let timeout = busy ? 0 : wakeAt.map { Int32(clamping: ($0.nanoseconds - now.nanoseconds + 999_999) / 1_000_000) } ?? -1
            let count = epoll_wait(descriptor, events, Int32(capacity), timeout)
            if count < 0 && errno != EINTR { break }
            var woken = false
            lock.lock()
            sleepingUntil = nil
            for index in 0..<Int(max(0, count)) {
                let id = events[index].data.u64
                if id == 0 {
                    woken = true
                } else if let registration = registrations[id] {
                    ready.append((registration, events[index].events))
                }
            }
            lock.unlock()
            // The wake descriptor is level-triggered: empty it, or it would report again at once.
            if woken { drainWakeDescriptor() }
            for (registration, events) in ready {
                registration.queue.sync { registration.deliver(EventLoopReadiness(rawValue: events)) }
            }
            ready.removeAll(keepingCapacity: true)
        }
        lock.withLock {
            threadRunning = false
            loopThread = nil
        }
        #endif
    }

    private func drainWakeDescriptor() {
        #if canImport(Glibc) && os(Linux)
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { Glibc.read(wakeDescriptor, $0.baseAddress, 8) }
        #endif
    }
}

/// The events an `EventLoop` reports for a socket.
struct EventLoopReadiness: OptionSet, Sendable {
    let rawValue: UInt32

    /// The turn a socket asked for (`EventLoopRegistration.requestTurn`), not an event of the
    /// kernel's (a bit epoll never reports).
    static let turn = EventLoopReadiness(rawValue: 1 << 30)
    var isTurn: Bool { contains(.turn) }

    #if canImport(Glibc) && os(Linux)
    /// Bytes, an EOF (`EPOLLRDHUP`, `EPOLLHUP`) or an error to read.
    var isReadable: Bool { rawValue & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 }
    /// The peer's EOF (`EPOLLRDHUP`, `EPOLLHUP`) or an error is known.
    var isEndOfInput: Bool { rawValue & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 }
    /// Room to write, or an error a write (or a pending connect) will report.
    var isWritable: Bool { rawValue & (EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 }
    #else
    var isReadable: Bool { false }
    var isEndOfInput: Bool { false }
    var isWritable: Bool { false }
    #endif
}

/// One socket watched by an `EventLoop`. Confined to the socket's queue, except `id`, `fd` and
/// `queue`, which never change.
///
/// `@unchecked Sendable`: `handler` (nil once cancelled) and `writable` are read and written on
/// `queue` only (the loop's thread delivers inside `queue.sync`).
final class EventLoopRegistration: @unchecked Sendable {
    let id: UInt64
    let fd: Int32
    let queue: DispatchQueue
    private let loop: EventLoop
    private var handler: ((EventLoopReadiness) -> Void)?
    /// Whether room to write is watched.
    fileprivate(set) var writable = false

    fileprivate init(id: UInt64, fd: Int32, loop: EventLoop, queue: DispatchQueue, handler: @escaping (EventLoopReadiness) -> Void) {
        self.id = id
        self.fd = fd
        self.loop = loop
        self.queue = queue
        self.handler = handler
    }

    fileprivate func deliver(_ readiness: EventLoopReadiness) {
        handler?(readiness)
    }

    /// Asks for a turn (`EventLoopReadiness.turn`) after the events the loop has at hand, for
    /// work left over from this one. On the queue only.
    func requestTurn() {
        guard handler != nil else { return }
        loop.requestTurn(self)
    }

    /// Watches for room to write (`true`) or stops (`false`). On the queue only.
    func watchWritable(_ on: Bool) {
        guard handler != nil, on != writable else { return }
        writable = on
        loop.update(self, writable: on)
    }

    /// Stops watching and drops the handler (and what it holds). On the queue only; the
    /// descriptor may be closed right after.
    func cancel() {
        guard handler != nil else { return }
        handler = nil
        loop.cancel(self)
    }
}
