// Stand-in for Apple's Security framework (and the CoreFoundation names it re-exports), for
// Scripts/apple-compile-check.sh only: declarations without behaviour, so the Apple-only branches
// of this package type-check on Linux. Never linked, never run.
//
// Where a declaration comes from, per line:
//   [doc]    the Swift declaration on Apple's documentation page, copied as it reads;
//   [C]      the C declaration (SecItem.h, SecTrust.h, SecKey.h, CFError.h as mirrored by the
//            security-framework-sys / objc2-security crates) imported by the Swift importer's
//            rules: `…Ref` becomes the class, non-audited pointers become `T!`, `OSStatus` stays;
//   [use]    no declaration found; the shape follows what many public Apple-platform sources
//            compile with (said where it is so).
// Imported C functions are `@discardableResult` (the importer marks them so), hence the attribute.
// Availability is written out although Linux ignores it; every name used here is available at
// this package's minimums (macOS 13, iOS 16, tvOS 16, watchOS 9): the newest, SecTrustCopyCertificateChain,
// came in macOS 12 / iOS 15.
import Dispatch
import Foundation

// MARK: CoreFoundation names (the real Security module re-exports CoreFoundation)

// CF types are toll-free bridged on Apple platforms: `String as CFString`, `[String: Any] as
// CFDictionary`, `CFString as String` all compile there. Modelled by the bridged Foundation class,
// whose `as` coercions Linux's Foundation accepts too. Not faithful in one direction: this also
// accepts an NSString where Apple wants a CFString (Apple needs an explicit `as` there).
public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFData = NSData
public typealias CFArray = NSArray
public typealias CFDictionary = NSDictionary
public typealias CFError = NSError
public typealias CFIndex = Int
/// [C] `CFAllocatorRef`; only ever passed as `nil` here.
public final class CFAllocator {}
/// [C] `CFStringRef CFErrorCopyDescription(CFErrorRef err)` (CFError.h has no nullability annotations).
@discardableResult public func CFErrorCopyDescription(_ err: CFError!) -> CFString! { fatalError() }
/// [C] `CFIndex CFErrorGetCode(CFErrorRef err)`.
@discardableResult public func CFErrorGetCode(_ err: CFError!) -> CFIndex { fatalError() }

// MARK: Base types

/// [doc] `NWError.tls(OSStatus)` is `Int32` in its symbol (`s5Int32V`).
public typealias OSStatus = Int32
/// [C] `SecTrustRef`, `SecCertificateRef`, `SecKeyRef`, `SecPolicyRef`: CF types, not `Sendable`.
public final class SecTrust {}
public final class SecCertificate {}
public final class SecKey {}
public final class SecPolicy {}

// MARK: SecProtocolOptions / SecProtocolTypes (the TLS handshake options Network.framework uses)

/// [doc] `protocol OS_sec_protocol_options : NSObjectProtocol`.
public protocol OS_sec_protocol_options: NSObjectProtocol {}
/// [doc] `typealias sec_protocol_options_t = any OS_sec_protocol_options`.
public typealias sec_protocol_options_t = any OS_sec_protocol_options
/// [C] the same OS-object shape as `sec_protocol_options_t`.
public protocol OS_sec_protocol_metadata: NSObjectProtocol {}
public typealias sec_protocol_metadata_t = any OS_sec_protocol_metadata
public protocol OS_sec_trust: NSObjectProtocol {}
public typealias sec_trust_t = any OS_sec_trust

/// [doc] `typealias sec_protocol_verify_complete_t = (Bool) -> Void`.
public typealias sec_protocol_verify_complete_t = (Bool) -> Void
/// [doc] `typealias sec_protocol_verify_t = (sec_protocol_metadata_t, sec_trust_t, @escaping sec_protocol_verify_complete_t) -> Void`.
public typealias sec_protocol_verify_t = (sec_protocol_metadata_t, sec_trust_t, @escaping sec_protocol_verify_complete_t) -> Void

/// [doc] `enum tls_protocol_version_t` (RawRepresentable; cases TLSv10…DTLSv12; raw values 769…).
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
public enum tls_protocol_version_t: UInt16 {
    case TLSv10 = 769, TLSv11 = 770, TLSv12 = 771, TLSv13 = 772, DTLSv12 = 65277, DTLSv10 = 65279
}

