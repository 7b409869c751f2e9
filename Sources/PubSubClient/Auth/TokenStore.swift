import Foundation

/// Where the client keeps the signed auth token between connections and launches (Protocol.md §9).
/// Calls come from the client's serial queue; implementations must be thread-safe anyway since
/// an app may share a store between clients.
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
