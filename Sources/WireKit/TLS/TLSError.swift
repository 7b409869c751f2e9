/// Why a TLS connection (or its configuration) failed.
public enum TLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No usable TLS library on this system (Linux: libssl 3 or 1.1 could not be loaded).
    case unavailable(reason: String)
    /// The peer's certificate chain does not lead to a trusted root (self-signed, unknown issuer).
    /// `reason` is the verifier's text, e.g. "unable to get local issuer certificate".
    case certificateUntrusted(reason: String)
    /// The peer's certificate (or one in its chain) has expired.
    case certificateExpired
    /// The peer's certificate (or one in its chain) is not valid yet.
    case certificateNotYetValid
    /// The peer's certificate was rejected for another reason (OpenSSL verify `code` and text).
    case certificateRejected(code: Int, reason: String)
    /// The certificate does not name the host (DNS name or IP address) the client connected to.
    case hostnameMismatch(expected: String)
    /// No public key in the peer's chain matches a configured pin; `presented` lists the
    /// `sha256/...` pins of the keys the peer did present.
    case pinMismatch(presented: [String])
    /// The TLS handshake failed; `reason` is the TLS library's error text.
    case handshakeFailed(reason: String)
    /// A TLS failure after the handshake (bad record, unexpected message); the library's text.
    case connectionFailed(reason: String)
    /// The configuration cannot be used: unreadable PEM, key not matching the certificate, bad pin.
    case invalidConfiguration(reason: String)

    /// What failed, in words, with the reason OpenSSL or the system gave where there is one
    /// (escaped with `escapedForDisplay`: it can quote the peer's certificate).
    public var description: String {
        switch self {
        case .unavailable(let reason):
            return "TLS is unavailable on this system: \(reason.escapedForDisplay)"
        case .certificateUntrusted(let reason):
            return "the server's certificate is not trusted (\(reason.escapedForDisplay))"
        case .certificateExpired:
            return "the peer's certificate has expired"
        case .certificateNotYetValid:
            return "the peer's certificate is not valid yet"
        case .certificateRejected(let code, let reason):
            return "the peer's certificate was rejected: \(reason.escapedForDisplay) (verify error \(code))"
        case .hostnameMismatch(let expected):
            return "the certificate is not valid for \(expected.escapedForDisplay)"
        case .pinMismatch(let presented):
            return "no public key of the peer matches a pinned key (the peer presented "
                + presented.joined(separator: ", ").escapedForDisplay + ")"
        case .handshakeFailed(let reason):
            return "the TLS handshake failed: \(reason.escapedForDisplay)"
        case .connectionFailed(let reason):
            return "the TLS connection failed: \(reason.escapedForDisplay)"
        case .invalidConfiguration(let reason):
            return "invalid TLS configuration: \(reason.escapedForDisplay)"
        }
    }
}
