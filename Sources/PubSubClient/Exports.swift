// One `import PubSubClient` gives the wire model (`JSONValue`, `RemoteError`, `JWT`) and the
// WireKit types the client's API speaks in (`WebSocketOptions`, `WebSocketError`, `TLSConfiguration`).
@_exported import PubSubProtocol
@_exported import WireKit
