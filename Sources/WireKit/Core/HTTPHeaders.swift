/// An ordered list of HTTP header fields with case-insensitive name lookup (RFC 9110 §5.1).
/// Order and duplicates are kept as received.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field as it appears on the wire.
    public struct Field: Sendable, Hashable {
        /// The field name as received; compare it case-insensitively.
        public var name: String
        /// The field value.
        public var value: String
        /// A field named `name` with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in the order received or added.
    public private(set) var fields: [Field]

    /// No fields.
    public init() { fields = [] }
    /// The fields `pairs` as name-value pairs, in order.
    public init(_ pairs: [(String, String)]) { fields = pairs.map { Field(name: $0.0, value: $0.1) } }
    /// The fields of a literal such as `["Origin": "https://example.com"]`, in order.
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

    /// Whether an element of the `#rule` lists of the fields named `name` equals `token`, both
    /// ASCII case-insensitive; the same answer as searching `listElements(name:)`, without
    /// building it.
    func hasListElement(name: String, equalToIgnoringASCIICase token: String) -> Bool {
        for field in fields where field.name.wireKitEqualsIgnoringASCIICase(name) {
            var value = field.value
            let found = value.withUTF8 { bytes -> Bool in
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                    var low = start, high = end
                    while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
                    while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
                    if low < high, UnsafeBufferPointer(rebasing: bytes[low..<high]).wireKitEqualsIgnoringASCIICase(token.utf8) {
                        return true
                    }
                    start = end + 1
                }
                return false
            }
            if found { return true }
        }
        return false
    }

    /// The number of fields, duplicates included.
    public var count: Int { fields.count }
    /// Whether there is no field.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields as `Name: value` lines.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension UnsafeBufferPointer<UInt8> {
    /// ASCII case-insensitive equality of two byte buffers.
    func wireKitEqualsIgnoringASCIICase(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for i in 0..<count where self[i] != other[i] {
            let x = self[i], y = other[i]
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }
}

extension Collection<UInt8> {
    /// ASCII case-insensitive equality of two byte sequences.
    func wireKitEqualsIgnoringASCIICase(_ other: some Collection<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for (x, y) in zip(self, other) where x != y {
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, the comparison HTTP uses for names and tokens.
    func wireKitEqualsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        // Native strings: compare the contiguous bytes directly.
        let contiguous = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in x.wireKitEqualsIgnoringASCIICase(y) }
        }
        if let contiguous, let result = contiguous { return result }
        for (x, y) in zip(a, b) where x != y {
            let lx = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }

    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingWireKitWhitespace() -> String {
        let bytes = utf8
        var start = bytes.startIndex
        while start < bytes.endIndex, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        // One forward pass (the view is only a Collection here): end after the last other byte.
        var end = start
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            if byte != 0x20 && byte != 0x09 { end = index }
        }
        // Spaces and tabs are single-byte scalars, so these are scalar boundaries too.
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
