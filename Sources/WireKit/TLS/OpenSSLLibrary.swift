#if canImport(Glibc)
import Glibc

/// The system's OpenSSL (libssl + libcrypto, 3.x or 1.1), opened at run time with `dlopen`.
///
/// Loading at run time instead of linking keeps `swift build` working on a stock Swift-on-Linux
/// install without OpenSSL headers; a machine without the library only fails when a TLS
/// connection is attempted, with `TLSError.unavailable`. Only the functions WireKit calls are
/// declared, as C function pointer types. OpenSSL objects are `OpaquePointer`s.
struct OpenSSLLibrary: Sendable {
    typealias Pointer = OpaquePointer

    /// Shared-object names tried in order: OpenSSL 3, then 1.1, then the unversioned names.
    static let defaultCandidates: [(ssl: String, crypto: String)] = [
        ("libssl.so.3", "libcrypto.so.3"),
        ("libssl.so.1.1", "libcrypto.so.1.1"),
        ("libssl.so", "libcrypto.so"),
    ]

    /// The library loaded once per process, or why it could not be.
    static let shared: Result<OpenSSLLibrary, TLSError> = load(candidates: defaultCandidates)

    /// The loaded library, or `TLSError.unavailable`.
    static func loaded() throws(TLSError) -> OpenSSLLibrary {
        try shared.get()
    }

    /// The `libssl` name that was opened (e.g. `libssl.so.3`).
    let libraryName: String

