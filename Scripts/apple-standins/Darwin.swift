// Stand-in for Apple's Darwin module (the C library and its Swift overlay), for
// Scripts/apple-compile-check.sh only: declarations without behaviour, never linked, never run.
//
// It does not re-export Glibc. The check puts a stand-in `Glibc` on the module search path that
// re-exports this module instead, so Linux's Foundation (which re-exports Glibc) hands every file
// Darwin's names, as Apple's Foundation does, and none of Glibc's: a name only Glibc has
// (`MSG_NOSIGNAL`, `SOCK_NONBLOCK`, `accept4`, `epoll_*`, `RUSAGE_SELF.rawValue`) is not found, and a
// type Darwin spells differently (`sa_family_t` is `UInt8`, `nfds_t` `UInt32`, `tv_usec` `Int32`,
// `mode_t` `UInt16`) does not convert silently.
//
// What is here is what this package's sources use on Apple platforms, plus the neighbours a
// change would most likely reach for. Every declaration is Darwin's, as Swift imports it:
//   - C declarations from the macOS / iOS SDK headers named in each section (xnu's bsd/sys and
//     bsd/netinet, Libc, libpthread), imported by the Swift importer's rules: `int` is `Int32`,
//     `size_t` `Int`, integer macros `Int32` (or the type of their cast), unaudited pointers
//     `T!`, pointers in an `assume_nonnull` region (pthread.h) non-optional unless `_Nullable`;
//     imported C functions are `@discardableResult`;
//   - the Swift overlay's own declarations (`errno`, the `fcntl` and `open` overloads, `SIG_IGN`,
//     `stdout`, `POSIXErrorCode`) as Swift's Darwin overlay declares them;
//   - LP64 (arm64 and x86_64): `long` is `Int`.
// Values of constants are Darwin's, though nothing here runs: a value never reaches a build.
// Availability attributes are left out: every name here is older than this package's minimums.

// MARK: Basic types (sys/_types.h, sys/_types/*.h, i386|arm/_types.h)

public typealias socklen_t = UInt32
public typealias sa_family_t = UInt8
public typealias in_port_t = UInt16
public typealias in_addr_t = UInt32
public typealias pid_t = Int32
public typealias uid_t = UInt32
public typealias mode_t = UInt16
public typealias off_t = Int64
public typealias time_t = Int
public typealias suseconds_t = Int32
public typealias useconds_t = UInt32
public typealias nfds_t = UInt32
public typealias rlim_t = UInt64
public typealias tcflag_t = UInt
public typealias cc_t = UInt8
public typealias speed_t = UInt

// MARK: errno (sys/errno.h; `errno` is the overlay's computed variable)

public var errno: Int32 {
    get { 0 }
    set {}
}
public var EPERM: Int32 { 1 }
public var ENOENT: Int32 { 2 }
public var EINTR: Int32 { 4 }
public var EIO: Int32 { 5 }
public var EBADF: Int32 { 9 }
public var ENOMEM: Int32 { 12 }
public var EACCES: Int32 { 13 }
public var EEXIST: Int32 { 17 }
public var EINVAL: Int32 { 22 }
public var ENFILE: Int32 { 23 }
public var EMFILE: Int32 { 24 }
public var EPIPE: Int32 { 32 }
public var EAGAIN: Int32 { 35 }
public var EWOULDBLOCK: Int32 { 35 }
public var EINPROGRESS: Int32 { 36 }
public var EALREADY: Int32 { 37 }
public var ENOTSOCK: Int32 { 38 }
public var EAFNOSUPPORT: Int32 { 47 }
public var EADDRINUSE: Int32 { 48 }
public var EADDRNOTAVAIL: Int32 { 49 }
public var ENETDOWN: Int32 { 50 }
public var ENETUNREACH: Int32 { 51 }
public var ECONNABORTED: Int32 { 53 }
public var ECONNRESET: Int32 { 54 }
public var ENOBUFS: Int32 { 55 }
public var ENOTCONN: Int32 { 57 }
public var ETIMEDOUT: Int32 { 60 }
public var ECONNREFUSED: Int32 { 61 }
public var EHOSTUNREACH: Int32 { 65 }
public var EPROTO: Int32 { 100 }

