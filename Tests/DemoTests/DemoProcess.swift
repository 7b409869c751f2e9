import Foundation
import XCTest

/// The built `demo` executable run as a child process, with pipes on its standard streams.
/// `@unchecked Sendable`: `stdout`/`stderr` buffers are only touched while holding `lock`.
final class DemoProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutBytes = Data()
    private var stderrBytes = Data()
    private var streamsAtEOF = 0

    /// Starts `demo` (or another executable product of the package, `executable`) with `arguments`.
    init(_ arguments: [String], executable: String = "demo") throws {
        process.executableURL = try DemoProcess.executable(named: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            // Empty means EOF: stop watching, or the handler would be called again and again.
            if data.isEmpty { handle.readabilityHandler = nil }
            guard let self else { return }
            self.lock.withLock {
                self.stdoutBytes.append(data)
                if data.isEmpty { self.streamsAtEOF += 1 }
            }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            guard let self else { return }
            self.lock.withLock {
                self.stderrBytes.append(data)
                if data.isEmpty { self.streamsAtEOF += 1 }
            }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
    }

    /// Everything written to standard output so far.
    var stdout: String { lock.withLock { String(decoding: stdoutBytes, as: UTF8.self) } }
    /// Everything written to standard error so far.
    var stderr: String { lock.withLock { String(decoding: stderrBytes, as: UTF8.self) } }

    /// Writes `text` to the process's standard input.
    func type(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes standard input (EOF).
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The child's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGINT, as Ctrl-C would.
    func interrupt() {
        process.interrupt()
    }

    /// Waits until standard output contains `text`; fails the test and returns false after
    /// `timeout` seconds.
    @discardableResult
    func waitForOutput(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stdout.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTFail("no \"\(text)\" within \(timeout) s; stdout:\n\(stdout)\nstderr:\n\(stderr)", file: file, line: line)
        return false
    }

    /// Waits for the process to end and returns its exit status (nil after `timeout` seconds,
    /// when the process is killed).
    func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard !process.isRunning else {
            process.terminate()
            return nil
        }
        // Wait until both pipes reached EOF, so every byte written is in `stdout`/`stderr`.
        let drained = Date().addingTimeInterval(2)
        while lock.withLock({ streamsAtEOF < 2 }) && Date() < drained { Thread.sleep(forTimeInterval: 0.01) }
        return process.terminationStatus
    }

    /// Where the executable `name` is: next to the test bundle (the build products directory,
    /// `.build/<triple>/debug` on Linux). `swift build --build-tests` and `swift test` build
    /// `demo` because DemoTests depends on its target; the other executables `swift build` builds.
    static func executable(named name: String = "demo") throws -> URL {
        let bundle = Bundle(for: DemoProcess.self).bundleURL
        var candidates = [
            bundle.deletingLastPathComponent(), Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
        ]
        // Fallback: the default build directory of this checkout.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw MissingExecutable(name: name, searched: candidates.map(\.path))
    }
}

/// An executable of the package is not where the build puts it.
struct MissingExecutable: Error, CustomStringConvertible {
    var name: String
    var searched: [String]
    var description: String { "the \(name) executable was not found in \(searched); run `swift build`" }
}
