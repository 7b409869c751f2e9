import Foundation
import XCTest
@testable import WireKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A real `tinyproxy` (Debian package; Scripts/test.sh installs it) on a loopback port, with a
/// generated configuration, run as a child process in the foreground.
///
/// Without the executable the test is skipped, unless `WIREKIT_REQUIRE_PEERS=1`, in which case it
/// fails: CI must not silently skip the proxy tests.
final class Tinyproxy: @unchecked Sendable {
    let port: Int
    private let process = Process()
    private let directory: URL

    static func executable() throws -> String {
        let candidates = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy", "/usr/local/bin/tinyproxy", "/opt/homebrew/bin/tinyproxy"]
        if let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return path }
        if ProcessInfo.processInfo.environment["WIREKIT_REQUIRE_PEERS"] == "1" {
            XCTFail("WIREKIT_REQUIRE_PEERS=1 but tinyproxy is not installed (run Scripts/test.sh)")
            throw PythonPeer.PeerError("no tinyproxy")
        }
        throw XCTSkip("tinyproxy is not installed")
    }

    /// Starts a proxy; `credentials` turns on Basic authentication, `connectPorts` limits the
    /// ports CONNECT may reach (empty: any).
    init(credentials: (user: String, password: String)? = nil, connectPorts: [Int] = []) throws {
        let executable = try Self.executable()
        port = try Self.freeLoopbackPort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wirekit-tinyproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            MaxClients 32
            LogFile "\(directory.appendingPathComponent("tinyproxy.log").path)"
            LogLevel Warning
            DisableViaHeader Yes

            """
        if let credentials { config += "BasicAuth \(credentials.user) \(credentials.password)\n" }
        for connectPort in connectPorts { config += "ConnectPort \(connectPort)\n" }
        let configURL = directory.appendingPathComponent("tinyproxy.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-d", "-c", configURL.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening()
    }

    /// `http://[user:password@]127.0.0.1:port`.
    func url(user: String? = nil, password: String? = nil) -> String {
        "http://" + (user.map { "\($0):\(password ?? "")@" } ?? "") + "127.0.0.1:\(port)"
    }

    func stop() {
        // SIGKILL: tinyproxy 1.11 in the foreground (-d) can ignore SIGTERM while threads serve.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else { throw PythonPeer.PeerError("tinyproxy exited at start (status \(process.terminationStatus))") }
            if Self.canConnect(port: port) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw PythonPeer.PeerError("tinyproxy did not listen on port \(port) within 10 s")
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = TestSocket.makeTCP()
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// A loopback port nothing listens on right now (bound to port 0, then released).
    static func freeLoopbackPort() throws -> Int {
        let fd = TestSocket.makeTCP()
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, let local = SocketAddress.local(of: fd) else { throw TransportError.system(operation: "bind", errno: errno) }
        return local.port
    }
}
