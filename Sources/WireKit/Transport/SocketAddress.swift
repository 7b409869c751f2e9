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

    /// `host` as an IPv4 or IPv6 literal ("127.0.0.1", "::1", "[::1]") with `port`, or `nil` when
    /// it is a name (or a literal `inet_pton` does not take, such as one with a zone index) and
    /// needs `resolve`. No system call, so a literal costs no resolver round trip and no thread.
    static func numeric(host: String, port: Int) -> SocketAddress? {
        guard (0...65535).contains(port), let first = host.utf8.first else { return nil }
        // A literal starts with a digit, or is IPv6 (a colon, or brackets); skip names at once.
        guard first == UInt8(ascii: "[") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || host.utf8.contains(UInt8(ascii: ":")) else {
            return nil
        }
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            #if canImport(Darwin)
            v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            return withUnsafePointer(to: &v4) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    SocketAddress(family: AF_INET, sockaddr: $0, length: socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            #if canImport(Darwin)
            v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            return withUnsafePointer(to: &v6) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    SocketAddress(family: AF_INET6, sockaddr: $0, length: socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        return nil
    }

    /// Resolves `host` with `getaddrinfo` (blocking: call it off the caller's queue).
    /// `passive` asks for addresses to bind to (a `nil`-like wildcard host is allowed).
    static func resolve(host: String, port: Int, passive: Bool) -> Result<[SocketAddress], TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG
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
