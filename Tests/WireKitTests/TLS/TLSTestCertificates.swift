import Foundation
import WireKit

/// The committed test certificates (see TLSCertificates/make-certs.sh), read relative to this file.
enum TLSTestCertificates {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("TLSCertificates")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func text(_ name: String) -> String {
        (try? String(contentsOf: url(name), encoding: .utf8)) ?? "missing test file \(name)"
    }

    /// The openssl-computed pin stored next to the certificate.
    static func pin(_ name: String) throws -> TLSPublicKeyPin {
        try TLSPublicKeyPin(text("\(name).pin").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static var caPEM: String { text("ca.pem") }

    /// The identity of one of the test servers: "server", "expired", "wrong-host", "untrusted".
    static func server(_ name: String) -> TLSServerConfiguration {
        TLSServerConfiguration(certificateChainPEM: text("\(name).pem"), privateKeyPEM: text("\(name)-key.pem"))
    }

    /// A client trusting only the test CA.
    static var trustingTestCA: TLSConfiguration { TLSConfiguration(trustRoots: .only(pem: caPEM)) }
}
