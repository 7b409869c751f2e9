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

/// Why zlib could not be used.
public enum ZlibError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system's zlib could not be loaded; permessage-deflate is off.
    case unavailable(reason: String)
    /// zlib refused the parameters or the data (its return code and message).
    case failed(code: Int32, message: String)

    /// Why zlib could not be used or failed, in words.
    public var description: String {
        switch self {
        case .unavailable(let reason): "zlib is not available: \(reason)"
        case .failed(let code, let message): "zlib failed (\(code)): \(message)"
        }
    }
}

extension ZlibLibrary {
    /// Whether the system's zlib could be loaded (permessage-deflate is not offered or accepted otherwise).
    static var isAvailable: Bool {
        if case .success = shared { return true }
        return false
    }
}
