import Foundation

/// The test process's resident set size, from `/proc/self/status` (Linux only). Shared by the
/// memory-bound tests of the client and broker test targets.
public enum ResidentMemory {
    /// Resident bytes now (`VmRSS`), or nil where `/proc` does not exist.
    public static func current() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            // "VmRSS:     123456 kB"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }

    /// `bytes` in MiB with one decimal.
    public static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
}
