#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's zlib, opened at run time with `dlopen` (like OpenSSL, see `OpenSSLLibrary`): no
/// headers or link flags needed to build, and a machine without the library fails only when
/// permessage-deflate would be used, with `ZlibError.unavailable`. `z_stream`s are raw memory of
/// `streamSize` bytes (the LP64 layout) handled through `ZlibStream`.
struct ZlibLibrary: @unchecked Sendable {
    typealias Stream = UnsafeMutableRawPointer

    /// Shared-object names tried in order.
    #if canImport(Darwin)
    static let candidates = ["libz.1.dylib", "/usr/lib/libz.1.dylib", "libz.dylib"]
    #else
    static let candidates = ["libz.so.1", "libz.so"]
    #endif

    /// The library loaded once per process, or why it could not be.
    static let shared: Result<ZlibLibrary, ZlibError> = load()

    /// `sizeof(z_stream)` on LP64 platforms (14 pointer-sized fields).
    static let streamSize = 112
    /// Offsets of the `z_stream` fields WireKit touches (LP64).
    enum Field {
        static let nextIn = 0, availIn = 8, totalIn = 16, nextOut = 24, availOut = 32, totalOut = 40, message = 48
    }

    let version: UnsafePointer<CChar>
    let deflateInit2_: @convention(c) (Stream, Int32, Int32, Int32, Int32, Int32, UnsafePointer<CChar>, Int32) -> Int32
    let deflate: @convention(c) (Stream, Int32) -> Int32
    let deflateReset: @convention(c) (Stream) -> Int32
    let deflateEnd: @convention(c) (Stream) -> Int32
    let inflateInit2_: @convention(c) (Stream, Int32, UnsafePointer<CChar>, Int32) -> Int32
    let inflate: @convention(c) (Stream, Int32) -> Int32
    let inflateReset: @convention(c) (Stream) -> Int32
    let inflateEnd: @convention(c) (Stream) -> Int32

    static func loaded() throws(ZlibError) -> ZlibLibrary { try shared.get() }

    private static func load() -> Result<ZlibLibrary, ZlibError> {
        guard MemoryLayout<Int>.size == 8 else { return .failure(.unavailable(reason: "only 64-bit platforms are supported")) }
        var tried: [String] = []
        for name in candidates {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                tried.append(name)
                continue
            }
            do throws(ZlibError) {
                return .success(try ZlibLibrary(handle: handle, name: name))
            } catch {
                return .failure(error)
            }
        }
        return .failure(.unavailable(reason: "could not load zlib (tried \(tried.joined(separator: ", ")))"))
    }

    private init(handle: UnsafeMutableRawPointer, name: String) throws(ZlibError) {
        func symbol<F>(_ symbolName: String, as type: F.Type) throws(ZlibError) -> F {
            guard let address = dlsym(handle, symbolName) else {
                throw .unavailable(reason: "\(name) has no \(symbolName)")
            }
            return unsafeBitCast(address, to: type)
        }
        let zlibVersion = try symbol("zlibVersion", as: (@convention(c) () -> UnsafePointer<CChar>).self)
        version = zlibVersion()
        deflateInit2_ = try symbol("deflateInit2_", as: type(of: deflateInit2_))
        deflate = try symbol("deflate", as: type(of: deflate))
        deflateReset = try symbol("deflateReset", as: type(of: deflateReset))
        deflateEnd = try symbol("deflateEnd", as: type(of: deflateEnd))
        inflateInit2_ = try symbol("inflateInit2_", as: type(of: inflateInit2_))
        inflate = try symbol("inflate", as: type(of: inflate))
        inflateReset = try symbol("inflateReset", as: type(of: inflateReset))
        inflateEnd = try symbol("inflateEnd", as: type(of: inflateEnd))
    }
}

/// Why zlib could not be used, or what it refused.
///
/// New codes and fields may be added in minor releases; match codes with `default:`, or with
/// `catch ZlibError.Code.unavailable`.
public struct ZlibError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of zlib failure this is. New codes may be added in minor releases; match with
    /// `default:`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `"unavailable"`.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The system's zlib could not be loaded; permessage-deflate is off.
        public static let unavailable = Code(rawValue: "unavailable")
        /// zlib refused the parameters or the data (its return code in ``ZlibError/zlibCode``).
        public static let failed = Code(rawValue: "failed")
    }

    /// What kind of failure this is.
    public var code: Code
    /// Why, in words: the loader's reason, or zlib's message or the call that failed.
    public var message: String
    /// For ``Code/failed``: zlib's return code (`Z_DATA_ERROR` is -3, ...).
    public var zlibCode: Int32?

    /// A zlib error of `code`.
    public init(code: Code, message: String, zlibCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.zlibCode = zlibCode
    }

    /// Why zlib could not be used or failed, in words.
    public var description: String {
        switch code {
        case .unavailable: "zlib is not available: \(message)"
        case .failed: "zlib failed (\(zlibCode ?? 0)): \(message)"
        default: message
        }
    }

    /// Whether `value` has code `pattern`, for `switch` and typed `catch`.
    public static func ~= (pattern: Code, value: ZlibError) -> Bool {
        value.code == pattern
    }
}

extension ZlibError {
    /// zlib could not be loaded.
    package static func unavailable(reason: String) -> Self { Self(code: .unavailable, message: reason) }
    /// zlib answered `code`.
    package static func failed(code: Int32, message: String) -> Self { Self(code: .failed, message: message, zlibCode: code) }
}

extension ZlibLibrary {
    /// Whether the system's zlib could be loaded (permessage-deflate is not offered or accepted otherwise).
    static var isAvailable: Bool {
        if case .success = shared { return true }
        return false
    }
}

extension ZlibError.Code {
    /// Whether `value` is a ``ZlibError`` with code `pattern`: `catch ZlibError.Code.failed`.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? ZlibError)?.code == pattern
    }
}
