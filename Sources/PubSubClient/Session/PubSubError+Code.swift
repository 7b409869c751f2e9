extension PubSubError {
    /// What kind of failure a ``PubSubError`` is. An open set of constants: new codes may be
    /// added in minor releases; match with `default:`.
    ///
    /// `catch PubSubError.Code.timeout` and `case PubSubError.Code.timeout:` match an error (typed
    /// or not) by its code; `switch error.code { case .timeout: ... default: ... }` works too.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"timeout"`.
        public let rawValue: String

        /// The code named `rawValue` (any string: codes of this library or your own).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server answered the call with an error (``PubSubError/remote`` has its name,
        /// message and extra fields).
        public static let remote = Code(rawValue: "remote")
        /// No answer within the call's ack timeout, counted from when the call was made.
        public static let timeout = Code(rawValue: "timeout")
        /// The connection ended before the call was answered (or, if still queued, before it
        /// could be sent and no reconnect was going to follow). Has the event, the
        /// ``PubSubError/badConnectionKind`` and the close code and reason.
        public static let badConnection = Code(rawValue: "badConnection")
        /// Before the handshake, the server sent a frame of the other type than the session's
        /// codec reads (`SessionConfiguration.codec`): binary to a JSON client, text other than a
        /// ping to a min-bin one. The server uses another codec; the client closes with 1003.
        public static let codecMismatch = Code(rawValue: "codecMismatch")
        /// The outbound queue (used while not connected) is at its count or byte limit.
        public static let outboundQueueFull = Code(rawValue: "outboundQueueFull")
        /// A transmit waited in the outbound queue longer than its ack timeout and was dropped.
        public static let queuedTransmitExpired = Code(rawValue: "queuedTransmitExpired")
        /// The call was in a batch discarded by `cancelBatch()`.
        public static let batchCancelled = Code(rawValue: "batchCancelled")
        /// The server refused the handshake (``PubSubError/remote`` has its error); the
        /// connection is closed with ``PubSubError/closeCode``.
        public static let handshakeRejected = Code(rawValue: "handshakeRejected")
        /// The connection closed abnormally (every code except 1000 and 1001).
        public static let socketProtocol = Code(rawValue: "socketProtocol")
        /// The server's answer does not have the shape the protocol requires.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// An inbound packet was malformed and dropped; the connection lives on.
        public static let malformedPacket = Code(rawValue: "malformedPacket")
        /// A server request was already answered; a request is answered exactly once.
        public static let alreadyResponded = Code(rawValue: "alreadyResponded")
        /// The connection a server request arrived on has ended; it can no longer be answered.
        public static let requestExpired = Code(rawValue: "requestExpired")
        /// A value could not be encoded to, or decoded from, JSON.
        public static let coding = Code(rawValue: "coding")
        /// The token store failed to load, save or remove the auth token.
        public static let tokenStore = Code(rawValue: "tokenStore")
        /// An argument the caller passed is invalid (e.g. a malformed URL).
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The call was cancelled by the caller before it completed (a late answer is ignored).
        public static let cancelled = Code(rawValue: "cancelled")
        /// `connect()` failed: the attempt closed with ``PubSubError/closeCode`` before its
        /// handshake completed.
        public static let connectionFailed = Code(rawValue: "connectionFailed")
        /// `connect()` failed because the WebSocket itself failed: refused, unknown host, HTTP
        /// status of a rejected upgrade, TLS, timeouts. ``PubSubError/transport`` says which.
        public static let transport = Code(rawValue: "transport")
        /// The channel was unsubscribed (or kicked out) before its subscription completed.
        public static let channelClosed = Code(rawValue: "channelClosed")

        /// The code's name.
        public var description: String { rawValue }

        /// True when `value` is a ``PubSubError`` with this code, so that
        /// `catch PubSubError.Code.timeout` works where the thrown type is `any Error`.
        public static func ~= (pattern: Code, value: any Error) -> Bool {
            (value as? PubSubError)?.code == pattern
        }

        /// True when `value` has this code, so that `catch PubSubError.Code.timeout` works
        /// under `throws(PubSubError)`.
        public static func ~= (pattern: Code, value: PubSubError) -> Bool {
            value.code == pattern
        }

        /// The JS error class name of this code; a remote error's own name for `remote` and
        /// `handshakeRejected`.
        func defaultName(remote: RemoteError?) -> String {
            switch self {
            case .remote, .handshakeRejected: remote?.name ?? "Error"
            case .codecMismatch: "CodecMismatchError"
            case .timeout, .queuedTransmitExpired: "TimeoutError"
            case .badConnection, .requestExpired, .connectionFailed: "BadConnectionError"
            case .outboundQueueFull: "OutboundQueueFullError"
            case .batchCancelled: "BatchCancelledError"
            case .socketProtocol: "SocketProtocolError"
            case .invalidResponse: "InvalidResponseError"
            case .malformedPacket: "InvalidMessageError"
            case .alreadyResponded: "InvalidActionError"
            case .coding: "CodingError"
            case .tokenStore: "TokenStoreError"
            case .invalidArgument: "InvalidArgumentsError"
            case .channelClosed: "ChannelClosedError"
            case .transport: "TransportError"
            case .cancelled: "CancellationError"
            default: "Error"
            }
        }
    }
}
