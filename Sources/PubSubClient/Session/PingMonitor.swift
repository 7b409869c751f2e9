/// The client's liveness timer (Protocol.md §10): restarted by every server ping; before the handshake it
/// runs for `connectTimeout`, afterwards for the server's `pingTimeout`. When it fires the
/// client closes with 4000. The client never pings on its own.
struct PingMonitor: Sendable {
    let version: PingProtocolVersion
    let disabled: Bool
    /// When the connection is declared dead, if the timer runs.
    private(set) var deadline: MonotonicInstant?
    /// Milliseconds the timer runs after each ping.
    private(set) var timeout: Int64 = 0

    init(version: PingProtocolVersion, disabled: Bool) {
        self.version = version
        self.disabled = disabled
    }

    /// The pong to send for `text` if it is a ping of the configured protocol, else nil.
    func pong(for text: String) -> String? { version.pong(for: text) }

    /// Starts (or restarts) the timer with a new timeout in milliseconds.
    mutating func start(timeout: Int64, now: MonotonicInstant) {
        self.timeout = timeout
        restart(now: now)
    }

    /// A ping arrived: the timer runs again for the current timeout.
    /// A non-positive timeout (a server sending nonsense) runs no timer rather than closing at once.
    mutating func restart(now: MonotonicInstant) {
        deadline = disabled || timeout <= 0 ? nil : now + .milliseconds(timeout)
    }

    mutating func stop() { deadline = nil }

    func hasExpired(now: MonotonicInstant) -> Bool {
        if let deadline { return deadline <= now }
        return false
    }
}
