/// Whether a connection ended while it was still connecting or after it had opened (Protocol.md §11).
///
/// This set is closed: a connection either had completed its handshake or had not.
public enum BadConnectionKind: String, Sendable, Hashable {
    /// Closed before the handshake completed.
    case connectAbort
    /// Closed after the handshake completed.
    case disconnect
}
