/// What a server answers to one upgrade request, decided by `WebSocketServerOptions.acceptRequest`
/// before the request is validated: ``accept`` lets it through, ``refuse(status:)`` answers it
/// with an HTTP status and a short body and closes the connection.
///
/// A struct so that a refusal can grow (response headers, a body) in a minor release without
/// breaking the closures that return one.
public struct WebSocketUpgradeDecision: Sendable, Hashable {
    /// The HTTP status a refusal is answered with (400, 403, 404, ...); `nil` accepts.
    public var refusalStatus: Int?

    /// Let the request through to validation and, if it is valid, upgrade it.
    public static let accept = WebSocketUpgradeDecision(refusalStatus: nil)

    /// Refuse the request with HTTP `status` (400, 403, 404, ...); the refused connection
    /// never reaches the server's handler.
    public static func refuse(status: Int) -> WebSocketUpgradeDecision {
        WebSocketUpgradeDecision(refusalStatus: status)
    }

    /// Whether the request is let through.
    public var isAccepted: Bool { refusalStatus == nil }

    private init(refusalStatus: Int?) { self.refusalStatus = refusalStatus }
}
