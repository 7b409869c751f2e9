/// An HTTP/1.1 response a `WebSocketServer` writes to a request it does not upgrade (see
/// `WebSocketUpgradeDecision.respond(_:)`): a health check's 200, a page, a 404.
///
/// The server writes the status line, your `headers`, then `Content-Length` (the body's size)
/// and `Connection: close`, and the body; after it the connection closes, so each connection
/// carries one request. What the server frames itself is its own: header fields named
/// `Content-Length`, `Transfer-Encoding` or `Connection`, and fields whose name is not an HTTP
/// token or whose value holds a control character (CR, LF, ...), are left out. The answer to a
/// `HEAD` request, and a 204 or 304, carries no body. A status outside 200...599 is answered as
/// 500 without your headers and body.
///
/// The request's body is never read: once answered, the server discards what the client still
/// sends of it, up to 64 KiB and for at most `WebSocketServerOptions.closeTimeout`, so that the
/// client does not get a TCP reset before it read the answer, then closes.
public struct PlainHTTPResponse: Sendable, Hashable {
    /// The status code, 200...599 (another is answered as 500).
    public var status: Int
    /// Header fields written after the status line, in order.
    public var headers: HTTPHeaders
    /// The body, written as it is.
    public var body: [UInt8]

    /// A response with `status`, `headers` and `body`.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` in UTF-8, with `Content-Type: text/plain; charset=utf-8`
    /// unless `headers` has a `Content-Type` of its own.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), text: String) {
        var headers = headers
        if !headers.contains(name: "Content-Type") { headers.add(name: "Content-Type", value: "text/plain; charset=utf-8") }
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }

    /// The standard reason phrase of `status`, or "Status" for one without a common phrase.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The bytes written for this response to a request with `method`: head and (unless the
    /// method is HEAD or the status forbids one) body.
    func serialized(requestMethod method: String) -> [UInt8] {
        guard (200...599).contains(status) else {
            return PlainHTTPResponse(status: 500).serialized(requestMethod: method)
        }
        let bodyAllowed = status != 204 && status != 304
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for field in headers where Self.isWritable(field) {
            text += "\(field.name): \(field.value)\r\n"
        }
        if bodyAllowed { text += "Content-Length: \(body.count)\r\n" }
        text += "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if bodyAllowed, method != "HEAD" { bytes += body }
        return bytes
    }

    /// Whether `field` may be written as it is: a token name the server does not frame itself,
    /// and a value without control characters.
    private static func isWritable(_ field: HTTPHeaders.Field) -> Bool {
        guard HTTPHeadParser.isToken(field.name) else { return false }
        for framed in ["Content-Length", "Transfer-Encoding", "Connection"] where field.name.wireKitEqualsIgnoringASCIICase(framed) {
            return false
        }
        return !field.value.utf8.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }
    }
}
