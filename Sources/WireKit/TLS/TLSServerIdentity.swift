/// A server's TLS identity, loaded once (certificate chain and key checked) and shared by every
/// accepted connection: pass it to `TLSTransport(server:identity:)`.
public struct TLSServerIdentity: Sendable {
    #if canImport(Glibc)
    let context: TLSContext
    #endif

    /// Loads the certificate chain and private key.
    /// - Throws: `TLSError.invalidConfiguration` for unreadable PEM or a key that does not match
    ///   the certificate; `TLSError.unavailable` without a TLS library (and on Apple platforms,
    ///   where the server role over TLS is not implemented).
    public init(_ configuration: TLSServerConfiguration) throws(TLSError) {
        #if canImport(Glibc)
        context = try TLSContext(server: configuration)
        #else
        throw .unavailable(reason: "the TLS server role is only implemented on Linux (OpenSSL)")
        #endif
    }
}
