/// A client invoke handed to a procedure. Answer it by returning from the handler, by throwing,
/// or earlier with `end`/`error` (then the handler's return value is ignored). Only the first
/// answer is sent.
public struct BrokerRequest: Sendable {
    /// The invoking socket.
    public let socket: BrokerSocket
    /// The procedure (event) name.
    public let procedure: String
    /// The request data; `nil` when the client sent none.
    public let data: JSONValue?
    let callID: UInt64

    /// Answers with `data` (`{"rid":N}` when `nil`).
    public func end(_ data: JSONValue? = nil) {
        socket.engine.answer(callID: callID, result: .success(data))
    }

    /// Answers with an error (`{"rid":N,"error":{message,name,…fields}}`).
    public func error(_ error: RemoteError) {
        socket.engine.answer(callID: callID, result: .failure(error))
    }
}

/// A client transmit handed to a receiver.
public struct BrokerMessage: Sendable {
    /// The sending socket.
    public let socket: BrokerSocket
    /// The receiver (event) name.
    public let receiver: String
    /// The data; `nil` when the client sent none.
    public let data: JSONValue?
}
