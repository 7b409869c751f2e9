#if canImport(Security)
import Foundation
import Security

/// A token store in the Keychain (generic passwords: service `service`, account = token name),
/// readable only after the first unlock and never synced.
public struct KeychainTokenStore: TokenStore {
    /// The Keychain service the tokens are filed under.
    public let service: String

    /// A store filing tokens under `service`.
    public init(service: String = "PubSubClient.authToken") { self.service = service }

    private func query(_ name: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: name,
        ]
    }

    public func loadToken(name: String) throws -> String? {
        var request = query(name)
        request[kSecReturnData as String] = true
        request[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(request as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else {
            throw PubSubError.tokenStore("Keychain read failed with status \(status)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    public func saveToken(name: String, token: String) throws {
        let data = Data(token.utf8)
        let update: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query(name) as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var add = query(name)
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw PubSubError.tokenStore("Keychain write failed with status \(status)") }
    }

    public func removeToken(name: String) throws {
        let status = SecItemDelete(query(name) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw PubSubError.tokenStore("Keychain delete failed with status \(status)")
        }
    }
}
#endif
