#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the socket system calls TCPTransport and TCPListener share.
enum POSIXSocket {
    /// A non-blocking, close-on-exec TCP socket of `family`, or the failing errno.
    static func makeStreamSocket(family: Int32) -> Result<Int32, TransportError> {
        #if os(watchOS)
        // Apple's TN3135: on watchOS BSD sockets never reach the network, whatever the app;
        // Network.framework does in the cases it lists, and `wss://` goes through it.
        return .failure(
            .unsupported(
                "BSD sockets do not reach the network on watchOS (Apple TN3135): plain ws:// and listening are "
                    + "unavailable there; wss:// goes through Network.framework, which watchOS allows in "
                    + "audio-streaming apps while they stream and in VoIP apps during a CallKit call"))
        #else
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, type, Int32(IPPROTO_TCP))
        #else
        let fd = socket(family, SOCK_STREAM, Int32(IPPROTO_TCP))
        #endif
        guard fd >= 0 else { return .failure(.system(operation: "socket", errno: errno)) }
        #if !canImport(Glibc)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        preventSIGPIPE(fd)
        return .success(fd)
        #endif
    }

    /// Makes an accepted socket ready: non-blocking, close-on-exec, no SIGPIPE, TCP_NODELAY.
    static func prepareAccepted(_ fd: Int32) {
        // Glibc's module does not export accept4, so the flags are set after accept.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        preventSIGPIPE(fd)
        setNoDelay(fd)
    }

    /// Disables Nagle: WebSocket frames are latency-sensitive and already written whole.
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    static func setReuseAddress(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes to a closed peer must return EPIPE, never raise SIGPIPE. On Linux every write
    /// goes through `sendmsg(..., MSG_NOSIGNAL)`; Darwin has a per-socket option instead.
    static func preventSIGPIPE(_ fd: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Whether a non-blocking connect in progress has ended, well or not (the socket polls
    /// writable or in error), without waiting.
    static func hasConnectEnded(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents != 0
    }

    /// The pending error of a socket (`SO_ERROR`), 0 if none.
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    static let sendFlags: Int32 = {
        #if canImport(Glibc)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }()
}