/// The overlay's `enum POSIXErrorCode: Int32` (Darwin's values; the cases this package names
/// and their neighbours).
public enum POSIXErrorCode: Int32, Sendable {
    case EPERM = 1
    case ENOENT = 2
    case EINTR = 4
    case EIO = 5
    case EBADF = 9
    case ENOMEM = 12
    case EACCES = 13
    case EINVAL = 22
    case ENFILE = 23
    case EMFILE = 24
    case EPIPE = 32
    case EAGAIN = 35
    case EINPROGRESS = 36
    case EALREADY = 37
    case EAFNOSUPPORT = 47
    case EADDRINUSE = 48
    case EADDRNOTAVAIL = 49
    case ENETDOWN = 50
    case ENETUNREACH = 51
    case ECONNABORTED = 53
    case ECONNRESET = 54
    case ENOBUFS = 55
    case ENOTCONN = 57
    case ETIMEDOUT = 60
    case ECONNREFUSED = 61
    case EHOSTUNREACH = 65
    case EPROTO = 100
}

/// `char *strerror(int)` (string.h).
public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar>! { nil }

// MARK: Sockets (sys/socket.h: no nullability annotations)

public var AF_UNSPEC: Int32 { 0 }
public var AF_UNIX: Int32 { 1 }
public var AF_INET: Int32 { 2 }
public var AF_INET6: Int32 { 30 }
public var PF_INET: Int32 { 2 }
public var PF_INET6: Int32 { 30 }
/// `#define SOCK_STREAM 1`: a plain `Int32` (Glibc imports an enum, `__socket_type`).
public var SOCK_STREAM: Int32 { 1 }
public var SOCK_DGRAM: Int32 { 2 }
public var SOL_SOCKET: Int32 { 0xffff }
public var SO_REUSEADDR: Int32 { 0x0004 }
public var SO_KEEPALIVE: Int32 { 0x0008 }
public var SO_LINGER: Int32 { 0x0080 }
public var SO_REUSEPORT: Int32 { 0x0200 }
public var SO_SNDBUF: Int32 { 0x1001 }
public var SO_RCVBUF: Int32 { 0x1002 }
public var SO_SNDTIMEO: Int32 { 0x1005 }
public var SO_RCVTIMEO: Int32 { 0x1006 }
public var SO_ERROR: Int32 { 0x1007 }
/// Darwin only: a socket that returns `EPIPE` instead of raising `SIGPIPE`.
public var SO_NOSIGPIPE: Int32 { 0x1022 }
public var SO_NREAD: Int32 { 0x1020 }
public var MSG_PEEK: Int32 { 0x2 }
public var MSG_DONTWAIT: Int32 { 0x80 }
public var SHUT_RD: Int32 { 0 }
public var SHUT_WR: Int32 { 1 }
public var SHUT_RDWR: Int32 { 2 }
public var SOMAXCONN: Int32 { 128 }

