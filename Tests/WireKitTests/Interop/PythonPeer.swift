import Foundation
import XCTest

/// A Python `websockets` peer script from `Interop/peers`, run as a child process.
///
/// The interpreter comes from `WIREKIT_TEST_PYTHON` (Scripts/test.sh points it at a venv with
/// websockets 17.4). Without it the test is skipped, unless `WIREKIT_REQUIRE_PEERS=1`, in
/// which case it fails: CI must not silently skip interop.
final class PythonPeer: @unchecked Sendable {
    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let lock = NSLock()
    private var buffer = ""  // guarded by `lock`
    private var lines: [String] = []  // guarded by `lock`

    /// Finds the interpreter or throws `XCTSkip` (or a failure when peers are required).
    static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["WIREKIT_TEST_PYTHON"], !path.isEmpty {
            return path
        }
        if environment["WIREKIT_REQUIRE_PEERS"] == "1" {
            XCTFail("WIREKIT_REQUIRE_PEERS=1 but WIREKIT_TEST_PYTHON is not set (run Scripts/test.sh)")
            throw PeerError("no Python peer interpreter")
        }
        throw XCTSkip("WIREKIT_TEST_PYTHON is not set: the Python websockets peer is not available")
    }

    /// The peers folder, found from this source file.
    static let peersDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("peers")

    init(script: String, arguments: [String] = []) throws {
        let python = try Self.python()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", Self.peersDirectory.appendingPathComponent(script).path] + arguments
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            lock.withLock {
                buffer += String(decoding: data, as: UTF8.self)
                while let newline = buffer.firstIndex(of: "\n") {
                    lines.append(String(buffer[..<newline]))
                    buffer = String(buffer[buffer.index(after: newline)...])
                }
            }
        }
        try process.run()
    }

    /// Every line printed so far.
    var output: [String] { lock.withLock { lines } }

    /// Waits (polling, up to `timeout` seconds) for a line starting with `prefix`.
    func line(startingWith prefix: String, timeout: TimeInterval = 20) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = output.first(where: { $0.hasPrefix(prefix) }) { return line }
            if !process.isRunning, let line = output.first(where: { $0.hasPrefix(prefix) }) { return line }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PeerError("no line starting with \"\(prefix)\" within \(timeout) s; output so far: \(output)")
    }

    /// All lines starting with `prefix`, waiting until there are `count` of them.
    func lines(startingWith prefix: String, count: Int, timeout: TimeInterval = 20) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let matching = output.filter { $0.hasPrefix(prefix) }
            if matching.count >= count { return matching }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PeerError("fewer than \(count) lines starting with \"\(prefix)\" within \(timeout) s; output: \(output)")
    }

    /// Waits for the process to exit (up to `timeout` s) and returns its status.
    func exitStatus(timeout: TimeInterval = 30) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { throw PeerError("the peer did not exit within \(timeout) s; output: \(output)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// Ends the peer: closes its stdin (servers stop on EOF), then terminates it if needed.
    func stop() {
        try? stdinPipe.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
    }

    struct PeerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
