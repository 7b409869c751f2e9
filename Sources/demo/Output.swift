import Foundation

/// Writes straight to the file descriptors (no stdio buffering), so lines reach a pipe at once
/// and in order.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` (no newline added) to standard output.
    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
