/// What a server answers to one request, decided by `WebSocketServerOptions.acceptRequest`
/// before the request is validated: ``accept`` lets it through, ``refuse(status:)`` answers it
/// with an HTTP status and a short body and closes the connection, ``respond(status:headers:body:)``
/// answers it with a response of your own (a plain HTTP request: a health check, a page) and
/// closes the connection.
///
/// A struct so that a decision can grow in a minor release without breaking the closures that
/// return one.
public struct WebSocketUpgradeDecision: Sendable, Hashable {
    /// The HTTP status the request is answered with (400, 403, 404, ... for a refusal, the
    /// response's status for ``respond(status:headers:body:)``); `nil` accepts.
    public var refusalStatus: Int?

    /// The response written instead of an upgrade, when the decision was made with
    /// ``respond(status:headers:body:)`` or ``respond(_:)``; `nil` otherwise.
    public var response: PlainHTTPResponse?

    /// Let the request through to validation and, if it is valid, upgrade it.
    public static let accept = WebSocketUpgradeDecision(refusalStatus: nil, response: nil)

    /// Refuse the request with HTTP `status` (400, 403, 404, ...); the refused connection
    /// never reaches the server's handler.
    public static func refuse(status: Int) -> WebSocketUpgradeDecision {
        WebSocketUpgradeDecision(refusalStatus: status, response: nil)
    }

    /// Answer the request with `status`, `headers` and `body` instead of upgrading it, then close
    /// the connection; it never reaches the server's handler. See ``PlainHTTPResponse`` for what
    /// the server adds (`Content-Length`, `Connection: close`) and leaves out (the body of an
    /// answer to `HEAD`).
    ///
    /// ```swift
    /// options.acceptRequest = { request in
    ///     if request.isWebSocketUpgrade { return request.target == "/chat" ? .accept : .refuse(status: 404) }
    ///     return request.target == "/health" ? .respond(status: 200, body: Array("OK\n".utf8)) : .respond(status: 404)
    /// }
    /// ```
    public static func respond(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) -> WebSocketUpgradeDecision {
        respond(PlainHTTPResponse(status: status, headers: headers, body: body))
    }

    /// Answer the request with `response` instead of upgrading it, then close the connection.
    public static func respond(_ response: PlainHTTPResponse) -> WebSocketUpgradeDecision {
        WebSocketUpgradeDecision(refusalStatus: response.status, response: response)
    }

    /// Whether the request is let through.
    public var isAccepted: Bool { refusalStatus == nil && response == nil }

    private init(refusalStatus: Int?, response: PlainHTTPResponse?) {
        self.refusalStatus = refusalStatus
        self.response = response
    }
}
