// Stand-in for Apple's Darwin module, for Scripts/apple-compile-check.sh only. Not faithful in
// general: it re-exports Linux's Glibc, so the C library's names, struct layouts and field types
// are Glibc's (Darwin's `sockaddr_in` has `sin_len`; Darwin's `tcflag_t` is `UInt`, Glibc's
// `UInt32`; a name only Glibc has, such as `MSG_NOSIGNAL`, is not refused). What it adds is where our
// `canImport(Darwin)` branches use a name or a type Darwin spells differently, each from Darwin's
// headers:
//   - `SOCK_STREAM`: `#define SOCK_STREAM 1` (sys/socket.h), imported as `Int32`; Glibc imports
//     its enum `__socket_type` instead (hence `SOCK_STREAM.rawValue` in the Glibc branches);
//   - `SO_NOSIGPIPE`: `#define SO_NOSIGPIPE 0x1022` (sys/socket.h), Darwin only;
//   - `struct msghdr` and `sendmsg` (sys/socket.h): Darwin's `msg_iovlen` is an `int` and
//     `msg_controllen` a `socklen_t` (Glibc: `size_t` both), so they are declared here as the
//     importer makes them, and shadow Glibc's.
//   - `sin_len` and `sin6_len`: `__uint8_t sin_len;` / `__uint8_t sin6_len;`, the first fields of
//     Darwin's `struct sockaddr_in` (netinet/in.h) and `struct sockaddr_in6` (netinet6/in6.h),
//     which Glibc's structs lack; added here as `UInt8` properties so the type check sees them
//     (stand-ins: they store nothing).
// Qualified names (`Darwin.close`, `Darwin.send`, `Darwin.read`, `Darwin.connect`) resolve
// through the re-export.
@_exported import Glibc

public var SOCK_STREAM: Int32 { 1 }
public var SO_NOSIGPIPE: Int32 { 0x1022 }

/// `struct msghdr` of Darwin's sys/socket.h, as the importer makes it (zeroing `init()` included).
public struct msghdr {
    public var msg_name: UnsafeMutableRawPointer?
    public var msg_namelen: socklen_t
    public var msg_iov: UnsafeMutablePointer<iovec>?
    public var msg_iovlen: Int32
    public var msg_control: UnsafeMutableRawPointer?
    public var msg_controllen: socklen_t
    public var msg_flags: Int32
    public init() {
        msg_name = nil
        msg_namelen = 0
        msg_iov = nil
        msg_iovlen = 0
        msg_control = nil
        msg_controllen = 0
        msg_flags = 0
    }
}

/// `ssize_t sendmsg(int, const struct msghdr *, int)` (no nullability annotations).
public func sendmsg(_ socket: Int32, _ message: UnsafePointer<msghdr>!, _ flags: Int32) -> Int { -1 }

extension sockaddr_in {
    /// `__uint8_t sin_len` of Darwin's `struct sockaddr_in` (netinet/in.h). Stand-in: stores nothing.
    public var sin_len: UInt8 {
        get { UInt8(MemoryLayout<sockaddr_in>.size) }
        set {}
    }
}

extension sockaddr_in6 {
    /// `__uint8_t sin6_len` of Darwin's `struct sockaddr_in6` (netinet6/in6.h). Stand-in: stores nothing.
    public var sin6_len: UInt8 {
        get { UInt8(MemoryLayout<sockaddr_in6>.size) }
        set {}
    }
}
