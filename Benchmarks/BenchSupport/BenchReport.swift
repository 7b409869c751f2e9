#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The result line (one JSON object, the last line of stdout) and the figures that go in it.
/// Foundation-free on purpose: `wirebench --mode connections` reports its process's peak RSS,
/// and loading Foundation alone would add ~7 MB to it.
public struct BenchReport: Sendable {
    private var fields: [(String, String)] = [("ok", "true")]

    public init() {}

    public mutating func add(_ name: String, _ value: String) { fields.append((name, "\"\(value)\"")) }
    public mutating func add(_ name: String, _ value: Int) { fields.append((name, String(value))) }
    public mutating func add(_ name: String, _ value: Bool) { fields.append((name, value ? "true" : "false")) }
    public mutating func add(_ name: String, _ value: Double, decimals: Int = 1) {
        fields.append((name, Self.format(value, decimals: decimals)))
    }

    /// Prints the line.
    public func print() {
        let body = fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        Self.emit("{\(body)}\n", to: 1)
    }

    /// `value` with `decimals` digits after the point (plain JSON number).
    public static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let whole = String(scaled / scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        let fraction = String(scaled % scale)
        return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// The `q` quantile (0...1) of `sorted` by nearest rank: position ceil(q × N), 1-based.
    /// `sorted` must not be empty.
    public static func nearestRank(_ sorted: [UInt64], _ q: Double) -> UInt64 {
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Peak resident memory of this process (`VmHWM` in `/proc/self/status`), in KiB; 0 if unknown.
    public static func peakResidentKiB() -> Int { statusKiB("VmHWM:") }

    /// Resident memory of this process now (`VmRSS` in `/proc/self/status`), in KiB; 0 if unknown.
    public static func residentKiB() -> Int { statusKiB("VmRSS:") }

    /// The `field` line of `/proc/self/status`, in KiB; 0 if unknown.
    private static func statusKiB(_ field: String) -> Int {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16 << 10)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let status = String(decoding: bytes[0..<count], as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(String(line.dropFirst(field.count).filter(\.isNumber))) ?? 0
        }
        return 0
    }

    /// Writes `text` to file descriptor `fd` (1 stdout, 2 stderr).
    public static func emit(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// The running executable's name, for messages.
    public static var program: String {
        CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "bench"
    }

    /// Reports a failure on stderr and as `{"ok":false,...}`, then exits with status 1.
    public static func fail(_ message: String) -> Never {
        emit("\(program): \(message)\n", to: 2)
        var escaped = ""
        for character in message {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n", "\r", "\t": escaped += " "
            default: escaped.append(character)
            }
        }
        emit("{\"ok\":false,\"error\":\"\(escaped)\"}\n", to: 1)
        exit(1)
    }
}
