#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// An IPv4 or IPv6 socket address, copied out of `getaddrinfo`'s list so it can cross queues.
struct SocketAddress: Sendable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    let family: Int32
    /// The raw `sockaddr_in`/`sockaddr_in6` bytes.
    private let storage: [UInt8]

    init(family: Int32, sockaddr: UnsafePointer<sockaddr>, length: socklen_t) {
        self.family = family
        self.storage = Array(UnsafeRawBufferPointer(start: sockaddr, count: Int(length)))
    }

    /// Calls `body` with the address as the C API wants it.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        storage.withUnsafeBytes { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
    }

    /// The numeric host ("127.0.0.1", "::1").
    var host: String {
        var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let rc = withSockAddr { getnameinfo($0, $1, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) }
        guard rc == 0 else { return "?" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The port in host byte order.
    var port: Int {
        storage.withUnsafeBytes { raw -> Int in
            if family == AF_INET6 {
                return Int(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!, as: UInt16.self)))
            }
            return Int(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self)))
        }
    }

    var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The local address a socket is bound to, or `nil` if `getsockname` fails.
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                guard getsockname(fd, address, &length) == 0 else { return nil }
                return SocketAddress(family: Int32(address.pointee.sa_family), sockaddr: address, length: length)
            }
        }
    }

    /// Resolves `host` with `getaddrinfo` (blocking: call it off the caller's queue).
    /// `passive` asks for addresses to bind to (a `nil`-like wildcard host is allowed).
    /// With `numericOnly`, only an address literal resolves (AI_NUMERICHOST: no lookup, never
    /// blocks); a name fails at once.
    static func resolve(host: String, port: Int, passive: Bool, numericOnly: Bool = false) -> Result<[SocketAddress], TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG
        if numericOnly { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        // Brackets are URL syntax for IPv6 literals, not part of the address.
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var rc = getaddrinfo(name, String(port), &hints, &list)
        if rc == EAI_NONAME || rc == EAI_FAIL, hints.ai_flags & AI_ADDRCONFIG != 0 {
            // AI_ADDRCONFIG hides loopback addresses on hosts without a configured interface.
            hints.ai_flags = 0
            rc = getaddrinfo(name, String(port), &hints, &list)
        }
        guard rc == 0, let first = list else {
            let detail = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
            return .failure(.hostNotFound(host: host, detail: detail))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let info = node {
            let family = info.pointee.ai_family
            if family == AF_INET || family == AF_INET6, let address = info.pointee.ai_addr {
                addresses.append(SocketAddress(family: family, sockaddr: address, length: info.pointee.ai_addrlen))
            }
            node = info.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(.hostNotFound(host: host, detail: "no IPv4 or IPv6 address"))
        }
        return .success(addresses)
    }
}
