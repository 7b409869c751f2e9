import Digests
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A public-key pin: the SHA-256 of a certificate's DER SubjectPublicKeyInfo, written like HPKP
/// pins as `sha256/<base64>`. Pinning a key (rather than a certificate) survives renewals that
/// keep the key.
public struct TLSPublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest of the DER SubjectPublicKeyInfo.
    public let sha256: [UInt8]

    /// A pin from its 32-byte digest.
    public init(sha256 digest: [UInt8]) throws(TLSError) {
        guard digest.count == SHA256.digestByteCount else {
            throw .invalidConfiguration(
                reason: "a SHA-256 pin has 32 bytes, not \(digest.count)")
        }
        sha256 = digest
    }

    /// A pin from its text form, `sha256/<base64 of 32 bytes>`.
    public init(_ text: String) throws(TLSError) {
        let prefix = "sha256/"
        guard text.hasPrefix(prefix),
            let digest = Data(base64Encoded: String(text.dropFirst(prefix.count)))
        else {
            throw .invalidConfiguration(reason: "\"\(text)\" is not a pin of the form sha256/<base64>")
        }
        try self.init(sha256: Array(digest))
    }

    /// The pin of a DER-encoded SubjectPublicKeyInfo.
    public init(subjectPublicKeyInfoDER der: some Sequence<UInt8>) {
        sha256 = SHA256.hash(der)
    }

    /// `sha256/<base64>`.
    public var description: String { "sha256/" + Data(sha256).base64EncodedString() }
}

#if canImport(Glibc)
extension TLSPublicKeyPin {
    /// The pins of the public keys of every certificate in `pem` (one or more PEM certificates),
    /// in order: what to put in `TLSConfiguration.pinnedPublicKeys` for those certificates.
    public static func pins(ofCertificatesPEM pem: String) throws(TLSError) -> [TLSPublicKeyPin] {
        let library = try OpenSSLLibrary.loaded()
        let certificates = try library.readCertificates(pem: pem, what: "certificate PEM")
        defer { certificates.forEach { library.X509_free($0) } }
        var pins: [TLSPublicKeyPin] = []
        for certificate in certificates {
            guard let der = library.subjectPublicKeyInfoDER(of: certificate) else {
                throw .invalidConfiguration(reason: "a certificate has no readable public key")
            }
            pins.append(TLSPublicKeyPin(subjectPublicKeyInfoDER: der))
        }
        return pins
    }
}
#endif
