import Foundation

/// Failures of the broker's own API (errors the client sends back arrive as `RemoteError`).
///
/// Match on ``code``; the other fields say what the error was about where that applies:
///
/// ```swift
/// do {
///     let broker = try await PubSubBroker.start(port: 8000)
/// } catch PubSubBrokerError.Code.listenFailed {
///     print("port 8000 is taken")
/// }
///
/// switch error.code {
/// case .invokeTimedOut: retry()
/// default: print(error)
/// }
/// ```
///
/// New codes may be added in minor releases; match with `default:`.
public struct PubSubBrokerError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// What kind of failure it is. New codes may be added in minor releases; match with `default:`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"listenFailed"`.
        public var rawValue: String

        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The socket has not completed its handshake or has closed (``PubSubBrokerError/socketID``).
        public static let socketNotOpen = Code(rawValue: "socketNotOpen")
        /// A server invoke got no answer within `BrokerOptions.ackTimeout` (``PubSubBrokerError/event``).
        public static let invokeTimedOut = Code(rawValue: "invokeTimedOut")
        /// The connection closed before a server invoke was answered (``PubSubBrokerError/event``).
        public static let connectionClosed = Code(rawValue: "connectionClosed")
        /// The listening socket could not be opened (``PubSubBrokerError/host``,
        /// ``PubSubBrokerError/port``, the cause in ``PubSubBrokerError/underlying``).
        public static let listenFailed = Code(rawValue: "listenFailed")
        /// The TLS certificate chain or key could not be loaded, or TLS is unavailable on this
        /// system (the cause in ``PubSubBrokerError/underlying``).
        public static let tlsSetupFailed = Code(rawValue: "tlsSetupFailed")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What kind of failure it is.
    public var code: Code
    /// What failed, in words (``description`` is this text).
    public var message: String
    /// The socket concerned (``Code/socketNotOpen``).
    public var socketID: String?
    /// The event of the server invoke concerned (``Code/invokeTimedOut``, ``Code/connectionClosed``).
    public var event: String?
    /// The host the broker tried to listen on (``Code/listenFailed``).
    public var host: String?
    /// The port the broker tried to listen on (``Code/listenFailed``).
    public var port: Int?
    /// The lower-level error behind this one (WireKit's, for ``Code/listenFailed`` and
    /// ``Code/tlsSetupFailed``). Not compared by `==`.
    public var underlying: (any Error)?

    /// An error with `code` and `message` and the details that apply.
    public init(
        code: Code, message: String, socketID: String? = nil, event: String? = nil, host: String? = nil, port: Int? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.socketID = socketID
        self.event = event
        self.host = host
        self.port = port
        self.underlying = underlying
    }

    /// What failed, in words.
    public var description: String { message }

    /// The same text as ``description``, for `LocalizedError`.
    public var errorDescription: String? { description }

    /// Equal when every field but ``underlying`` is.
    public static func == (lhs: PubSubBrokerError, rhs: PubSubBrokerError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.socketID == rhs.socketID && lhs.event == rhs.event
            && lhs.host == rhs.host && lhs.port == rhs.port
    }
}

extension PubSubBrokerError.Code {
    /// Whether `value` is a ``PubSubBrokerError`` with this code: `catch PubSubBrokerError.Code.listenFailed`.
    public static func ~= (pattern: PubSubBrokerError.Code, value: any Error) -> Bool {
        (value as? PubSubBrokerError)?.code == pattern
    }

    /// Whether `value` has this code: `case .invokeTimedOut` when switching over a ``PubSubBrokerError``.
    public static func ~= (pattern: PubSubBrokerError.Code, value: PubSubBrokerError) -> Bool {
        value.code == pattern
    }
}

extension PubSubBrokerError {
    /// ``Code/socketNotOpen`` for `socketID`.
    static func socketNotOpen(socketID: String) -> PubSubBrokerError {
        PubSubBrokerError(
            code: .socketNotOpen, message: "Socket \(socketID) is not open (its handshake has not completed or it has closed)",
            socketID: socketID)
    }

    /// ``Code/invokeTimedOut`` for `event`, in socketcluster-server's words.
    static func invokeTimedOut(event: String) -> PubSubBrokerError {
        PubSubBrokerError(code: .invokeTimedOut, message: "Event response for \(event) event timed out", event: event)
    }

    /// ``Code/connectionClosed`` for `event`, in socketcluster-server's words.
    static func connectionClosed(event: String) -> PubSubBrokerError {
        PubSubBrokerError(code: .connectionClosed, message: "Event \(event) was aborted due to a bad connection", event: event)
    }

    /// ``Code/listenFailed`` on `host`:`port` because of `underlying`.
    static func listenFailed(host: String, port: Int, reason: String, underlying: any Error) -> PubSubBrokerError {
        PubSubBrokerError(
            code: .listenFailed, message: "Could not listen on \(host):\(port): \(reason)", host: host, port: port,
            underlying: underlying)
    }

    /// ``Code/tlsSetupFailed`` because of `underlying`.
    static func tlsSetupFailed(reason: String, underlying: any Error) -> PubSubBrokerError {
        PubSubBrokerError(code: .tlsSetupFailed, message: "Could not set up TLS: \(reason)", underlying: underlying)
    }
}
