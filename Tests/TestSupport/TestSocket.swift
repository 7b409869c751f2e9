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

    /// A socket call of a test peer that failed, with its `errno`.
    public struct Failure: Error, CustomStringConvertible {
        public let operation: String
        public let code: Int32
        public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
    }

    /// A blocking TCP connection to `127.0.0.1:port` whose reads give up after
    /// `receiveTimeout` seconds.
    public static func connectLoopback(port: Int, receiveTimeout: Int = 10) throws(Failure) -> Int32 {
        let fd = makeTCP()
        guard fd >= 0 else { throw Failure(operation: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "connect", code: code)
        }
        var seconds = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends `bytes` over a new loopback connection to `port` and returns what comes back:
    /// everything until the peer closes (or the receive timeout ends a read), or until `enough`
    /// says so of what has arrived.
    public static func exchange(
        port: Int, _ bytes: [UInt8], receiveTimeout: Int = 10, until enough: ([UInt8]) -> Bool = { _ in false }
    ) throws(Failure) -> [UInt8] {
        let fd = try connectLoopback(port: port, receiveTimeout: receiveTimeout)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
            if enough(received) { break }
        }
        return received
    }
}
