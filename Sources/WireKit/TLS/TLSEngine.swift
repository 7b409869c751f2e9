#if canImport(Glibc)
import Glibc

/// One TLS connection as a sans-I/O state machine over OpenSSL memory BIOs: ciphertext from the
/// network goes in through `receive`, plaintext comes out of its callback; plaintext to send goes
/// in through `send`, ciphertext to write comes out of `takeCiphertext`. No sockets, no threads:
/// "want read" simply means the engine waits for the next `receive`.
///
/// Not thread-safe: an engine is confined to its owner's serial queue.
final class TLSEngine {
    /// Where the connection is.
    enum State: Equatable {
        /// The handshake is in progress.
        case handshaking
        /// The handshake succeeded (and pins matched); application data flows.
        case established
        /// The handshake or the connection failed; only `takeCiphertext` (a final alert) is useful.
        case failed
    }

    private let context: TLSContext
    private let library: OpenSSLLibrary
    private let ssl: OpaquePointer
    /// Network → OpenSSL. Owned by `ssl`.
    private let networkInput: OpaquePointer
    /// OpenSSL → network. Owned by `ssl`.
    private let networkOutput: OpaquePointer
    /// The host the client verifies, as written in the URL (for errors).
    private let expectedHost: String?
    /// Plaintext handed to `send` before the handshake finished; written when it does.
    private var pendingPlaintext: [UInt8] = []
    /// Reused SSL_read buffer (a TLS record carries at most 16 KiB of plaintext).
    private let readBuffer: UnsafeMutableRawBufferPointer

    private(set) var state: State = .handshaking
    /// The peer sent close_notify: it will send no more data.
    private(set) var receivedCloseNotify = false
    /// We queued our close_notify.
    private(set) var sentCloseNotify = false

    /// A client connection to `host` (a DNS name or an IP literal, IPv6 without brackets):
    /// sets SNI (names only) and the name or address the certificate must carry.
    init(client context: TLSContext, host: String) throws(TLSError) {
        guard case .client(let configuration) = context.role else {
            preconditionFailure("TLSEngine(client:) needs a client context")
        }
        self.context = context
        self.library = context.library
        (ssl, networkInput, networkOutput) = try Self.makeConnection(context)
        expectedHost = host
        readBuffer = .allocate(byteCount: 16 * 1024 + 512, alignment: 16)
        library.SSL_set_connect_state(ssl)

        let isIPAddress = Self.isIPAddress(host)
        if !isIPAddress {
            // Server Name Indication: only for names (RFC 6066 forbids IP literals).
            _ = host.withCString { name in
                library.SSL_ctrl(
                    ssl, OpenSSLConstant.SSL_CTRL_SET_TLSEXT_HOSTNAME, OpenSSLConstant.TLSEXT_NAMETYPE_host_name,
                    UnsafeMutableRawPointer(mutating: name))
            }
        }
        if !configuration.allowUntrustedCertificatesForTestingOnly {
            guard let parameters = library.SSL_get0_param(ssl) else {
                throw .unavailable(reason: "SSL_get0_param returned nothing")
            }
            let accepted: Int32
            if isIPAddress {
                accepted = library.X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
            } else {
                library.X509_VERIFY_PARAM_set_hostflags(
                    parameters, OpenSSLConstant.X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)
                accepted = library.X509_VERIFY_PARAM_set1_host(parameters, host, 0)
            }
            guard accepted == 1 else {
                throw .invalidConfiguration(reason: "cannot verify the host name \"\(host)\"")
            }
        }
    }

    /// A server connection presenting the context's certificate.
    init(server context: TLSContext) throws(TLSError) {
        self.context = context
        self.library = context.library
        (ssl, networkInput, networkOutput) = try Self.makeConnection(context)
        expectedHost = nil
        readBuffer = .allocate(byteCount: 16 * 1024 + 512, alignment: 16)
        library.SSL_set_accept_state(ssl)
    }

    deinit {
        library.SSL_free(ssl)  // frees both BIOs
        readBuffer.deallocate()
    }

    private static func makeConnection(
        _ context: TLSContext
    ) throws(TLSError) -> (OpaquePointer, OpaquePointer, OpaquePointer) {
        let library = context.library
        library.ERR_clear_error()
        guard let ssl = library.SSL_new(context.context) else {
            throw .unavailable(reason: "SSL_new failed: \(library.errorQueueText())")
        }
        guard let input = library.BIO_new(library.BIO_s_mem()) else {
            library.SSL_free(ssl)
            throw .unavailable(reason: "BIO_new failed")
        }
        guard let output = library.BIO_new(library.BIO_s_mem()) else {
            _ = library.BIO_free(input)
            library.SSL_free(ssl)
            throw .unavailable(reason: "BIO_new failed")
        }
        library.SSL_set_bio(ssl, input, output)
        return (ssl, input, output)
    }

