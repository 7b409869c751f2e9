#if canImport(Glibc)
/// Reading certificates and keys from PEM text, and the DER SubjectPublicKeyInfo of a certificate.
extension OpenSSLLibrary {
    /// Every certificate in `pem`, in order; the caller owns them (`X509_free`).
    func readCertificates(pem: String, what: String) throws(TLSError) -> [Pointer] {
        ERR_clear_error()
        let certificates: [Pointer] =
            withMemoryBIO(pem) { bio -> [Pointer]? in
                var result: [Pointer] = []
                while let certificate = PEM_read_bio_X509(bio, nil, nil, Self.noPassphrase) {
                    result.append(certificate)
                }
                return result
            } ?? []
        // Reading stops with a "no start line" error at the end of the text; that is expected.
        ERR_clear_error()
        guard !certificates.isEmpty else {
            throw .invalidConfiguration(reason: "no PEM certificate found in the \(what)")
        }
        return certificates
    }

    /// The private key in `pem`; the caller owns it (`EVP_PKEY_free`).
    func readPrivateKey(pem: String) throws(TLSError) -> Pointer {
        ERR_clear_error()
        let key = withMemoryBIO(pem) { bio in PEM_read_bio_PrivateKey(bio, nil, nil, Self.noPassphrase) }
        guard let key else {
            throw .invalidConfiguration(
                reason: "cannot read the private key PEM (encrypted keys are not supported): \(errorQueueText())")
        }
        return key
    }

    /// The DER SubjectPublicKeyInfo of a certificate, or `nil` if it has no readable key.
    func subjectPublicKeyInfoDER(of certificate: Pointer) -> [UInt8]? {
        guard let key = X509_get0_pubkey(certificate) else { return nil }
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        guard written == length else { return nil }
        return der
    }

    /// Drains OpenSSL's (per-thread) error queue into one line of text.
    func errorQueueText() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "no further detail from OpenSSL" : messages.joined(separator: "; ")
    }

    /// An empty passphrase, so an encrypted key fails instead of prompting on the terminal.
    private static var noPassphrase: UnsafeRawPointer { UnsafeRawPointer(("" as StaticString).utf8Start) }

    private func withMemoryBIO<R>(_ text: String, _ body: (Pointer) -> R?) -> R? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> R? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
            defer { _ = BIO_free(bio) }
            return body(bio)
        }
    }
}
#endif
