import Foundation

// `localizedDescription` on these errors gives their clear message instead of Foundation's
// generic "The operation could not be completed".

extension JSONParseError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension JSONCodingError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension RemoteError: LocalizedError {
    /// `"<name>: <message>"`.
    public var errorDescription: String? { description }
}

extension JWTVerificationError: LocalizedError {
    /// `"<name>: <message>"`.
    public var errorDescription: String? { description }
}

extension MalformedResponseError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension MessagePackDecodingError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension MessagePackEncodingError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}
