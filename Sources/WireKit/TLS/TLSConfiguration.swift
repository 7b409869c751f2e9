/// How a client verifies the TLS server it connects to. Safe by default: the chain is verified
/// against the system trust store, the host name (or IP address) of the URL is verified, and TLS 1.2
/// is the minimum version.
///
/// The only way to turn verification off is `allowUntrustedCertificatesForTestingOnly`.
public struct TLSConfiguration: Sendable, Hashable {
    /// The root certificates a server's chain must lead to. Default: `.system`.
    public var trustRoots: TLSTrustRoots
    /// When not empty, one public key in the server's chain (leaf, intermediate or root) must
    /// match one of these pins, in addition to normal verification. Default: empty.
    public var pinnedPublicKeys: [TLSPublicKeyPin]
    /// The oldest protocol version accepted. Default: TLS 1.2.
    public var minimumVersion: TLSVersion
    /// Accepts any certificate chain and any host name. For tests against self-signed servers
    /// only: it removes the protection TLS gives against impostors. Pins are still checked.
    public var allowUntrustedCertificatesForTestingOnly: Bool

    /// A configuration verifying against `trustRoots`, optionally with pins.
    public init(
        trustRoots: TLSTrustRoots = .system,
        pinnedPublicKeys: [TLSPublicKeyPin] = [],
        minimumVersion: TLSVersion = .v1_2
    ) {
        self.trustRoots = trustRoots
        self.pinnedPublicKeys = pinnedPublicKeys
        self.minimumVersion = minimumVersion
        self.allowUntrustedCertificatesForTestingOnly = false
    }

    /// The default: system trust store, host name verified, TLS 1.2 or later.
    public static var `default`: TLSConfiguration { TLSConfiguration() }
}

/// The set of root certificates a client trusts.
///
/// New cases may be added in a minor release (another source of roots); switch with `default:`.
public enum TLSTrustRoots: Sendable, Hashable {
    /// The operating system's trust store.
    case system
    /// The system trust store plus these roots (one or more PEM certificates, concatenated).
    case systemAnd(pem: String)
    /// Only these roots (one or more PEM certificates, concatenated); the system store is ignored.
    case only(pem: String)
}

/// A TLS protocol version. Versions before 1.2 are deliberately not offered.
///
/// New cases may be added in a minor release (a TLS version after 1.3); switch with `default:`.
public enum TLSVersion: Sendable, Hashable, Comparable {
    /// TLS 1.2 (RFC 5246), the default minimum.
    case v1_2
    /// TLS 1.3 (RFC 8446).
    case v1_3
}