/// `struct sockaddr`: Darwin's starts with a length byte.
public struct sockaddr {
    public var sa_len: UInt8
    public var sa_family: sa_family_t
    public var sa_data: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() {
        sa_len = 0
        sa_family = 0
        sa_data = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
    public init(
        sa_len: UInt8, sa_family: sa_family_t,
        sa_data: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    ) {
        self.sa_len = sa_len
        self.sa_family = sa_family
        self.sa_data = sa_data
    }
}

/// `struct sockaddr_storage` (128 bytes).
public struct sockaddr_storage {
    public var ss_len: UInt8
    public var ss_family: sa_family_t
    public var __ss_pad1: (CChar, CChar, CChar, CChar, CChar, CChar)
    public var __ss_align: Int64
    public var __ss_pad2: (
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar
    )
    public init() {
        ss_len = 0
        ss_family = 0
        __ss_pad1 = (0, 0, 0, 0, 0, 0)
        __ss_align = 0
        __ss_pad2 = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
}

/// `struct iovec` (sys/_types/_iovec_t.h).
public struct iovec {
    public var iov_base: UnsafeMutableRawPointer?
    public var iov_len: Int
    public init() {
        iov_base = nil
        iov_len = 0
    }
    public init(iov_base: UnsafeMutableRawPointer?, iov_len: Int) {
        self.iov_base = iov_base
        self.iov_len = iov_len
    }
}

/// `struct msghdr`: Darwin's `msg_iovlen` is an `int` and `msg_controllen` a `socklen_t`
/// (Glibc: `size_t` both).
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

/// `struct linger { int l_onoff; int l_linger; }`.
public struct linger {
    public var l_onoff: Int32
    public var l_linger: Int32
    public init() {
        l_onoff = 0
        l_linger = 0
    }
    public init(l_onoff: Int32, l_linger: Int32) {
        self.l_onoff = l_onoff
        self.l_linger = l_linger
    }
}

@discardableResult public func socket(_ domain: Int32, _ type: Int32, _ protocol: Int32) -> Int32 { -1 }
@discardableResult public func bind(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 { -1 }
@discardableResult public func connect(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 { -1 }
@discardableResult public func listen(_ socket: Int32, _ backlog: Int32) -> Int32 { -1 }
@discardableResult public func accept(
    _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: UnsafeMutablePointer<socklen_t>!
) -> Int32 { -1 }
@discardableResult public func getsockname(
    _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: UnsafeMutablePointer<socklen_t>!
) -> Int32 { -1 }
@discardableResult public func getpeername(
    _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: UnsafeMutablePointer<socklen_t>!
) -> Int32 { -1 }
@discardableResult public func getsockopt(
    _ socket: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeMutableRawPointer!,
    _ length: UnsafeMutablePointer<socklen_t>!
) -> Int32 { -1 }
@discardableResult public func setsockopt(
    _ socket: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer!, _ length: socklen_t
) -> Int32 { -1 }
@discardableResult public func send(_ socket: Int32, _ buffer: UnsafeRawPointer!, _ length: Int, _ flags: Int32) -> Int { -1 }
@discardableResult public func recv(_ socket: Int32, _ buffer: UnsafeMutableRawPointer!, _ length: Int, _ flags: Int32) -> Int { -1 }
@discardableResult public func sendmsg(_ socket: Int32, _ message: UnsafePointer<msghdr>!, _ flags: Int32) -> Int { -1 }
@discardableResult public func recvmsg(_ socket: Int32, _ message: UnsafeMutablePointer<msghdr>!, _ flags: Int32) -> Int { -1 }
@discardableResult public func shutdown(_ socket: Int32, _ how: Int32) -> Int32 { -1 }

// MARK: Internet addresses (netinet/in.h, netinet6/in6.h, netinet/tcp.h, arpa/inet.h)

/// `#define IPPROTO_TCP 6`: a plain `Int32` (Glibc imports an enum).
public var IPPROTO_TCP: Int32 { 6 }
public var IPPROTO_IPV6: Int32 { 41 }
public var IPV6_V6ONLY: Int32 { 27 }
public var TCP_NODELAY: Int32 { 0x01 }
public var TCP_KEEPALIVE: Int32 { 0x10 }
public var INADDR_ANY: UInt32 { 0 }
public var INET_ADDRSTRLEN: Int32 { 16 }
public var INET6_ADDRSTRLEN: Int32 { 46 }

/// `struct in_addr { in_addr_t s_addr; }`.
public struct in_addr {
    public var s_addr: in_addr_t
    public init() { s_addr = 0 }
    public init(s_addr: in_addr_t) { self.s_addr = s_addr }
}

/// `struct in6_addr` (a union of 16 bytes, 8 halves, 4 words).
public struct in6_addr {
    public struct __Unnamed_union___u6_addr {
        public var __u6_addr8: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
        public var __u6_addr16: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16)
        public var __u6_addr32: (UInt32, UInt32, UInt32, UInt32)
        public init() {
            __u6_addr8 = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            __u6_addr16 = (0, 0, 0, 0, 0, 0, 0, 0)
            __u6_addr32 = (0, 0, 0, 0)
        }
    }
    public var __u6_addr: __Unnamed_union___u6_addr
    public init() { __u6_addr = __Unnamed_union___u6_addr() }
}

/// `struct sockaddr_in`: Darwin's starts with `sin_len`.
public struct sockaddr_in {
    public var sin_len: UInt8
    public var sin_family: sa_family_t
    public var sin_port: in_port_t
    public var sin_addr: in_addr
    public var sin_zero: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() {
        sin_len = 0
        sin_family = 0
        sin_port = 0
        sin_addr = in_addr()
        sin_zero = (0, 0, 0, 0, 0, 0, 0, 0)
    }
    public init(
        sin_len: UInt8, sin_family: sa_family_t, sin_port: in_port_t, sin_addr: in_addr,
        sin_zero: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    ) {
        self.sin_len = sin_len
        self.sin_family = sin_family
        self.sin_port = sin_port
        self.sin_addr = sin_addr
        self.sin_zero = sin_zero
    }
}

/// `struct sockaddr_in6`: Darwin's starts with `sin6_len`.
public struct sockaddr_in6 {
    public var sin6_len: UInt8
    public var sin6_family: sa_family_t
    public var sin6_port: in_port_t
    public var sin6_flowinfo: UInt32
    public var sin6_addr: in6_addr
    public var sin6_scope_id: UInt32
    public init() {
        sin6_len = 0
        sin6_family = 0
        sin6_port = 0
        sin6_flowinfo = 0
        sin6_addr = in6_addr()
        sin6_scope_id = 0
    }
}

public func inet_addr(_ text: UnsafePointer<CChar>!) -> in_addr_t { 0 }
@discardableResult public func inet_pton(_ family: Int32, _ text: UnsafePointer<CChar>!, _ destination: UnsafeMutableRawPointer!) -> Int32 {
    0
}
@discardableResult public func inet_ntop(
    _ family: Int32, _ source: UnsafeRawPointer!, _ destination: UnsafeMutablePointer<CChar>!, _ size: socklen_t
) -> UnsafePointer<CChar>! { nil }

// MARK: Name resolution (netdb.h: no nullability annotations)

public var AI_PASSIVE: Int32 { 0x0000_0001 }
public var AI_CANONNAME: Int32 { 0x0000_0002 }
public var AI_NUMERICHOST: Int32 { 0x0000_0004 }
public var AI_NUMERICSERV: Int32 { 0x0000_1000 }
public var AI_ADDRCONFIG: Int32 { 0x0000_0400 }
public var AI_V4MAPPED: Int32 { 0x0000_0800 }
public var EAI_AGAIN: Int32 { 2 }
public var EAI_FAIL: Int32 { 4 }
public var EAI_FAMILY: Int32 { 5 }
public var EAI_MEMORY: Int32 { 6 }
public var EAI_NONAME: Int32 { 8 }
public var EAI_SERVICE: Int32 { 9 }
public var EAI_SOCKTYPE: Int32 { 10 }
public var EAI_SYSTEM: Int32 { 11 }
public var NI_MAXHOST: Int32 { 1025 }
public var NI_MAXSERV: Int32 { 32 }
public var NI_NUMERICHOST: Int32 { 0x0000_0002 }
public var NI_NUMERICSERV: Int32 { 0x0000_0008 }

/// `struct addrinfo`: Darwin orders `ai_canonname` before `ai_addr` (Glibc after).
public struct addrinfo {
    public var ai_flags: Int32
    public var ai_family: Int32
    public var ai_socktype: Int32
    public var ai_protocol: Int32
    public var ai_addrlen: socklen_t
    public var ai_canonname: UnsafeMutablePointer<CChar>!
    public var ai_addr: UnsafeMutablePointer<sockaddr>!
    public var ai_next: UnsafeMutablePointer<addrinfo>!
    public init() {
        ai_flags = 0
        ai_family = 0
        ai_socktype = 0
        ai_protocol = 0
        ai_addrlen = 0
        ai_canonname = nil
        ai_addr = nil
        ai_next = nil
    }
}

@discardableResult public func getaddrinfo(
    _ node: UnsafePointer<CChar>!, _ service: UnsafePointer<CChar>!, _ hints: UnsafePointer<addrinfo>!,
    _ result: UnsafeMutablePointer<UnsafeMutablePointer<addrinfo>?>!
) -> Int32 { -1 }
public func freeaddrinfo(_ list: UnsafeMutablePointer<addrinfo>!) {}
public func gai_strerror(_ code: Int32) -> UnsafePointer<CChar>! { nil }
@discardableResult public func getnameinfo(
    _ address: UnsafePointer<sockaddr>!, _ addressLength: socklen_t, _ host: UnsafeMutablePointer<CChar>!,
    _ hostLength: socklen_t, _ service: UnsafeMutablePointer<CChar>!, _ serviceLength: socklen_t, _ flags: Int32
) -> Int32 { -1 }

// MARK: Descriptors (unistd.h, fcntl.h, poll.h; `fcntl` and `open` are the overlay's overloads)

public var STDIN_FILENO: Int32 { 0 }
public var STDOUT_FILENO: Int32 { 1 }
public var STDERR_FILENO: Int32 { 2 }
public var O_RDONLY: Int32 { 0x0000 }
public var O_WRONLY: Int32 { 0x0001 }
public var O_RDWR: Int32 { 0x0002 }
public var O_NONBLOCK: Int32 { 0x0004 }
public var O_APPEND: Int32 { 0x0008 }
public var O_CREAT: Int32 { 0x0200 }
public var O_TRUNC: Int32 { 0x0400 }
public var O_EXCL: Int32 { 0x0800 }
public var O_CLOEXEC: Int32 { 0x0100_0000 }
public var F_GETFD: Int32 { 1 }
public var F_SETFD: Int32 { 2 }
public var F_GETFL: Int32 { 3 }
public var F_SETFL: Int32 { 4 }
public var F_DUPFD_CLOEXEC: Int32 { 67 }
public var FD_CLOEXEC: Int32 { 1 }
public var POLLIN: Int32 { 0x0001 }
public var POLLPRI: Int32 { 0x0002 }
public var POLLOUT: Int32 { 0x0004 }
public var POLLERR: Int32 { 0x0008 }
public var POLLHUP: Int32 { 0x0010 }
public var POLLNVAL: Int32 { 0x0020 }

@discardableResult public func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int) -> Int { -1 }
@discardableResult public func write(_ fd: Int32, _ buffer: UnsafeRawPointer!, _ count: Int) -> Int { -1 }
@discardableResult public func close(_ fd: Int32) -> Int32 { -1 }
@discardableResult public func dup(_ fd: Int32) -> Int32 { -1 }
@discardableResult public func dup2(_ fd: Int32, _ target: Int32) -> Int32 { -1 }
@discardableResult public func pipe(_ fds: UnsafeMutablePointer<Int32>!) -> Int32 { -1 }
@discardableResult public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { -1 }
@discardableResult public func isatty(_ fd: Int32) -> Int32 { 0 }
@discardableResult public func usleep(_ microseconds: useconds_t) -> Int32 { 0 }
@discardableResult public func sleep(_ seconds: UInt32) -> UInt32 { 0 }
public func getpid() -> pid_t { 0 }
/// `long sysconf(int)`.
@discardableResult public func sysconf(_ name: Int32) -> Int { -1 }
public var _SC_PAGESIZE: Int32 { 29 }
public var _SC_NPROCESSORS_CONF: Int32 { 57 }
public var _SC_NPROCESSORS_ONLN: Int32 { 58 }
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { -1 }
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { -1 }
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32, _ pointer: UnsafeMutableRawPointer) -> Int32 { -1 }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { -1 }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { -1 }

/// `struct pollfd { int fd; short events; short revents; }`.
public struct pollfd {
    public var fd: Int32
    public var events: Int16
    public var revents: Int16
    public init() {
        fd = 0
        events = 0
        revents = 0
    }
    public init(fd: Int32, events: Int16, revents: Int16) {
        self.fd = fd
        self.events = events
        self.revents = revents
    }
}

/// `int poll(struct pollfd *, nfds_t, int)`: `nfds_t` is `unsigned int` (Glibc: `unsigned long`).
@discardableResult public func poll(_ fds: UnsafeMutablePointer<pollfd>!, _ count: nfds_t, _ timeout: Int32) -> Int32 { -1 }

// MARK: Time (time.h, sys/_types/_timespec.h, _timeval.h)

/// `struct timespec { __darwin_time_t tv_sec; long tv_nsec; }`.
public struct timespec {
    public var tv_sec: time_t
    public var tv_nsec: Int
    public init() {
        tv_sec = 0
        tv_nsec = 0
    }
    public init(tv_sec: time_t, tv_nsec: Int) {
        self.tv_sec = tv_sec
        self.tv_nsec = tv_nsec
    }
}

/// `struct timeval`: `tv_usec` is a 32-bit `__darwin_suseconds_t` (Glibc: `long`).
public struct timeval {
    public var tv_sec: time_t
    public var tv_usec: suseconds_t
    public init() {
        tv_sec = 0
        tv_usec = 0
    }
    public init(tv_sec: time_t, tv_usec: suseconds_t) {
        self.tv_sec = tv_sec
        self.tv_usec = tv_usec
    }
}

/// `typedef enum { _CLOCK_REALTIME = 0, _CLOCK_MONOTONIC = 6, ... } clockid_t`, imported as a
/// struct; `CLOCK_MONOTONIC` and friends are macros naming its values.
public struct clockid_t: RawRepresentable, Equatable, Hashable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public var CLOCK_REALTIME: clockid_t { clockid_t(0) }
public var CLOCK_MONOTONIC_RAW: clockid_t { clockid_t(4) }
public var CLOCK_MONOTONIC: clockid_t { clockid_t(6) }
public var CLOCK_UPTIME_RAW: clockid_t { clockid_t(8) }
public var CLOCK_PROCESS_CPUTIME_ID: clockid_t { clockid_t(12) }
public var CLOCK_THREAD_CPUTIME_ID: clockid_t { clockid_t(16) }
/// `clock_t` is `__darwin_clock_t`, an `unsigned long`; `CLOCKS_PER_SEC` is `((clock_t)1000000)`.
public typealias clock_t = UInt
public var CLOCKS_PER_SEC: clock_t { 1_000_000 }
public func clock() -> clock_t { 0 }
@discardableResult public func clock_gettime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>!) -> Int32 { -1 }
@discardableResult public func nanosleep(_ request: UnsafePointer<timespec>!, _ remaining: UnsafeMutablePointer<timespec>!) -> Int32 {
    -1
}

