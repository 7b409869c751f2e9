import Foundation
import XCTest

/// Polls `condition` every 5 ms until it holds; throws `ConditionTimeout`, naming the caller's
/// line, if it is still false after `timeout`.
func eventually(
    timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line,
    _ condition: @Sendable () -> Bool
) async throws {
    let start = ContinuousClock.now
    while !condition() {
        if ContinuousClock.now - start > timeout { throw ConditionTimeout(timeout: timeout, file: "\(file)", line: line) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// A condition awaited by `eventually` that stayed false.
struct ConditionTimeout: Error, CustomStringConvertible {
    let timeout: Duration
    let file: String
    let line: UInt
    var description: String { "condition still false after \(timeout) (\((file as NSString).lastPathComponent):\(line))" }
}
