#if canImport(Glibc)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization

/// An OpenSSL `SSL_CTX` set up from a client or server configuration: trust store, verification
/// mode, minimum version, or the server's certificate and key. Connections (`TLSEngine`) are
/// created from it.
///
/// `@unchecked Sendable`: the `SSL_CTX` is never changed after `init`, and OpenSSL 1.1+ allows
/// creating connections from one context on several threads at once.
final class TLSContext: @unchecked Sendable {
    enum Role: Sendable {
        case client(TLSConfiguration)
        case server
    }

    let library: OpenSSLLibrary
    let context: OpaquePointer
    let role: Role

    /// A client context for `configuration`, shared by every connection using the same
    /// configuration (loading the system trust store takes milliseconds).
    static func client(_ configuration: TLSConfiguration) throws(TLSError) -> TLSContext {
        if let cached = clientCache.withLock({ $0[configuration] }) { return cached }
        let context = try TLSContext(client: configuration)
        clientCache.withLock { cache in
            if cache.count >= 16 { cache.removeAll() }
            cache[configuration] = context
        }
        return context
    }

    private static let clientCache = Mutex<[TLSConfiguration: TLSContext]>([:])

    /// A client context verifying servers as `configuration` says.
    init(client configuration: TLSConfiguration) throws(TLSError) {
        let library = try OpenSSLLibrary.loaded()
        library.ERR_clear_error()
        guard let context = library.SSL_CTX_new(library.TLS_client_method()) else {
            throw .unavailable(reason: "SSL_CTX_new failed: \(library.errorQueueText())")
        }
        self.library = library
        self.context = context
        self.role = .client(configuration)
        try setMinimumVersion(configuration.minimumVersion)

        if configuration.allowUntrustedCertificatesForTestingOnly {
            library.SSL_CTX_set_verify(context, OpenSSLConstant.SSL_VERIFY_NONE, nil)
        } else {
            library.SSL_CTX_set_verify(context, OpenSSLConstant.SSL_VERIFY_PEER, nil)
        }
        switch configuration.trustRoots {
        case .system:
            loadSystemTrustStore()
        case .systemAnd(let pem):
            loadSystemTrustStore()
            try addTrustedRoots(pem: pem)
        case .only(let pem):
            try addTrustedRoots(pem: pem)
        }
    }

    /// A server context presenting the configured certificate chain and key.
    init(server configuration: TLSServerConfiguration) throws(TLSError) {
        let library = try OpenSSLLibrary.loaded()
        library.ERR_clear_error()
        guard let context = library.SSL_CTX_new(library.TLS_server_method()) else {
            throw .unavailable(reason: "SSL_CTX_new failed: \(library.errorQueueText())")
        }
        self.library = library
        self.context = context
        self.role = .server
        try setMinimumVersion(configuration.minimumVersion)

        let chain = try library.readCertificates(
            pem: configuration.certificateChainPEM, what: "server certificate chain")
        var remaining = chain[...]
        defer { remaining.forEach { library.X509_free($0) } }
        let leaf = remaining.removeFirst()
        defer { library.X509_free(leaf) }
        guard library.SSL_CTX_use_certificate(context, leaf) == 1 else {
            throw .invalidConfiguration(reason: "the server certificate was refused: \(library.errorQueueText())")
        }
        while let intermediate = remaining.first {
            // SSL_CTX_add_extra_chain_cert takes ownership on success.
            guard
                library.SSL_CTX_ctrl(
                    context, OpenSSLConstant.SSL_CTRL_EXTRA_CHAIN_CERT, 0, UnsafeMutableRawPointer(intermediate)) == 1
            else {
                throw .invalidConfiguration(reason: "a chain certificate was refused: \(library.errorQueueText())")
            }
            remaining.removeFirst()
        }
        let key = try library.readPrivateKey(pem: configuration.privateKeyPEM)
        defer { library.EVP_PKEY_free(key) }
        guard library.SSL_CTX_use_PrivateKey(context, key) == 1,
            library.SSL_CTX_check_private_key(context) == 1
        else {
            throw .invalidConfiguration(
                reason: "the private key does not match the server certificate: \(library.errorQueueText())")
        }
    }

    deinit {
        library.SSL_CTX_free(context)
    }

    private func setMinimumVersion(_ version: TLSVersion) throws(TLSError) {
        let value = version == .v1_3 ? OpenSSLConstant.TLS1_3_VERSION : OpenSSLConstant.TLS1_2_VERSION
        guard library.SSL_CTX_ctrl(context, OpenSSLConstant.SSL_CTRL_SET_MIN_PROTO_VERSION, value, nil) == 1 else {
            throw .unavailable(reason: "cannot require TLS \(version): \(library.errorQueueText())")
        }
        _ = library.SSL_CTX_ctrl(context, OpenSSLConstant.SSL_CTRL_MODE, OpenSSLConstant.SSL_MODE_RELEASE_BUFFERS, nil)
    }

    /// CA bundles of the common distributions, tried when OpenSSL's compiled-in default paths
    /// (which differ between builds) do not point at the system store.
    static let systemBundleFiles = [
        "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Alpine, Arch, Gentoo
        "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL, CentOS
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // RHEL 7+
        "/etc/ssl/ca-bundle.pem",  // openSUSE
        "/etc/ssl/cert.pem",  // Alpine, macOS-like layouts
    ]

    private func loadSystemTrustStore() {
        // Honours SSL_CERT_FILE / SSL_CERT_DIR and the build's OPENSSLDIR.
        _ = library.SSL_CTX_set_default_verify_paths(context)
        for path in Self.systemBundleFiles where access(path, R_OK) == 0 {
            if library.SSL_CTX_load_verify_locations(context, path, nil) == 1 { break }
        }
        library.ERR_clear_error()
    }

    private func addTrustedRoots(pem: String) throws(TLSError) {
        let roots = try library.readCertificates(pem: pem, what: "trusted roots")
        defer { roots.forEach { library.X509_free($0) } }
        guard let store = library.SSL_CTX_get_cert_store(context) else {
            throw .unavailable(reason: "SSL_CTX_get_cert_store returned nothing")
        }
        for root in roots where library.X509_STORE_add_cert(store, root) != 1 {
            throw .invalidConfiguration(reason: "a trusted root was refused: \(library.errorQueueText())")
        }
    }
}
#endif
