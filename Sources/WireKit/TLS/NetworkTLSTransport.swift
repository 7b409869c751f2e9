// Apple platforms: TLS through Network.framework. NOT compiled or tested on the Linux machines
// this package is developed and tested on (see WireKit.docc/TLS.md); keep it small.
#if canImport(Network) && !canImport(Glibc)
import Dispatch
import Foundation
import Network
import Security

/// TLS client connection on Apple platforms, over `NWConnection`, behind the `Transport`
/// protocol. Verification follows `TLSConfiguration` in the connection's verify block: the
/// system trust evaluation with the host name policy, optional extra or replacement roots, and
/// public-key pins. `.connected` comes after a verified handshake; failures end with
/// `.closed(error)` with code `.tls`.
///
/// `@unchecked Sendable`: all mutable state is confined to the serial queue passed to `start`
/// (the verify block records its verdict through that queue too).
public final class NetworkTLSTransport: Transport, @unchecked Sendable {
    private let host: String
    private let port: Int
    private let connectTimeout: Double
    private let configuration: TLSConfiguration?

    private var connection: NWConnection?
    private var handler: (@Sendable (TransportEvent) -> Void)?
    private var failure: TLSError?
    private var transportFailure: TransportError?
    private var closedReported = false
    public private(set) var bufferedAmount = 0

    /// A TLS client connection to `host`:`port` (IPv6 with or without brackets).
    /// `handshakeTimeout` is added to `connectTimeout`: Network.framework has one timeout for both.
    public init(
        host: String, port: Int, connectTimeout: Duration = .seconds(10), handshakeTimeout: Duration = .seconds(10),
        configuration: TLSConfiguration = TLSConfiguration()
    ) {
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        self.host = String(name)
        self.port = port
        self.connectTimeout = (connectTimeout + handshakeTimeout).wireKitSeconds
        self.configuration = configuration
    }

    /// The server role over TLS is not implemented on Apple platforms: `start` reports
    /// `.closed(error)` with a `TLSError` of code `.unavailable`. (`TLSServerIdentity` cannot be created here either.)
    public init(server inner: any Transport, identity: TLSServerIdentity, handshakeTimeout: Duration = .seconds(10)) {
        host = ""
        port = 0
        connectTimeout = 0
        configuration = nil
    }

    public func start(queue: DispatchQueue, handler: @escaping @Sendable (TransportEvent) -> Void) {
        queue.async { [self] in
            guard self.handler == nil, !closedReported else { return }
            self.handler = handler
            guard let configuration, let endpointPort = NWEndpoint.Port(rawValue: UInt16(clamping: self.port)) else {
                fail(.unavailable(reason: "the TLS server role is only implemented on Linux (OpenSSL)"))
                reportClosed(nil)
                return
            }
            let tls = NWProtocolTLS.Options()
            let options = tls.securityProtocolOptions
            sec_protocol_options_set_min_tls_protocol_version(
                options, configuration.minimumVersion == .v1_3 ? .TLSv13 : .TLSv12)
            if !Self.isIPAddress(host) { sec_protocol_options_set_tls_server_name(options, host) }
            let verifier = TrustVerifier(host: host, configuration: configuration)
            // The verify block runs on `queue` (its last argument).
            sec_protocol_options_set_verify_block(
                options,
                { [weak self] _, trust, complete in
                    let verdict = verifier.verify(sec_trust_copy_ref(trust).takeRetainedValue())
                    if let verdict, self?.failure == nil { self?.failure = verdict }
                    complete(verdict == nil)
                }, queue)
            let tcp = NWProtocolTCP.Options()
            tcp.noDelay = true
            tcp.connectionTimeout = Int(connectTimeout.rounded(.up))
            let connection = NWConnection(
                host: NWEndpoint.Host(host), port: endpointPort, using: NWParameters(tls: tls, tcp: tcp))
            self.connection = connection
            connection.stateUpdateHandler = { [self] state in stateChanged(state) }
            connection.start(queue: queue)
        }
    }

    public func write(_ bytes: [UInt8]) {
        guard let connection, !bytes.isEmpty, !closedReported else { return }
        bufferedAmount += bytes.count
        connection.send(
            content: Data(bytes),
            completion: .contentProcessed { [self] _ in
                bufferedAmount -= bytes.count
                if bufferedAmount == 0 { handler?(.writable) }
            })
    }

    public func close() {
        guard let connection else {
            reportClosed(nil)
            return
        }
        connection.cancel()
    }

    private func stateChanged(_ state: NWConnection.State) {
        switch state {
        case .ready:
            handler?(.connected)
            receive()
        case .waiting(let error), .failed(let error):
            record(error)
            connection?.cancel()
        case .cancelled:
            reportClosed(transportFailure)
        default:
            break
        }
    }

    private func receive() {
        connection?.receive(minimumIncompleteLength: 1, maximumLength: 64 * 1024) { [self] data, _, isComplete, error in
            if let data, !data.isEmpty {
                data.withUnsafeBytes { handler?(.received($0)) }
            }
            if isComplete {
                handler?(.inputClosed)
            } else if let error {
                record(error)
                connection?.cancel()
            } else {
                receive()
            }
        }
    }