// MARK: Resources (sys/resource.h)

/// `#define RLIMIT_NOFILE 8`: a plain `Int32` (Glibc imports an enum, `__rlimit_resource`).
public var RLIMIT_NOFILE: Int32 { 8 }
public var RLIM_INFINITY: rlim_t { 0x7FFF_FFFF_FFFF_FFFF }
/// `#define RUSAGE_SELF 0`: a plain `Int32` (Glibc imports an enum, `__rusage_who`).
public var RUSAGE_SELF: Int32 { 0 }

public struct rlimit {
    public var rlim_cur: rlim_t
    public var rlim_max: rlim_t
    public init() {
        rlim_cur = 0
        rlim_max = 0
    }
    public init(rlim_cur: rlim_t, rlim_max: rlim_t) {
        self.rlim_cur = rlim_cur
        self.rlim_max = rlim_max
    }
}
@discardableResult public func getrlimit(_ resource: Int32, _ limit: UnsafeMutablePointer<rlimit>!) -> Int32 { -1 }
@discardableResult public func setrlimit(_ resource: Int32, _ limit: UnsafePointer<rlimit>!) -> Int32 { -1 }

/// `struct rusage`: every counter after the two times is a `long`.
public struct rusage {
    public var ru_utime: timeval
    public var ru_stime: timeval
    public var ru_maxrss: Int
    public var ru_ixrss: Int
    public var ru_idrss: Int
    public var ru_isrss: Int
    public var ru_minflt: Int
    public var ru_majflt: Int
    public var ru_nswap: Int
    public var ru_inblock: Int
    public var ru_oublock: Int
    public var ru_msgsnd: Int
    public var ru_msgrcv: Int
    public var ru_nsignals: Int
    public var ru_nvcsw: Int
    public var ru_nivcsw: Int
    public init() {
        ru_utime = timeval()
        ru_stime = timeval()
        (ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap) = (0, 0, 0, 0, 0, 0, 0)
        (ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw) = (0, 0, 0, 0, 0, 0, 0)
    }
}
@discardableResult public func getrusage(_ who: Int32, _ usage: UnsafeMutablePointer<rusage>!) -> Int32 { -1 }

