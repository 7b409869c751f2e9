/// The errors the broker answers with, in the protocol's one error shape (`RemoteError`).
extension RemoteError {
    /// `InvalidActionError` with `message` (malformed reserved events, disabled client publish).
    static func invalidAction(_ message: String) -> RemoteError {
        RemoteError(name: "InvalidActionError", message: message)
    }

    /// `BrokerError` with `message` (subscribe/unsubscribe failures).
    static func broker(_ message: String) -> RemoteError {
        RemoteError(name: "BrokerError", message: message)
    }

    /// The answer for an error thrown by application code: a `RemoteError` as it is; any other
    /// error becomes `{message, name: "Error"}` with its description.
    init(applicationError error: any Error) {
        if let remote = error as? RemoteError {
            self = remote
        } else {
            self.init(name: "Error", message: String(describing: error))
        }
    }
}
