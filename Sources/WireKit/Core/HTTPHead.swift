/// The status line and headers of an HTTP/1.1 response.
package struct HTTPResponseHead: Sendable, Hashable {
    /// For example `HTTP/1.1`.
    package var version: String
    /// The status code, for example 101.
    package var status: Int
    /// The reason phrase, for example `Switching Protocols`.
    package var reason: String
    /// The header fields.
    package var headers: HTTPHeaders

    /// A response head; `version` defaults to `HTTP/1.1`.
    package init(version: String = "HTTP/1.1", status: Int, reason: String, headers: HTTPHeaders) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
    }
}

/// The request line and headers of an HTTP/1.1 request.
public struct HTTPRequestHead: Sendable, Hashable {
    /// The request method, for example `GET`.
    public var method: String
    /// The request target, for example `/chat?room=1`.
    public var target: String
    /// For example `HTTP/1.1`.
    public var version: String
    /// The header fields.
    public var headers: HTTPHeaders

    /// A request head; `version` defaults to `HTTP/1.1`.
    public init(method: String, target: String, version: String = "HTTP/1.1", headers: HTTPHeaders) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }
}

extension HTTPRequestHead {
    /// Whether the request asks for a WebSocket upgrade: its `Upgrade` header names `websocket`.
    /// Such a request is validated as an upgrade when accepted; one without it is a plain HTTP
    /// request (a health check, a page), which `WebSocketUpgradeDecision.respond(status:headers:body:)`
    /// can answer.
    public var isWebSocketUpgrade: Bool {
        headers.listElements(name: "Upgrade").contains { $0.wireKitEqualsIgnoringASCIICase("websocket") }
    }
}