// MARK: Signals and processes (signal.h, sys/signal.h, stdlib.h; `SIG_IGN`, `SIG_DFL` from the overlay)

public typealias sig_t = @convention(c) (Int32) -> Void
public var SIGHUP: Int32 { 1 }
public var SIGINT: Int32 { 2 }
public var SIGQUIT: Int32 { 3 }
public var SIGKILL: Int32 { 9 }
public var SIGPIPE: Int32 { 13 }
public var SIGALRM: Int32 { 14 }
public var SIGTERM: Int32 { 15 }
public var SIGUSR1: Int32 { 30 }
public var SIGUSR2: Int32 { 31 }
public var SIG_DFL: sig_t? { nil }
public var SIG_IGN: sig_t { { _ in } }
@discardableResult public func signal(_ signal: Int32, _ handler: sig_t!) -> sig_t! { nil }
@discardableResult public func kill(_ pid: pid_t, _ signal: Int32) -> Int32 { -1 }
@discardableResult public func raise(_ signal: Int32) -> Int32 { -1 }
public func exit(_ status: Int32) -> Never { fatalError() }
public func _exit(_ status: Int32) -> Never { fatalError() }
public func abort() -> Never { fatalError() }
public func getenv(_ name: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { nil }
@discardableResult public func setenv(_ name: UnsafePointer<CChar>!, _ value: UnsafePointer<CChar>!, _ overwrite: Int32) -> Int32 { -1 }

// MARK: Memory and strings (stdlib.h, malloc/_malloc.h, string.h)

public func malloc(_ size: Int) -> UnsafeMutableRawPointer! { nil }
public func calloc(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer! { nil }
public func realloc(_ pointer: UnsafeMutableRawPointer!, _ size: Int) -> UnsafeMutableRawPointer! { nil }
public func free(_ pointer: UnsafeMutableRawPointer!) {}
@discardableResult public func memcpy(_ destination: UnsafeMutableRawPointer!, _ source: UnsafeRawPointer!, _ count: Int) -> UnsafeMutableRawPointer! {
    nil
}
@discardableResult public func memmove(_ destination: UnsafeMutableRawPointer!, _ source: UnsafeRawPointer!, _ count: Int) -> UnsafeMutableRawPointer! {
    nil
}
@discardableResult public func memset(_ destination: UnsafeMutableRawPointer!, _ value: Int32, _ count: Int) -> UnsafeMutableRawPointer! {
    nil
}
public func memcmp(_ a: UnsafeRawPointer!, _ b: UnsafeRawPointer!, _ count: Int) -> Int32 { 0 }
public func strlen(_ string: UnsafePointer<CChar>!) -> Int { 0 }
public func strcmp(_ a: UnsafePointer<CChar>!, _ b: UnsafePointer<CChar>!) -> Int32 { 0 }
public func strncmp(_ a: UnsafePointer<CChar>!, _ b: UnsafePointer<CChar>!, _ count: Int) -> Int32 { 0 }

// MARK: Math (math.h)

public func pow(_ x: Double, _ y: Double) -> Double { 0 }
public func exp(_ x: Double) -> Double { 0 }
public func log(_ x: Double) -> Double { 0 }
public func log2(_ x: Double) -> Double { 0 }
public func sqrt(_ x: Double) -> Double { 0 }
public func floor(_ x: Double) -> Double { 0 }
public func ceil(_ x: Double) -> Double { 0 }

// MARK: Standard I/O (stdio.h; `stdin`, `stdout`, `stderr` are the overlay's variables)

/// `struct __sFILE`, opaque here.
public struct __sFILE {}
public typealias FILE = __sFILE
public var stdin: UnsafeMutablePointer<FILE> {
    get { UnsafeMutablePointer(bitPattern: 8)! }
    set {}
}
public var stdout: UnsafeMutablePointer<FILE> {
    get { UnsafeMutablePointer(bitPattern: 8)! }
    set {}
}
public var stderr: UnsafeMutablePointer<FILE> {
    get { UnsafeMutablePointer(bitPattern: 8)! }
    set {}
}
@discardableResult public func fflush(_ stream: UnsafeMutablePointer<FILE>!) -> Int32 { 0 }
@discardableResult public func fputs(_ text: UnsafePointer<CChar>!, _ stream: UnsafeMutablePointer<FILE>!) -> Int32 { 0 }
@discardableResult public func fwrite(
    _ buffer: UnsafeRawPointer!, _ size: Int, _ count: Int, _ stream: UnsafeMutablePointer<FILE>!
) -> Int { 0 }
@discardableResult public func setvbuf(
    _ stream: UnsafeMutablePointer<FILE>!, _ buffer: UnsafeMutablePointer<CChar>!, _ mode: Int32, _ size: Int
) -> Int32 { 0 }
@discardableResult public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { -1 }
public var _IONBF: Int32 { 2 }
public var _IOLBF: Int32 { 1 }

// MARK: Terminal (termios.h, sys/termios.h: `tcflag_t` is `unsigned long`, 20 control characters)

public var TCSANOW: Int32 { 0 }
public var TCSADRAIN: Int32 { 1 }
public var TCSAFLUSH: Int32 { 2 }
public var ECHO: Int32 { 0x0000_0008 }
public var ICANON: Int32 { 0x0000_0100 }
public var ISIG: Int32 { 0x0000_0080 }
public var VMIN: Int32 { 16 }
public var VTIME: Int32 { 17 }

public struct termios {
    public var c_iflag: tcflag_t
    public var c_oflag: tcflag_t
    public var c_cflag: tcflag_t
    public var c_lflag: tcflag_t
    public var c_cc: (cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t, cc_t)
    public var c_ispeed: speed_t
    public var c_ospeed: speed_t
    public init() {
        (c_iflag, c_oflag, c_cflag, c_lflag) = (0, 0, 0, 0)
        c_cc = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        (c_ispeed, c_ospeed) = (0, 0)
    }
}
@discardableResult public func tcgetattr(_ fd: Int32, _ settings: UnsafeMutablePointer<termios>!) -> Int32 { -1 }
@discardableResult public func tcsetattr(_ fd: Int32, _ action: Int32, _ settings: UnsafePointer<termios>!) -> Int32 { -1 }

// MARK: Dynamic loading (dlfcn.h: no nullability annotations)

public var RTLD_LAZY: Int32 { 0x1 }
public var RTLD_NOW: Int32 { 0x2 }
public var RTLD_LOCAL: Int32 { 0x4 }
public var RTLD_GLOBAL: Int32 { 0x8 }
/// The overlay's `RTLD_DEFAULT` (`(void *)-2`).
public var RTLD_DEFAULT: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -2) }
public func dlopen(_ path: UnsafePointer<CChar>!, _ mode: Int32) -> UnsafeMutableRawPointer! { nil }
public func dlsym(_ handle: UnsafeMutableRawPointer!, _ symbol: UnsafePointer<CChar>!) -> UnsafeMutableRawPointer! { nil }
@discardableResult public func dlclose(_ handle: UnsafeMutableRawPointer!) -> Int32 { -1 }
public func dlerror() -> UnsafeMutablePointer<CChar>! { nil }

