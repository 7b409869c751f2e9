#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plain blocking sockets of the tests' hand-made peers, written once for Glibc and Darwin:
/// Glibc imports `SOCK_STREAM` as an enum and has `MSG_NOSIGNAL`; Darwin has a plain `Int32`
/// and the per-socket `SO_NOSIGPIPE` instead.
public enum TestSocket {
    /// A new IPv4 TCP socket (blocking), or -1 with `errno` set.
    public static func makeTCP() -> Int32 {
        #if canImport(Glibc)
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        return socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// `close(2)` (qualified here so that a type with a `close()` method of its own can call it).
    @discardableResult
    public static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.close(fd)
        #else
        return Darwin.close(fd)
        #endif
    }

    /// `shutdown(2)` of both directions.
    @discardableResult
    public static func shutdownBoth(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.shutdown(fd, Int32(SHUT_RDWR))
        #else
        return Darwin.shutdown(fd, SHUT_RDWR)
        #endif
    }

    /// `connect(2)` (qualified here for the same reason as `close`).
    public static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        return Glibc.connect(fd, address, length)
        #else
        return Darwin.connect(fd, address, length)
        #endif
    }

    /// `send(2)` that returns -1 with `EPIPE` instead of raising `SIGPIPE` when the peer has
    /// gone (which would end the test process).
    public static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        #else
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return Darwin.send(fd, buffer, count, 0)
        #endif
    }
}
