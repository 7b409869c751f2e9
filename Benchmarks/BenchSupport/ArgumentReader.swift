/// Reads a benchmark's command line option by option: `--name value` pairs and flags, in any
/// order; the caller rejects what it does not know.
public struct ArgumentReader {
    private let arguments: [String]
    private var index = 0

    /// Why a command line was refused.
    public struct UsageError: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next option name, or `nil` at the end.
    public mutating func nextOption() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// The value following option `name`.
    public mutating func value(for name: String) throws(UsageError) -> String {
        guard index < arguments.count else { throw UsageError("\(name) needs a value") }
        defer { index += 1 }
        return arguments[index]
    }

    /// The integer value (at least `minimum`) following option `name`.
    public mutating func integer(for name: String, minimum: Int) throws(UsageError) -> Int {
        let text = try value(for: name)
        guard let number = Int(text), number >= minimum else {
            throw UsageError("\(name) needs an integer >= \(minimum), got '\(text)'")
        }
        return number
    }

    /// The value following option `name`, one of `T`'s raw values (`what` names them in the
    /// message, say "mode").
    public mutating func choice<T: RawRepresentable & CaseIterable>(for name: String, _ what: String) throws(UsageError) -> T
    where T.RawValue == String {
        let text = try value(for: name)
        guard let parsed = T(rawValue: text) else {
            throw UsageError("unknown \(what) '\(text)' (\(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return parsed
    }
}
