import Dispatch
import Foundation
import XCTest
@testable import WireKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A blocking listening socket on a free 127.0.0.1 port (the tests' hand-made peers accept on it).
func loopbackListener(backlog: Int32 = 4) throws -> (fd: Int32, port: Int) {
    let fd = TestSocket.makeTCP()
    guard fd >= 0 else { throw TransportError.system(operation: "socket", errno: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, backlog) == 0, let local = SocketAddress.local(of: fd) else {
        let error = TransportError.system(operation: "bind", errno: errno)
        TestSocket.close(fd)
        throw error
    }
    return (fd, local.port)
}

/// A blocking loopback client socket with a receive timeout (seconds).
func connectBlocking(port: Int, timeout: Int = 5) throws -> Int32 {
    try TestSocket.connectLoopback(port: port, receiveTimeout: timeout)
}

/// Sends `request` (and `extra` bytes) over a plain TCP connection and returns what comes back:
/// everything until the peer closes, or (untilClosed false) the HTTP head only.
func rawExchange(port: Int, request: String, extra: [UInt8] = [], untilClosed: Bool = true) throws -> String {
    String(decoding: try rawExchangeBytes(port: port, request: request, extra: extra, untilClosed: untilClosed), as: UTF8.self)
}

/// `rawExchange`, returning the raw bytes.
func rawExchangeBytes(port: Int, request: String, extra: [UInt8] = [], untilClosed: Bool = true) throws -> [UInt8] {
    try TestSocket.exchange(port: port, Array(request.utf8) + extra, receiveTimeout: 5) { received in
        !untilClosed && String(decoding: received, as: UTF8.self).contains("\r\n\r\n")
    }
}

/// A WebSocket server peer that answers the upgrade and then stops reading until told to,
/// so the client's send buffer fills up.
final class StalledWebSocketPeer: @unchecked Sendable {
    let port: Int
    private let listenFD: Int32
    private let drain = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        // A blocking listener on a free port, served by one thread.
        (listenFD, port) = try loopbackListener()
        let fd = listenFD, drain = self.drain, done = self.done
        Thread.detachNewThread {
            defer { done.signal() }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            defer { TestSocket.close(client) }
            var head: [UInt8] = []
            var byte = [UInt8](repeating: 0, count: 1)
            while !String(decoding: head, as: UTF8.self).hasSuffix("\r\n\r\n") {
                guard recv(client, &byte, 1, 0) == 1 else { return }
                head.append(byte[0])
            }
            let text = String(decoding: head, as: UTF8.self)
            let key =
                text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { String($0.dropFirst("sec-websocket-key:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
            let response =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(ClientHandshake.acceptValue(forKey: key))\r\n\r\n"
            _ = Array(response.utf8).withUnsafeBytes { TestSocket.send(client, $0.baseAddress, $0.count) }
            drain.wait()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
        }
    }

    func startDraining() { drain.signal() }

    func stop() {
        TestSocket.shutdownBoth(listenFD)
        TestSocket.close(listenFD)
    }
}

/// Raises the soft limit on open files (a connection whose two ends live in this process needs
/// four descriptors: each TCPTransport keeps a duplicate for its write sources).
func raiseOpenFileLimit(to wanted: rlim_t) throws {
    #if canImport(Glibc)
    let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { throw XCTSkip("getrlimit failed") }
    if limit.rlim_cur >= wanted { return }
    limit.rlim_cur = min(wanted, limit.rlim_max)
    guard setrlimit(resource, &limit) == 0, limit.rlim_cur >= wanted else {
        throw XCTSkip("cannot raise RLIMIT_NOFILE to \(wanted) (hard limit \(limit.rlim_max))")
    }
}

/// Threads of this process (Linux: entries of /proc/self/task).
func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
}
