import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A token store keeping each token in its own file inside `directory`, written atomically
/// (temporary file + rename) with owner-only permissions (0600; the directory 0700).
/// File names are the token names with every character outside `[A-Za-z0-9._-]` percent-encoded.
public final class FileTokenStore: TokenStore, @unchecked Sendable {
    // @unchecked: file operations are serialised by `lock`; `directory` is immutable.
    /// Where the token files live.
    public let directory: URL
    private let lock = NSLock()

    /// A store in `directory`, created (0700) if missing.
    public init(directory: URL) throws(PubSubError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .tokenStore("cannot create \(directory.path): \(error.localizedDescription)")
        }
    }

    public func loadToken(name: String) throws -> String? {
        lock.lock(); defer { lock.unlock() }
        let url = fileURL(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw PubSubError.tokenStore("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    public func saveToken(name: String, token: String) throws {
        lock.lock(); defer { lock.unlock() }
        let url = fileURL(name)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let created = FileManager.default.createFile(
            atPath: temporary.path, contents: Data(token.utf8),
            attributes: [.posixPermissions: 0o600])
        guard created else { throw PubSubError.tokenStore("cannot write \(temporary.path)") }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw PubSubError.tokenStore("cannot replace \(url.path): \(reason)")
        }
    }

    public func removeToken(name: String) throws {
        lock.lock(); defer { lock.unlock() }
        let url = fileURL(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw PubSubError.tokenStore("cannot remove \(url.path): \(error.localizedDescription)")
        }
    }

    func fileURL(_ name: String) -> URL {
        var safe = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                safe.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ".") where !safe.isEmpty:
                safe += "."
            default:
                safe += String(format: "%%%02X", byte)
            }
        }
        return directory.appendingPathComponent(safe + ".token")
    }
}