    private func fail(_ error: TLSError) {
        if failure == nil { failure = error }
    }

    private func reportClosed(_ error: TransportError?) {
        guard !closedReported else { return }
        closedReported = true
        let handler = self.handler
        self.handler = nil
        connection = nil
        handler?(.closed(failure.map { .tls($0) } ?? error))
    }

    /// Keeps the first failure: TLS failures as `TLSError`, socket failures as `TransportError`.
    private func record(_ error: NWError) {
        guard failure == nil, transportFailure == nil else { return }
        switch error {
        case .tls:
            failure = .handshakeFailed(reason: error.debugDescription)
        case .posix(let code) where code == .ECONNREFUSED:
            transportFailure = .connectionRefused(host: host, port: port)
        case .posix(let code):
            transportFailure = .system(operation: "connect", errno: code.rawValue)
        default:
            transportFailure = .unsupported(error.debugDescription)
        }
    }

    private static func isIPAddress(_ host: String) -> Bool {
        IPv4Address(host) != nil || IPv6Address(host) != nil
    }
}

/// The verify block's logic: trust evaluation per `TLSConfiguration`, then pins.
private struct TrustVerifier: Sendable {
    let host: String
    let configuration: TLSConfiguration

    /// `nil` when the server is accepted, else why not.
    func verify(_ trust: SecTrust) -> TLSError? {
        SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString))
        if !configuration.allowUntrustedCertificatesForTestingOnly {
            switch configuration.trustRoots {
            case .system:
                break
            case .systemAnd(let pem), .only(let pem):
                let roots = Self.certificates(pem: pem)
                guard !roots.isEmpty else {
                    return .invalidConfiguration(reason: "no PEM certificate found in the trusted roots")
                }
                SecTrustSetAnchorCertificates(trust, roots as CFArray)
                if case .systemAnd = configuration.trustRoots {
                    SecTrustSetAnchorCertificatesOnly(trust, false)
                }
            }
            var error: CFError?
            if !SecTrustEvaluateWithError(trust, &error) {
                return Self.verificationError(error, host: host)
            }
        }
        guard !configuration.pinnedPublicKeys.isEmpty else { return nil }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        let presented = chain.compactMap(Self.pin)
        guard presented.contains(where: configuration.pinnedPublicKeys.contains) else {
            return .pinMismatch(presented: presented.map(\.description))
        }
        return nil
    }

    private static func verificationError(_ error: CFError?, host: String) -> TLSError {
        guard let error else { return .certificateUntrusted(reason: "trust evaluation failed") }
        let reason = CFErrorCopyDescription(error) as String? ?? "trust evaluation failed"
        switch CFErrorGetCode(error) {
        case Int(errSecCertificateExpired): return .certificateExpired
        case Int(errSecCertificateNotValidYet): return .certificateNotYetValid
        case Int(errSecHostNameMismatch): return .hostnameMismatch(expected: host)
        default: return .certificateUntrusted(reason: reason)
        }
    }

    /// The certificates in PEM text.
    private static func certificates(pem: String) -> [SecCertificate] {
        var result: [SecCertificate] = []
        var base64 = ""
        var inside = false
        for line in pem.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("-----BEGIN CERTIFICATE-----") {
                inside = true
                base64 = ""
            } else if line.hasPrefix("-----END CERTIFICATE-----") {
                inside = false
                if let der = Data(base64Encoded: base64),
                    let certificate = SecCertificateCreateWithData(nil, der as CFData)
                {
                    result.append(certificate)
                }
            } else if inside {
                base64 += line.trimmingCharacters(in: .whitespaces)
            }
        }
        return result
    }

    /// The pin of a certificate's key: Security gives the raw key, so the DER SubjectPublicKeyInfo
    /// is rebuilt with the fixed ASN.1 header of its algorithm and size.
    private static func pin(_ certificate: SecCertificate) -> TLSPublicKeyPin? {
        guard let key = SecCertificateCopyKey(certificate),
            let attributes = SecKeyCopyAttributes(key) as? [CFString: Any],
            let type = attributes[kSecAttrKeyType] as? String,
            let bits = attributes[kSecAttrKeySizeInBits] as? Int,
            let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?
        else { return nil }
        let rsa = kSecAttrKeyTypeRSA as String
        let ec = kSecAttrKeyTypeECSECPrimeRandom as String
        let header: String
        switch (type, bits) {
        case (rsa, 2048): header = "30820122300d06092a864886f70d01010105000382010f00"
        case (rsa, 4096): header = "30820222300d06092a864886f70d01010105000382020f00"
        case (ec, 256): header = "3059301306072a8648ce3d020106082a8648ce3d030107034200"
        case (ec, 384): header = "3076301006072a8648ce3d020106052b81040022036200"
        default: return nil
        }
        var der: [UInt8] = []
        var digits = header.makeIterator()
        while let high = digits.next(), let low = digits.next(), let byte = UInt8(String([high, low]), radix: 16) {
            der.append(byte)
        }
        der.append(contentsOf: raw)
        return TLSPublicKeyPin(subjectPublicKeyInfoDER: der)
    }
}
#endif
