/// An ordered list of HTTP header fields with case-insensitive name lookup (RFC 9110 §5.1).
/// Order and duplicates are kept as received.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field as it appears on the wire.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }
    public init(_ pairs: [(String, String)]) { fields = pairs.map { Field(name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces every field named `name` (case-insensitive) with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(name: String) { fields.removeAll { $0.name.wireKitEqualsIgnoringASCIICase(name) } }

    /// The values of every field named `name` (case-insensitive), in order.
    public subscript(name: String) -> [String] {
        fields.compactMap { $0.name.wireKitEqualsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// The value of the first field named `name` (case-insensitive).
    public func first(name: String) -> String? {
        fields.first { $0.name.wireKitEqualsIgnoringASCIICase(name) }?.value
    }

    /// Whether a field named `name` exists (case-insensitive).
    public func contains(name: String) -> Bool { first(name: name) != nil }

    /// The comma-separated elements of every field named `name`, trimmed, empty ones dropped
    /// (the `#rule` list syntax of RFC 9110 §5.6.1).
    public func listElements(name: String) -> [String] {
        self[name].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingWireKitWhitespace() }
            .filter { !$0.isEmpty }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, the comparison HTTP uses for names and tokens.
    func wireKitEqualsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }

    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingWireKitWhitespace() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start] == " " || scalars[start] == "\t" { start = scalars.index(after: start) }
        while end > start {
            let before = scalars.index(before: end)
            guard scalars[before] == " " || scalars[before] == "\t" else { break }
            end = before
        }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }
}
