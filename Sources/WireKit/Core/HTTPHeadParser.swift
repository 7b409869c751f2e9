/// Gathers an HTTP/1.1 head (start line and header fields, up to the empty line) from bytes
/// arriving in any split, bounded in size, then parses it. Bytes after the head are not consumed.
public struct HTTPHeadParser: Sendable {
    /// Why a head could not be parsed.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// Largest head accepted, in bytes, including the final empty line.
    public let maxSize: Int
    /// The head bytes gathered so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the empty line that ends the head was seen.
    public private(set) var isComplete = false

    public init(maxSize: Int = 16 << 10) {
        self.maxSize = maxSize
    }

    /// Takes bytes from `input` up to the end of the head. Returns how many bytes of `input` were
    /// used once the head is complete (the rest follows the head), or `nil` if more are needed.
    public mutating func append(_ input: UnsafeRawBufferPointer) throws(ParseError) -> Int? {
        guard !isComplete else { return 0 }
        var i = 0
        while i < input.count {
            let byte = input[i]
            i += 1
            bytes.append(byte)
            if byte == 0x0A {
                let n = bytes.count
                if (n >= 2 && bytes[n - 2] == 0x0A) || (n >= 3 && bytes[n - 2] == 0x0D && bytes[n - 3] == 0x0A) {
                    isComplete = true
                    return i
                }
            }
            if bytes.count >= maxSize {
                throw ParseError("the HTTP head exceeds \(maxSize) bytes")
            }
        }
        return nil
    }

    /// The head's lines without line endings, empty lines at the end dropped.
    private func lines() throws(ParseError) -> [Substring] {
        guard isComplete else { throw ParseError("the HTTP head is incomplete") }
        // Split on bytes: as Characters, "\r\n" is a single grapheme and would not split on "\n".
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            Substring(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard !lines.isEmpty else { throw ParseError("the HTTP head is empty") }
        return lines
    }

    private static func isTokenCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }

    /// Whether `text` is a non-empty HTTP token (RFC 9110 §5.6.2).
    public static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isTokenCharacter)
    }

    private static func headers(_ lines: ArraySlice<Substring>) throws(ParseError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for line in lines {
            if line.first == " " || line.first == "\t" {
                throw ParseError("obsolete line folding in the header field \"\(line.prefix(60))\"")
            }
            guard let colon = line.firstIndex(of: ":") else {
                throw ParseError("malformed header line \"\(line.prefix(60))\"")
            }
            let name = line[..<colon]
            guard isToken(name) else { throw ParseError("malformed header name \"\(name.prefix(60))\"") }
            headers.add(name: String(name), value: line[line.index(after: colon)...].trimmingWireKitWhitespace())
        }
        return headers
    }

    /// Parses the gathered head as a response (`HTTP/1.1 101 Switching Protocols`).
    public func responseHead() throws(ParseError) -> HTTPResponseHead {
        let lines = try lines()
        let statusLine = lines[0]
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3,
              parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let status = Int(parts[1]) else {
            throw ParseError("malformed status line \"\(statusLine.prefix(80))\"")
        }
        return HTTPResponseHead(
            version: String(parts[0]), status: status,
            reason: parts.count > 2 ? String(parts[2]) : "",
            headers: try Self.headers(lines.dropFirst()))
    }

    /// Parses the gathered head as a request (`GET /chat HTTP/1.1`).
    public func requestHead() throws(ParseError) -> HTTPRequestHead {
        let lines = try lines()
        let requestLine = lines[0]
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, Self.isToken(parts[0]), !parts[1].isEmpty, parts[2].hasPrefix("HTTP/") else {
            throw ParseError("malformed request line \"\(requestLine.prefix(80))\"")
        }
        return HTTPRequestHead(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]),
                               headers: try Self.headers(lines.dropFirst()))
    }
}