    // libssl
    let OPENSSL_init_ssl: @convention(c) (UInt64, UnsafeRawPointer?) -> Int32
    let TLS_client_method: @convention(c) () -> Pointer?
    let TLS_server_method: @convention(c) () -> Pointer?
    let SSL_CTX_new: @convention(c) (Pointer?) -> Pointer?
    let SSL_CTX_free: @convention(c) (Pointer?) -> Void
    let SSL_CTX_ctrl: @convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_CTX_set_verify: @convention(c) (Pointer?, Int32, UnsafeRawPointer?) -> Void
    let SSL_CTX_set_default_verify_paths: @convention(c) (Pointer?) -> Int32
    let SSL_CTX_load_verify_locations: @convention(c) (Pointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let SSL_CTX_get_cert_store: @convention(c) (Pointer?) -> Pointer?
    let SSL_CTX_use_certificate: @convention(c) (Pointer?, Pointer?) -> Int32
    let SSL_CTX_use_PrivateKey: @convention(c) (Pointer?, Pointer?) -> Int32
    let SSL_CTX_check_private_key: @convention(c) (Pointer?) -> Int32
    let SSL_new: @convention(c) (Pointer?) -> Pointer?
    let SSL_free: @convention(c) (Pointer?) -> Void
    let SSL_set_bio: @convention(c) (Pointer?, Pointer?, Pointer?) -> Void
    let SSL_set_connect_state: @convention(c) (Pointer?) -> Void
    let SSL_set_accept_state: @convention(c) (Pointer?) -> Void
    let SSL_ctrl: @convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_get0_param: @convention(c) (Pointer?) -> Pointer?
    let SSL_do_handshake: @convention(c) (Pointer?) -> Int32
    let SSL_read: @convention(c) (Pointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    let SSL_write: @convention(c) (Pointer?, UnsafeRawPointer?, Int32) -> Int32
    let SSL_get_error: @convention(c) (Pointer?, Int32) -> Int32
    let SSL_shutdown: @convention(c) (Pointer?) -> Int32
    let SSL_get_shutdown: @convention(c) (Pointer?) -> Int32
    let SSL_get_verify_result: @convention(c) (Pointer?) -> Int
    /// `SSL_get1_peer_certificate` (3.x) or `SSL_get_peer_certificate` (1.1); the caller frees.
    let SSL_get1_peer_certificate: @convention(c) (Pointer?) -> Pointer?
    let SSL_get0_verified_chain: @convention(c) (Pointer?) -> Pointer?
    let SSL_get_version: @convention(c) (Pointer?) -> UnsafePointer<CChar>?

    // libcrypto
    let BIO_s_mem: @convention(c) () -> Pointer?
    let BIO_new: @convention(c) (Pointer?) -> Pointer?
    let BIO_new_mem_buf: @convention(c) (UnsafeRawPointer?, Int32) -> Pointer?
    let BIO_free: @convention(c) (Pointer?) -> Int32
    let BIO_read: @convention(c) (Pointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    let BIO_write: @convention(c) (Pointer?, UnsafeRawPointer?, Int32) -> Int32
    let BIO_ctrl_pending: @convention(c) (Pointer?) -> Int
    let PEM_read_bio_X509: @convention(c) (Pointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Pointer?
    let PEM_read_bio_PrivateKey: @convention(c) (Pointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Pointer?
    let X509_free: @convention(c) (Pointer?) -> Void
    let EVP_PKEY_free: @convention(c) (Pointer?) -> Void
    let X509_STORE_add_cert: @convention(c) (Pointer?, Pointer?) -> Int32
    let X509_get0_pubkey: @convention(c) (Pointer?) -> Pointer?
    let i2d_PUBKEY: @convention(c) (Pointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    let X509_VERIFY_PARAM_set1_host: @convention(c) (Pointer?, UnsafePointer<CChar>?, Int) -> Int32
    let X509_VERIFY_PARAM_set_hostflags: @convention(c) (Pointer?, UInt32) -> Void
    let X509_VERIFY_PARAM_set1_ip_asc: @convention(c) (Pointer?, UnsafePointer<CChar>?) -> Int32
    let X509_verify_cert_error_string: @convention(c) (Int) -> UnsafePointer<CChar>?
    let ERR_get_error: @convention(c) () -> UInt
    let ERR_error_string_n: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let ERR_clear_error: @convention(c) () -> Void
    let OPENSSL_sk_num: @convention(c) (Pointer?) -> Int32
    let OPENSSL_sk_value: @convention(c) (Pointer?, Int32) -> Pointer?

    /// Opens the first candidate pair that loads and resolves every function.
    static func load(candidates: [(ssl: String, crypto: String)]) -> Result<OpenSSLLibrary, TLSError> {
        var failures: [String] = []
        for candidate in candidates {
            switch loadPair(ssl: candidate.ssl, crypto: candidate.crypto) {
            case .success(let library): return .success(library)
            case .failure(let failure): failures.append(failure.reason)
            }
        }
        return .failure(
            .unavailable(
                reason: "no usable OpenSSL (libssl 3 or 1.1) found: "
                    + failures.joined(separator: "; ")))
    }

    private struct LoadFailure: Error { let reason: String }

    private static func loadPair(ssl: String, crypto: String) -> Result<OpenSSLLibrary, LoadFailure> {
        guard let cryptoHandle = dlopen(crypto, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadFailure(reason: "\(crypto): \(lastDlError())"))
        }
        guard let sslHandle = dlopen(ssl, RTLD_NOW | RTLD_LOCAL) else {
            let failure = LoadFailure(reason: "\(ssl): \(lastDlError())")
            dlclose(cryptoHandle)
            return .failure(failure)
        }
        // The handles stay open for the life of the process: the function pointers point into them.
        do {
            let library = try OpenSSLLibrary(ssl: sslHandle, crypto: cryptoHandle, name: ssl)
            guard library.OPENSSL_init_ssl(0, nil) == 1 else {
                return .failure(LoadFailure(reason: "\(ssl): OPENSSL_init_ssl failed"))
            }
            return .success(library)
        } catch {
            dlclose(sslHandle)
            dlclose(cryptoHandle)
            return .failure(LoadFailure(reason: "\(ssl): \(error.reason)"))
        }
    }

    private static func lastDlError() -> String {
        guard let message = dlerror() else { return "cannot be opened" }
        return String(cString: message)
    }

    private init(ssl: UnsafeMutableRawPointer, crypto: UnsafeMutableRawPointer, name: String) throws(LoadFailure) {
        func symbol<F>(_ handle: UnsafeMutableRawPointer, _ names: String..., as type: F.Type) throws(LoadFailure) -> F {
            for name in names {
                if let address = dlsym(handle, name) {
                    return unsafeBitCast(address, to: type)
                }
            }
            throw LoadFailure(reason: "missing function \(names.joined(separator: " / "))")
        }
        libraryName = name
        OPENSSL_init_ssl = try symbol(ssl, "OPENSSL_init_ssl", as: type(of: OPENSSL_init_ssl))
        TLS_client_method = try symbol(ssl, "TLS_client_method", as: type(of: TLS_client_method))
        TLS_server_method = try symbol(ssl, "TLS_server_method", as: type(of: TLS_server_method))
        SSL_CTX_new = try symbol(ssl, "SSL_CTX_new", as: type(of: SSL_CTX_new))
        SSL_CTX_free = try symbol(ssl, "SSL_CTX_free", as: type(of: SSL_CTX_free))
        SSL_CTX_ctrl = try symbol(ssl, "SSL_CTX_ctrl", as: type(of: SSL_CTX_ctrl))
        SSL_CTX_set_verify = try symbol(ssl, "SSL_CTX_set_verify", as: type(of: SSL_CTX_set_verify))
        SSL_CTX_set_default_verify_paths = try symbol(
            ssl, "SSL_CTX_set_default_verify_paths", as: type(of: SSL_CTX_set_default_verify_paths))
        SSL_CTX_load_verify_locations = try symbol(
            ssl, "SSL_CTX_load_verify_locations", as: type(of: SSL_CTX_load_verify_locations))
        SSL_CTX_get_cert_store = try symbol(ssl, "SSL_CTX_get_cert_store", as: type(of: SSL_CTX_get_cert_store))
        SSL_CTX_use_certificate = try symbol(ssl, "SSL_CTX_use_certificate", as: type(of: SSL_CTX_use_certificate))
        SSL_CTX_use_PrivateKey = try symbol(ssl, "SSL_CTX_use_PrivateKey", as: type(of: SSL_CTX_use_PrivateKey))
        SSL_CTX_check_private_key = try symbol(
            ssl, "SSL_CTX_check_private_key", as: type(of: SSL_CTX_check_private_key))
        SSL_new = try symbol(ssl, "SSL_new", as: type(of: SSL_new))
        SSL_free = try symbol(ssl, "SSL_free", as: type(of: SSL_free))
        SSL_set_bio = try symbol(ssl, "SSL_set_bio", as: type(of: SSL_set_bio))
        SSL_set_connect_state = try symbol(ssl, "SSL_set_connect_state", as: type(of: SSL_set_connect_state))
        SSL_set_accept_state = try symbol(ssl, "SSL_set_accept_state", as: type(of: SSL_set_accept_state))
        SSL_ctrl = try symbol(ssl, "SSL_ctrl", as: type(of: SSL_ctrl))
        SSL_get0_param = try symbol(ssl, "SSL_get0_param", as: type(of: SSL_get0_param))
        SSL_do_handshake = try symbol(ssl, "SSL_do_handshake", as: type(of: SSL_do_handshake))
        SSL_read = try symbol(ssl, "SSL_read", as: type(of: SSL_read))
        SSL_write = try symbol(ssl, "SSL_write", as: type(of: SSL_write))
        SSL_get_error = try symbol(ssl, "SSL_get_error", as: type(of: SSL_get_error))
        SSL_shutdown = try symbol(ssl, "SSL_shutdown", as: type(of: SSL_shutdown))
        SSL_get_shutdown = try symbol(ssl, "SSL_get_shutdown", as: type(of: SSL_get_shutdown))
        SSL_get_verify_result = try symbol(ssl, "SSL_get_verify_result", as: type(of: SSL_get_verify_result))
        SSL_get1_peer_certificate = try symbol(
            ssl, "SSL_get1_peer_certificate", "SSL_get_peer_certificate", as: type(of: SSL_get1_peer_certificate))
        SSL_get0_verified_chain = try symbol(ssl, "SSL_get0_verified_chain", as: type(of: SSL_get0_verified_chain))
        SSL_get_version = try symbol(ssl, "SSL_get_version", as: type(of: SSL_get_version))

        BIO_s_mem = try symbol(crypto, "BIO_s_mem", as: type(of: BIO_s_mem))
        BIO_new = try symbol(crypto, "BIO_new", as: type(of: BIO_new))
        BIO_new_mem_buf = try symbol(crypto, "BIO_new_mem_buf", as: type(of: BIO_new_mem_buf))
        BIO_free = try symbol(crypto, "BIO_free", as: type(of: BIO_free))
        BIO_read = try symbol(crypto, "BIO_read", as: type(of: BIO_read))
        BIO_write = try symbol(crypto, "BIO_write", as: type(of: BIO_write))
        BIO_ctrl_pending = try symbol(crypto, "BIO_ctrl_pending", as: type(of: BIO_ctrl_pending))
        PEM_read_bio_X509 = try symbol(crypto, "PEM_read_bio_X509", as: type(of: PEM_read_bio_X509))
        PEM_read_bio_PrivateKey = try symbol(crypto, "PEM_read_bio_PrivateKey", as: type(of: PEM_read_bio_PrivateKey))
        X509_free = try symbol(crypto, "X509_free", as: type(of: X509_free))
        EVP_PKEY_free = try symbol(crypto, "EVP_PKEY_free", as: type(of: EVP_PKEY_free))
        X509_STORE_add_cert = try symbol(crypto, "X509_STORE_add_cert", as: type(of: X509_STORE_add_cert))
        X509_get0_pubkey = try symbol(crypto, "X509_get0_pubkey", as: type(of: X509_get0_pubkey))
        i2d_PUBKEY = try symbol(crypto, "i2d_PUBKEY", as: type(of: i2d_PUBKEY))
        X509_VERIFY_PARAM_set1_host = try symbol(
            crypto, "X509_VERIFY_PARAM_set1_host", as: type(of: X509_VERIFY_PARAM_set1_host))
        X509_VERIFY_PARAM_set_hostflags = try symbol(
            crypto, "X509_VERIFY_PARAM_set_hostflags", as: type(of: X509_VERIFY_PARAM_set_hostflags))
        X509_VERIFY_PARAM_set1_ip_asc = try symbol(
            crypto, "X509_VERIFY_PARAM_set1_ip_asc", as: type(of: X509_VERIFY_PARAM_set1_ip_asc))
        X509_verify_cert_error_string = try symbol(
            crypto, "X509_verify_cert_error_string", as: type(of: X509_verify_cert_error_string))
        ERR_get_error = try symbol(crypto, "ERR_get_error", as: type(of: ERR_get_error))
        ERR_error_string_n = try symbol(crypto, "ERR_error_string_n", as: type(of: ERR_error_string_n))
        ERR_clear_error = try symbol(crypto, "ERR_clear_error", as: type(of: ERR_clear_error))
        OPENSSL_sk_num = try symbol(crypto, "OPENSSL_sk_num", as: type(of: OPENSSL_sk_num))
        OPENSSL_sk_value = try symbol(crypto, "OPENSSL_sk_value", as: type(of: OPENSSL_sk_value))
    }
}

/// OpenSSL constants WireKit uses; values are the same in 1.1 and 3.x (they are ABI).
enum OpenSSLConstant {
    static let SSL_ERROR_NONE: Int32 = 0
    static let SSL_ERROR_SSL: Int32 = 1
    static let SSL_ERROR_WANT_READ: Int32 = 2
    static let SSL_ERROR_WANT_WRITE: Int32 = 3
    static let SSL_ERROR_SYSCALL: Int32 = 5
    static let SSL_ERROR_ZERO_RETURN: Int32 = 6

    static let SSL_VERIFY_NONE: Int32 = 0
    static let SSL_VERIFY_PEER: Int32 = 1

    static let SSL_RECEIVED_SHUTDOWN: Int32 = 2

    static let SSL_CTRL_EXTRA_CHAIN_CERT: Int32 = 14
    static let SSL_CTRL_MODE: Int32 = 33
    static let SSL_CTRL_SET_TLSEXT_HOSTNAME: Int32 = 55
    static let SSL_CTRL_SET_MIN_PROTO_VERSION: Int32 = 123
    static let TLSEXT_NAMETYPE_host_name: Int = 0

    /// Frees a connection's record buffers while it is idle (a server holds many connections).
    static let SSL_MODE_RELEASE_BUFFERS: Int = 0x10

    static let TLS1_2_VERSION: Int = 0x0303
    static let TLS1_3_VERSION: Int = 0x0304

    static let X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS: UInt32 = 0x4
}
#endif
