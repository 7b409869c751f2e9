/// Gathers an HTTP/1.1 head (start line and header fields, up to the empty line) from bytes
/// arriving in any split, bounded in size, then parses it. Bytes after the head are not consumed.
package struct HTTPHeadParser: Sendable {
    /// Why a head could not be parsed.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong with the head, in words.
        package var message: String
        /// An error that says `message`.
        package init(_ message: String) { self.message = message }
        /// The message.
        package var description: String { message }
    }

    /// Largest head accepted, in bytes, including the final empty line.
    package let maxSize: Int
    /// The head bytes gathered so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether the empty line that ends the head was seen.
    package private(set) var isComplete = false

    /// A parser that accepts heads of up to `maxSize` bytes (16 KiB by default).
    package init(maxSize: Int = 16 << 10) {
        self.maxSize = maxSize
    }

    /// Takes bytes from `input` up to the end of the head. Returns how many bytes of `input` were
    /// used once the head is complete (the rest follows the head), or `nil` if more are needed.
    package mutating func append(_ input: UnsafeRawBufferPointer) throws(ParseError) -> Int? {
        guard !isComplete else { return 0 }
        let gathered = bytes.count
        /// Byte `position` of the head so far followed by `input`.
        func byte(at position: Int) -> UInt8 {
            position < gathered ? bytes[position] : input[position - gathered]
        }
        var i = 0
        while i < input.count {
            let value = input[i]
            i += 1
            let count = gathered + i
            // A head is text: no control byte but CR, LF and HTAB (RFC 9112 §2.2, §5.5). Failing at
            // the first one answers a peer that speaks another protocol (a TLS ClientHello starts
            // with 0x16) at once instead of waiting for an empty line that never comes.
            if value < 0x20 ? (value != 0x0A && value != 0x0D && value != 0x09) : value == 0x7F {
                throw ParseError("the peer did not send an HTTP head (control byte 0x\(String(value, radix: 16)) at offset \(count - 1))")
            }
            if value == 0x0A {
                let last = count - 1
                if (last >= 1 && byte(at: last - 1) == 0x0A) || (last >= 2 && byte(at: last - 1) == 0x0D && byte(at: last - 2) == 0x0A) {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[0..<i]))
                    isComplete = true
                    return i
                }
            }
            if count >= maxSize {
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[0..<i]))
                throw ParseError("the HTTP head exceeds \(maxSize) bytes")
            }
        }
        bytes.append(contentsOf: input)
        return nil
    }

    /// The head's lines as byte ranges of `bytes`, line endings (LF or CRLF) excluded, empty lines
    /// at the end dropped.
    private func lineRanges() throws(ParseError) -> [Range<Int>] {
        guard isComplete else { throw ParseError("the HTTP head is incomplete") }
        // RFC 9112 §2.2: a bare CR (not before LF) is invalid; kept, it would end up inside a value.
        if let bareCR = bytes.indices.first(where: { bytes[$0] == 0x0D && bytes[$0 + 1] != 0x0A }) {
            throw ParseError("bare CR in the HTTP head (offset \(bareCR))")
        }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(16)
        var lineStart = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            let lineEnd = index > lineStart && bytes[index - 1] == 0x0D ? index - 1 : index
            ranges.append(lineStart..<lineEnd)
            lineStart = index + 1
        }
        ranges.append(lineStart..<bytes.count)
        while let last = ranges.last, last.isEmpty { ranges.removeLast() }
        guard !ranges.isEmpty else { throw ParseError("the HTTP head is empty") }
        return ranges
    }

    /// The text of `range` (invalid UTF-8 repaired), for values and messages.
    private func text(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    private static func isTokenByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether `text` is a non-empty HTTP token (RFC 9110 §5.6.2).
    package static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    private func headers(_ lines: ArraySlice<Range<Int>>) throws(ParseError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for line in lines {
            if let first = line.first, bytes[first] == 0x20 || bytes[first] == 0x09 {
                throw ParseError("obsolete line folding in the header field \"\(text(line).prefix(60))\"")
            }
            guard let colon = line.first(where: { bytes[$0] == UInt8(ascii: ":") }) else {
                throw ParseError("malformed header line \"\(text(line).prefix(60))\"")
            }
            let name = line.lowerBound..<colon
            guard !name.isEmpty, name.allSatisfy({ Self.isTokenByte(bytes[$0]) }) else {
                throw ParseError("malformed header name \"\(text(name).prefix(60))\"")
            }
            var valueStart = colon + 1, valueEnd = line.upperBound
            while valueStart < valueEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
            while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 { valueEnd -= 1 }
            headers.add(name: text(name), value: text(valueStart..<valueEnd))
        }
        return headers
    }

    /// `line` split at spaces (empty parts kept), into at most `maxParts` parts.
    private func parts(of line: Range<Int>, maxParts: Int) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var partStart = line.lowerBound
        var index = line.lowerBound
        while index < line.upperBound, parts.count < maxParts - 1 {
            if bytes[index] == 0x20 {
                parts.append(partStart..<index)
                partStart = index + 1
            }
            index += 1
        }
        parts.append(partStart..<line.upperBound)
        return parts
    }

    private func hasPrefix(_ range: Range<Int>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return (0..<count).allSatisfy { bytes[range.lowerBound + $0] == prefix.utf8Start[$0] }
    }

    /// Parses the gathered head as a response (`HTTP/1.1 101 Switching Protocols`).
    package func responseHead() throws(ParseError) -> HTTPResponseHead {
        let lines = try lineRanges()
        let statusLine = lines[0]
        let parts = parts(of: statusLine, maxParts: 3)
        guard parts.count >= 2, hasPrefix(parts[0], "HTTP/"), parts[1].count == 3,
            parts[1].allSatisfy({ bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") })
        else {
            throw ParseError("malformed status line \"\(text(statusLine).prefix(80))\"")
        }
        let status = parts[1].reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) }
        return HTTPResponseHead(
            version: text(parts[0]), status: status,
            reason: parts.count > 2 ? text(parts[2]) : "",
            headers: try headers(lines.dropFirst()))
    }

    /// Parses the gathered head as a request (`GET /chat HTTP/1.1`).
    package func requestHead() throws(ParseError) -> HTTPRequestHead {
        let lines = try lineRanges()
        let requestLine = lines[0]
        let parts = parts(of: requestLine, maxParts: .max)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ Self.isTokenByte(bytes[$0]) }),
            !parts[1].isEmpty, hasPrefix(parts[2], "HTTP/")
        else {
            throw ParseError("malformed request line \"\(text(requestLine).prefix(80))\"")
        }
        return HTTPRequestHead(
            method: text(parts[0]), target: text(parts[1]), version: text(parts[2]),
            headers: try headers(lines.dropFirst()))
    }
}
