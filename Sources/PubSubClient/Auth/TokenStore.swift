import Foundation

/// Where the client keeps the signed auth token between connections and launches (Protocol.md §9).
/// Calls come from the client's serial queue; implementations must be thread-safe anyway since
/// an app may share a store between clients.
///
/// The requirements are synchronous, and stay so: the client loads the token while it is created
/// (so the first handshake can send it without waiting) and saves or removes it on its session
/// queue, in order with the session's other actions, so the stored token always ends as the
/// session's last one (a save and a later removal cannot land the other way round). A token is small and the built-in stores (memory, a file, the Keychain)
/// answer at once; a store backed by something slow should keep a local copy and write through
/// in the background. A failure is reported as `PubSubError` with code `tokenStore` and does not
/// stop the session.
///
/// Requirements added in a later release come with a default implementation in an extension,
/// so existing conformances keep compiling.
public protocol TokenStore: Sendable {
    /// The token saved under `name`, or nil.
    func loadToken(name: String) throws -> String?
    /// Saves `token` under `name`, replacing any previous one.
    func saveToken(name: String, token: String) throws
    /// Deletes the token saved under `name`.
    func removeToken(name: String) throws
}

/// A token store that forgets everything when the process ends (the JS fallback engine).
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    // @unchecked: `tokens` is only touched while holding `lock`.
    private let lock = NSLock()
    private var tokens: [String: String]

    /// A store holding `tokens` (key → signed token) to begin with.
    public init(tokens: [String: String] = [:]) { self.tokens = tokens }

    public func loadToken(name: String) throws -> String? {
        lock.lock(); defer { lock.unlock() }
        return tokens[name]
    }

    public func saveToken(name: String, token: String) throws {
        lock.lock(); defer { lock.unlock() }
        tokens[name] = token
    }

    public func removeToken(name: String) throws {
        lock.lock(); defer { lock.unlock() }
        tokens.removeValue(forKey: name)
    }
}
