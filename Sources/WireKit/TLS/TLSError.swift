/// Why a TLS connection (or its configuration) failed.
///
/// ``code`` says what kind of failure it is; ``message`` carries the reason the TLS library or the
/// verifier gave. New codes and fields may be added in minor releases; match codes with
/// `default:`, or with `catch TLSError.Code.certificateExpired`.
public struct TLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of TLS failure this is. New codes may be added in minor releases; match with
    /// `default:`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"certificateExpired"`.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// No usable TLS library on this system (Linux: libssl 3 or 1.1 could not be loaded).
        public static let unavailable = Code(rawValue: "unavailable")
        /// The peer's certificate chain does not lead to a trusted root (self-signed, unknown
        /// issuer); ``TLSError/message`` is the verifier's text, e.g. "unable to get local issuer
        /// certificate".
        public static let certificateUntrusted = Code(rawValue: "certificateUntrusted")
        /// The peer's certificate (or one in its chain) has expired.
        public static let certificateExpired = Code(rawValue: "certificateExpired")
        /// The peer's certificate (or one in its chain) is not valid yet.
        public static let certificateNotYetValid = Code(rawValue: "certificateNotYetValid")
        /// The peer's certificate was rejected for another reason (OpenSSL's verify code in
        /// ``TLSError/verifyCode``, its text in ``TLSError/message``).
        public static let certificateRejected = Code(rawValue: "certificateRejected")
        /// The certificate does not name the host (``TLSError/expectedHost``, a DNS name or IP
        /// address) the client connected to.
        public static let hostnameMismatch = Code(rawValue: "hostnameMismatch")
        /// No public key in the peer's chain matches a configured pin; ``TLSError/presentedPins``
        /// lists the `sha256/...` pins of the keys the peer did present.
        public static let pinMismatch = Code(rawValue: "pinMismatch")
        /// The TLS handshake failed; ``TLSError/message`` is the TLS library's error text.
        public static let handshakeFailed = Code(rawValue: "handshakeFailed")
        /// A TLS failure after the handshake (bad record, unexpected message); the library's text.
        public static let connectionFailed = Code(rawValue: "connectionFailed")
        /// The configuration cannot be used: unreadable PEM, key not matching the certificate,
        /// bad pin.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The reason the TLS library, the verifier or the system gave, as given (not escaped: it can
    /// quote the peer's certificate; print ``description``, which escapes it).
    public var message: String
    /// For ``Code/certificateRejected``: OpenSSL's verify error code.
    public var verifyCode: Int?
    /// For ``Code/hostnameMismatch``: the host the certificate was checked against.
    public var expectedHost: String?
    /// For ``Code/pinMismatch``: the `sha256/...` pins of the keys the peer presented.
    public var presentedPins: [String]?

    /// A TLS error of `code`; custom transports and test doubles build them with this.
    public init(
        code: Code, message: String, verifyCode: Int? = nil, expectedHost: String? = nil, presentedPins: [String]? = nil
    ) {
        self.code = code
        self.message = message
        self.verifyCode = verifyCode
        self.expectedHost = expectedHost
        self.presentedPins = presentedPins
    }

    /// What failed, in words, with the reason OpenSSL or the system gave where there is one
    /// (escaped with `escapedForDisplay`: it can quote the peer's certificate).
    public var description: String {
        switch code {
        case .unavailable:
            return "TLS is unavailable on this system: \(message.escapedForDisplay)"
        case .certificateUntrusted:
            return "the server's certificate is not trusted (\(message.escapedForDisplay))"
        case .certificateExpired:
            return "the peer's certificate has expired"
        case .certificateNotYetValid:
            return "the peer's certificate is not valid yet"
        case .certificateRejected:
            return "the peer's certificate was rejected: \(message.escapedForDisplay) (verify error \(verifyCode ?? 0))"
        case .hostnameMismatch:
            return "the certificate is not valid for \((expectedHost ?? "").escapedForDisplay)"
        case .pinMismatch:
            return "no public key of the peer matches a pinned key (the peer presented "
                + (presentedPins ?? []).joined(separator: ", ").escapedForDisplay + ")"
        case .handshakeFailed:
            return "the TLS handshake failed: \(message.escapedForDisplay)"
        case .connectionFailed:
            return "the TLS connection failed: \(message.escapedForDisplay)"
        case .invalidConfiguration:
            return "invalid TLS configuration: \(message.escapedForDisplay)"
        default:
            return message.escapedForDisplay
        }
    }

    /// Whether `value` has code `pattern`, for `switch` and typed `catch`.
    public static func ~= (pattern: Code, value: TLSError) -> Bool {
        value.code == pattern
    }
}

extension TLSError {
    /// No usable TLS library.
    package static func unavailable(reason: String) -> Self { Self(code: .unavailable, message: reason) }
    /// The chain does not lead to a trusted root.
    package static func certificateUntrusted(reason: String) -> Self { Self(code: .certificateUntrusted, message: reason) }
    /// A certificate in the chain has expired.
    package static var certificateExpired: Self { Self(code: .certificateExpired, message: "certificate has expired") }
    /// A certificate in the chain is not valid yet.
    package static var certificateNotYetValid: Self {
        Self(code: .certificateNotYetValid, message: "certificate is not yet valid")
    }
    /// The certificate was rejected with OpenSSL verify `code`.
    package static func certificateRejected(code: Int, reason: String) -> Self {
        Self(code: .certificateRejected, message: reason, verifyCode: code)
    }
    /// The certificate does not name `expected`.
    package static func hostnameMismatch(expected: String) -> Self {
        Self(code: .hostnameMismatch, message: "hostname mismatch", expectedHost: expected)
    }
    /// No presented key matches a pin.
    package static func pinMismatch(presented: [String]) -> Self {
        Self(code: .pinMismatch, message: "public key pin mismatch", presentedPins: presented)
    }
    /// The handshake failed.
    package static func handshakeFailed(reason: String) -> Self { Self(code: .handshakeFailed, message: reason) }
    /// A failure after the handshake.
    package static func connectionFailed(reason: String) -> Self { Self(code: .connectionFailed, message: reason) }
    /// The configuration cannot be used.
    package static func invalidConfiguration(reason: String) -> Self { Self(code: .invalidConfiguration, message: reason) }
}

extension TLSError.Code {
    /// Whether `value` is a ``TLSError`` with code `pattern`: `catch TLSError.Code.certificateExpired`.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? TLSError)?.code == pattern
    }
}