/// [C] `void sec_protocol_options_set_min_tls_protocol_version(sec_protocol_options_t, tls_protocol_version_t)`.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
public func sec_protocol_options_set_min_tls_protocol_version(
    _ options: sec_protocol_options_t, _ version: tls_protocol_version_t
) {}
/// [doc] `func sec_protocol_options_set_tls_server_name(_ options: sec_protocol_options_t, _ server_name: UnsafePointer<CChar>)`.
public func sec_protocol_options_set_tls_server_name(_ options: sec_protocol_options_t, _ server_name: UnsafePointer<CChar>) {}
/// [doc] `func sec_protocol_options_set_verify_block(_ options: sec_protocol_options_t, _ verify_block: @escaping sec_protocol_verify_t, _ verify_block_queue: dispatch_queue_t)`
/// (`dispatch_queue_t` is `DispatchQueue` in Swift).
public func sec_protocol_options_set_verify_block(
    _ options: sec_protocol_options_t, _ verify_block: @escaping sec_protocol_verify_t, _ verify_block_queue: DispatchQueue
) {}
/// [use] `SecTrustRef sec_trust_copy_ref(sec_trust_t)`: not CF-audited, so Swift sees
/// `Unmanaged<SecTrust>`; public sources call `.takeRetainedValue()` on it.
public func sec_trust_copy_ref(_ trust: sec_trust_t) -> Unmanaged<SecTrust> { fatalError() }

// MARK: SecTrust, SecPolicy, SecCertificate, SecKey

/// [doc] `func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy`.
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy { fatalError() }
/// [C] `OSStatus SecTrustSetPolicies(SecTrustRef trust, CFTypeRef policies)`.
@discardableResult public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus { 0 }
/// [C] `OSStatus SecTrustSetAnchorCertificates(SecTrustRef trust, CFArrayRef anchorCertificates)`.
@discardableResult public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> OSStatus { 0 }
/// [C] `OSStatus SecTrustSetAnchorCertificatesOnly(SecTrustRef trust, Boolean anchorCertificatesOnly)`.
@discardableResult public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus { 0 }
/// [doc] `func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool`.
@available(macOS 10.14, iOS 12, tvOS 12, watchOS 5, *)
@discardableResult public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }
/// [doc] `func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray?` (macOS 12, iOS 15).
@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }
/// [doc] `func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate?`.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? { nil }
/// [C] `SecKeyRef SecCertificateCopyKey(SecCertificateRef certificate)` (nullable, macOS 10.14, iOS 12).
@available(macOS 10.14, iOS 12, tvOS 12, watchOS 5, *)
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? { nil }
/// [C] `CFDictionaryRef SecKeyCopyAttributes(SecKeyRef key)` (nullable).
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? { nil }
/// [C] `CFDataRef SecKeyCopyExternalRepresentation(SecKeyRef key, CFErrorRef *error)` (nullable;
/// the error out-parameter is `UnsafeMutablePointer<Unmanaged<CFError>?>?`).
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? { nil }
/// [C] `const CFStringRef kSecAttrKeyType` and friends: `let … : CFString`.
public let kSecAttrKeyType: CFString = "type"
public let kSecAttrKeySizeInBits: CFString = "bsiz"
public let kSecAttrKeyTypeRSA: CFString = "42"
public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"

// MARK: Error codes (SecBase.h: an anonymous enum of OSStatus values, imported as `var … : OSStatus { get }`)

public var errSecSuccess: OSStatus { 0 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecCertificateExpired: OSStatus { -67818 }
public var errSecCertificateNotValidYet: OSStatus { -67819 }
public var errSecHostNameMismatch: OSStatus { -67602 }

// MARK: SecItem (the Keychain)

/// [C] `OSStatus SecItemCopyMatching(CFDictionaryRef query, CFTypeRef *result)`.
@discardableResult public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
/// [C] `OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef *result)`.
@discardableResult public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
/// [C] `OSStatus SecItemUpdate(CFDictionaryRef query, CFDictionaryRef attributesToUpdate)`.
@discardableResult public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { 0 }
/// [C] `OSStatus SecItemDelete(CFDictionaryRef query)`.
@discardableResult public func SecItemDelete(_ query: CFDictionary) -> OSStatus { 0 }
/// [C] `const CFStringRef kSec…`: `let … : CFString`.
public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccount: CFString = "acct"
public let kSecReturnData: CFString = "r_Data"
public let kSecMatchLimit: CFString = "m_Limit"
public let kSecMatchLimitOne: CFString = "m_LimitOne"
public let kSecValueData: CFString = "v_Data"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
