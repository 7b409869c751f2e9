import Foundation

/// The result line (one JSON object, the last line of stdout) and the figures that go in it.
struct BenchReport {
    private var fields: [(String, String)] = [("ok", "true")]

    mutating func add(_ name: String, _ value: String) { fields.append((name, "\"\(value)\"")) }
    mutating func add(_ name: String, _ value: Int) { fields.append((name, String(value))) }
    mutating func add(_ name: String, _ value: Bool) { fields.append((name, value ? "true" : "false")) }
    mutating func add(_ name: String, _ value: Double, decimals: Int = 1) {
        fields.append((name, String(format: "%.\(decimals)f", value)))
    }

    /// Prints the line.
    func print() {
        let body = fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        Swift.print("{\(body)}")
        fflush(nil)
    }

    /// The `q` quantile (0...1) of `sorted` (ascending) by nearest rank: position ceil(q × N),
    /// 1-based. `sorted` must not be empty.
    static func nearestRank(_ sorted: [UInt64], _ q: Double) -> UInt64 {
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Peak resident memory of this process (`VmHWM` in `/proc/self/status`), in KiB; 0 if unknown.
    static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).filter(\.isNumber)) ?? 0
        }
        return 0
    }

    /// Reports a failure on stderr and as `{"ok":false,...}`, then exits with status 1.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("pubsubbench: \(message)\n".utf8))
        let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: " ")
        Swift.print("{\"ok\":false,\"error\":\"\(escaped)\"}")
        fflush(nil)
        exit(1)
    }
}