    /// Whether `host` is an IPv4 or IPv6 literal (no brackets).
    static func isIPAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }

    // MARK: Inputs

    /// Client: queues the ClientHello (read it with `takeCiphertext`). Server: nothing to do.
    func startHandshake() throws(TLSError) {
        try advance { _ in }
    }

    /// Feeds bytes read from the network. Advances the handshake and passes any decrypted
    /// plaintext to `plaintext` (the buffer is valid only during the call). Afterwards, check
    /// `state`, `receivedCloseNotify` and `hasCiphertext` (the handshake produces replies).
    func receive(_ ciphertext: UnsafeRawBufferPointer, plaintext: (UnsafeRawBufferPointer) -> Void) throws(TLSError) {
        guard state != .failed else { return }
        var offset = 0
        while offset < ciphertext.count {
            let chunk = Int32(clamping: ciphertext.count - offset)
            let written = library.BIO_write(networkInput, ciphertext.baseAddress.map { $0 + offset }, chunk)
            guard written > 0 else {
                state = .failed
                throw .connectionFailed(reason: "cannot buffer received bytes (out of memory)")
            }
            offset += Int(written)
        }
        try advance(plaintext: plaintext)
    }

    /// Encrypts `plaintext` for sending (ciphertext through `takeCiphertext`). Before the
    /// handshake completes it is kept and sent right after.
    func send(_ plaintext: UnsafeRawBufferPointer) throws(TLSError) {
        guard !plaintext.isEmpty else { return }
        switch state {
        case .failed:
            return
        case .handshaking:
            pendingPlaintext.append(contentsOf: plaintext)
        case .established:
            guard !sentCloseNotify else { return }
            try write(plaintext)
        }
    }

    /// Queues close_notify (orderly TLS shutdown); nothing more can be sent afterwards.
    /// Call after the WebSocket close handshake, before closing TCP.
    func shutdown() {
        guard state == .established, !sentCloseNotify else { return }
        sentCloseNotify = true
        library.ERR_clear_error()
        _ = library.SSL_shutdown(ssl)
        library.ERR_clear_error()
    }

    // MARK: Outputs

    /// Whether ciphertext is waiting to be written to the network.
    var hasCiphertext: Bool { library.BIO_ctrl_pending(networkOutput) > 0 }

    /// The ciphertext waiting to be written to the network, or an empty array.
    func takeCiphertext() -> [UInt8] {
        let pending = library.BIO_ctrl_pending(networkOutput)
        guard pending > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { buffer in
            library.BIO_read(networkOutput, buffer.baseAddress, Int32(clamping: buffer.count))
        }
        if read < pending { bytes.removeLast(pending - Int(max(read, 0))) }
        return bytes
    }

    /// The negotiated protocol, e.g. "TLSv1.3" (after the handshake).
    var negotiatedVersion: String? {
        guard state == .established, let name = library.SSL_get_version(ssl) else { return nil }
        return String(cString: name)
    }

    /// The `sha256/...` pins of the peer's leaf certificate and of its verified chain.
    func peerPublicKeyPins() -> [TLSPublicKeyPin] {
        var pins: [TLSPublicKeyPin] = []
        if let leaf = library.SSL_get1_peer_certificate(ssl) {
            defer { library.X509_free(leaf) }
            if let der = library.subjectPublicKeyInfoDER(of: leaf) {
                pins.append(TLSPublicKeyPin(subjectPublicKeyInfoDER: der))
            }
        }
        if let chain = library.SSL_get0_verified_chain(ssl) {
            let count = library.OPENSSL_sk_num(chain)
            for index in 0..<max(count, 0) {
                guard let certificate = library.OPENSSL_sk_value(chain, index),
                    let der = library.subjectPublicKeyInfoDER(of: certificate)
                else { continue }
                let pin = TLSPublicKeyPin(subjectPublicKeyInfoDER: der)
                if !pins.contains(pin) { pins.append(pin) }
            }
        }
        return pins
    }

    // MARK: Driving OpenSSL

    private func advance(plaintext: (UnsafeRawBufferPointer) -> Void) throws(TLSError) {
        if state == .handshaking {
            library.ERR_clear_error()
            let result = library.SSL_do_handshake(ssl)
            if result == 1 {
                try handshakeCompleted()
            } else {
                let error = library.SSL_get_error(ssl, result)
                if error == OpenSSLConstant.SSL_ERROR_WANT_READ || error == OpenSSLConstant.SSL_ERROR_WANT_WRITE {
                    return  // needs more bytes from the peer
                }
                state = .failed
                throw handshakeError(sslError: error)
            }
        }
        guard state == .established else { return }
        try readPlaintext(plaintext)
    }

    private func handshakeCompleted() throws(TLSError) {
        if case .client(let configuration) = context.role, !configuration.pinnedPublicKeys.isEmpty {
            let presented = peerPublicKeyPins()
            guard presented.contains(where: configuration.pinnedPublicKeys.contains) else {
                state = .failed
                library.ERR_clear_error()
                _ = library.SSL_shutdown(ssl)
                library.ERR_clear_error()
                throw .pinMismatch(presented: presented.map(\.description))
            }
        }
        state = .established
        if !pendingPlaintext.isEmpty {
            let pending = pendingPlaintext
            pendingPlaintext = []
            let result = pending.withUnsafeBytes { buffer in
                Result { () throws(TLSError) in try write(buffer) }
            }
            try result.get()
        }
    }

    private func readPlaintext(_ plaintext: (UnsafeRawBufferPointer) -> Void) throws(TLSError) {
        while !receivedCloseNotify {
            library.ERR_clear_error()
            let count = library.SSL_read(ssl, readBuffer.baseAddress, Int32(readBuffer.count))
            if count > 0 {
                plaintext(UnsafeRawBufferPointer(rebasing: readBuffer[0..<Int(count)]))
                continue
            }
            let error = library.SSL_get_error(ssl, count)
            switch error {
            case OpenSSLConstant.SSL_ERROR_WANT_READ, OpenSSLConstant.SSL_ERROR_WANT_WRITE:
                return
            case OpenSSLConstant.SSL_ERROR_ZERO_RETURN:
                receivedCloseNotify = true
            default:
                state = .failed
                throw .connectionFailed(reason: library.errorQueueText())
            }
        }
    }

    private func write(_ plaintext: UnsafeRawBufferPointer) throws(TLSError) {
        var offset = 0
        while offset < plaintext.count {
            library.ERR_clear_error()
            // A memory BIO never fills up, so SSL_write takes every byte offered.
            let chunk = Int32(min(plaintext.count - offset, 1 << 20))
            let written = library.SSL_write(ssl, plaintext.baseAddress.map { $0 + offset }, chunk)
            guard written > 0 else {
                state = .failed
                throw .connectionFailed(reason: library.errorQueueText())
            }
            offset += Int(written)
        }
    }

    /// The typed error for a failed handshake: the certificate verdict when verification failed,
    /// else OpenSSL's error text.
    private func handshakeError(sslError: Int32) -> TLSError {
        let reasonText = library.errorQueueText()
        if case .client(let configuration) = context.role, !configuration.allowUntrustedCertificatesForTestingOnly {
            let code = library.SSL_get_verify_result(ssl)
            if code != 0 {
                return Self.verificationError(code: code, library: library, host: expectedHost ?? "")
            }
        }
        if sslError == OpenSSLConstant.SSL_ERROR_SYSCALL || sslError == OpenSSLConstant.SSL_ERROR_ZERO_RETURN {
            return .handshakeFailed(reason: "the peer ended the connection during the handshake")
        }
        return .handshakeFailed(reason: reasonText)
    }

    /// Maps an `X509_V_ERR_*` code to what failed.
    static func verificationError(code: Int, library: OpenSSLLibrary, host: String) -> TLSError {
        let text = library.X509_verify_cert_error_string(code).map { String(cString: $0) } ?? "verify error \(code)"
        switch code {
        case 10:  // X509_V_ERR_CERT_HAS_EXPIRED
            return .certificateExpired
        case 9:  // X509_V_ERR_CERT_NOT_YET_VALID
            return .certificateNotYetValid
        case 62, 64:  // X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH
            return .hostnameMismatch(expected: host)
        case 2, 18, 19, 20, 21, 27, 28:
            // unable to get issuer, self-signed leaf, self-signed in chain, no local issuer,
            // cannot verify leaf signature, not trusted, rejected
            return .certificateUntrusted(reason: text)
        default:
            return .certificateRejected(code: code, reason: text)
        }
    }
}
#endif
