#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The identity a TLS server presents: its certificate chain and private key, both PEM.
public struct TLSServerConfiguration: Sendable, Hashable {
    /// The server certificate first, then any intermediates (PEM, concatenated).
    public var certificateChainPEM: String
    /// The private key of the first certificate (PEM, unencrypted PKCS#8 or traditional format).
    public var privateKeyPEM: String
    /// The oldest protocol version accepted from clients. Default: TLS 1.2.
    public var minimumVersion: TLSVersion

    /// A server identity from PEM text.
    public init(certificateChainPEM: String, privateKeyPEM: String, minimumVersion: TLSVersion = .v1_2) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.minimumVersion = minimumVersion
    }

    /// A server identity read from PEM files.
    public init(
        certificateChainFile: URL, privateKeyFile: URL, minimumVersion: TLSVersion = .v1_2
    ) throws(TLSError) {
        self.init(
            certificateChainPEM: try Self.readText(certificateChainFile),
            privateKeyPEM: try Self.readText(privateKeyFile),
            minimumVersion: minimumVersion)
    }

    private static func readText(_ url: URL) throws(TLSError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .invalidConfiguration(reason: "cannot read \(url.path): \(error)")
        }
    }
}
