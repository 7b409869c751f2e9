import Foundation
import XCTest

/// A Python script from `peers/` run with `WIREKIT_TEST_PYTHON` (a venv with `websockets`).
/// Without that variable the test is skipped, unless `WIREKIT_REQUIRE_PEERS=1`, where it fails.
final class TLSPythonPeer: @unchecked Sendable {
    // `process` and the pipes are set once in `init`; `lines` is guarded by `lock`.
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var errorText = Data()
    private let lock = NSLock()
    private var lines: [String] = []
    private var partial = Data()
    private let lineArrived = DispatchSemaphore(value: 0)

    static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let python = environment["WIREKIT_TEST_PYTHON"], FileManager.default.isExecutableFile(atPath: python) {
            return python
        }
        let message = "WIREKIT_TEST_PYTHON is not set to a Python with websockets==17.4 (see Scripts/test.sh)"
        if environment["WIREKIT_REQUIRE_PEERS"] == "1" {
            XCTFail(message)
            throw XCTSkip("peer required but missing: \(message)")
        }
        throw XCTSkip(message)
    }

    static let scriptDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("peers")

    /// Starts `script` (a file next to this one) with `arguments`.
    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try Self.python())
        process.arguments = [Self.scriptDirectory.appendingPathComponent(script).path] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.errorText.append(data) }
        }
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.append(handle.availableData)
        }
        try process.run()
    }

    private func append(_ data: Data) {
        var complete: [String] = []
        lock.withLock {
            partial.append(data)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                complete.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial = Data(partial[partial.index(after: newline)...])
            }
            lines.append(contentsOf: complete)
        }
        complete.forEach { _ in lineArrived.signal() }
    }

    /// The next line the script printed, as JSON, within `timeout` seconds.
    func nextJSON(timeout: Double = 20) throws -> [String: Any] {
        guard lineArrived.wait(timeout: .now() + timeout) == .success else {
            throw TLSTestError("the Python peer printed nothing within \(timeout) s")
        }
        let line = lock.withLock { lines.removeFirst() }
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TLSTestError("the Python peer printed \(line)")
        }
        return object
    }

    /// Waits for the script to exit by itself; its exit status.
    func waitForExit(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// What the script wrote to stderr so far (Python logs, tracebacks), for failure messages.
    var standardErrorText: String { lock.withLock { String(decoding: errorText, as: UTF8.self) } }

    /// Closes the script's stdin (servers exit on it) and ends it.
    func stop() {
        try? input.fileHandleForWriting.close()
        if waitForExit(timeout: 5) == nil { process.terminate() }
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
    }
}

struct TLSTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