// MARK: Threads (pthread.h, pthread/pthread_impl.h, sys/_pthread/_pthread_types.h)
//
// pthread.h is audited for nullability (`assume_nonnull`): pointers are non-optional unless
// marked `_Nullable`, so the key destructor takes a non-optional `UnsafeMutableRawPointer` (Glibc:
// optional). The locking and thread-specific calls are `__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC`,
// which Swift reads as `@available(*, noasync)`.

public typealias pthread_key_t = UInt
/// `struct _opaque_pthread_t`, opaque here.
public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>

/// `struct _opaque_pthread_mutex_t { long __sig; char __opaque[56]; }`.
public struct _opaque_pthread_mutex_t {
    public var __sig: Int
    public var __opaque: (
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar
    )
    public init() {
        __sig = 0
        __opaque = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
}
public typealias pthread_mutex_t = _opaque_pthread_mutex_t
/// `struct _opaque_pthread_mutexattr_t { long __sig; char __opaque[8]; }`.
public struct _opaque_pthread_mutexattr_t {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() {
        __sig = 0
        __opaque = (0, 0, 0, 0, 0, 0, 0, 0)
    }
}
public typealias pthread_mutexattr_t = _opaque_pthread_mutexattr_t

@discardableResult public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>, _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 { -1 }
@discardableResult public func pthread_key_delete(_ key: pthread_key_t) -> Int32 { -1 }
@available(*, noasync, message: "Use Task Local Values instead")
public func pthread_getspecific(_ key: pthread_key_t) -> UnsafeMutableRawPointer? { nil }
@available(*, noasync, message: "Use Task Local Values instead")
@discardableResult public func pthread_setspecific(_ key: pthread_key_t, _ value: UnsafeRawPointer?) -> Int32 { -1 }
@discardableResult public func pthread_mutex_init(
    _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ attributes: UnsafePointer<pthread_mutexattr_t>?
) -> Int32 { -1 }
@discardableResult public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { -1 }
@available(*, noasync, message: "Use OSAllocatedUnfairLock's withLock or NSLock for async-safe scoped locking")
@discardableResult public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { -1 }
@available(*, noasync, message: "Use OSAllocatedUnfairLock's withLockIfAvailable or NSLock for async-safe scoped locking")
@discardableResult public func pthread_mutex_trylock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { -1 }
@available(*, noasync, message: "Use OSAllocatedUnfairLock's withLock or NSLock for async-safe scoped locking")
@discardableResult public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { -1 }
public func pthread_self() -> pthread_t { pthread_t(bitPattern: 8)! }
public func pthread_equal(_ a: pthread_t?, _ b: pthread_t?) -> Int32 { 0 }
@available(*, noasync, message: "Thread lifecycle is owned by Swift Concurrency runtime")
@discardableResult public func pthread_setname_np(_ name: UnsafePointer<CChar>) -> Int32 { -1 }
