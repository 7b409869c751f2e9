import WireKit

/// The HTTP/1.1 head parser (16 KiB limit, as the handshakes use it), request and response.
///
/// Input: byte 0 picks request (odd) or response (even), byte 1 seeds the chunking. Checks: the
/// bytes consumed never exceed the input and end the head; the chunked and the whole feed agree
/// on where the head ends and on the parsed head or the error; a parsed head's header fields
/// have token names and values without CR/LF.
enum HTTPHeadFuzzer {
    static let name = "http-head"

    enum Outcome: Equatable {
        case incomplete
        case failed(String)
        case request(HTTPRequestHead, used: Int)
        case response(HTTPResponseHead, used: Int)
    }

    static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let input = FuzzInput(bytes)
        let request = input.variant & 1 == 1
        let whole = try parse([input.data[...]], request: request)
        let chunked = try parse(input.chunks, request: request)
        try require(whole == chunked, name, "chunking changed the outcome:\n  whole:   \(whole)\n  chunked: \(chunked)")
        let headers: HTTPHeaders
        switch whole {
        case .request(let head, _): headers = head.headers
        case .response(let head, _): headers = head.headers
        default: return
        }
        for field in headers {
            try require(HTTPHeadParser.isToken(field.name), name, "header name \(field.name.debugDescription) is not a token")
            try require(
                !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }), name,
                "header value \(field.value.debugDescription) holds CR or LF")
        }
    }

    static func parse(_ chunks: [ArraySlice<UInt8>], request: Bool) throws(FuzzFinding) -> Outcome {
        var parser = HTTPHeadParser()
        var consumed = 0
        for chunk in chunks {
            let result = Array(chunk).withUnsafeBytes { raw in Result { () throws(HTTPHeadParser.ParseError) in try parser.append(raw) } }
            switch result {
            case .failure(let error):
                return .failed(error.message)
            case .success(nil):
                consumed += chunk.count
            case .success(let used?):
                try require((0...chunk.count).contains(used), name, "append used \(used) of \(chunk.count) bytes")
                consumed += used
                try require(parser.bytes.count == consumed, name, "head holds \(parser.bytes.count) bytes, \(consumed) consumed")
                try require(parser.bytes.last == 0x0A, name, "the head does not end with LF")
                do {
                    return request ? .request(try parser.requestHead(), used: consumed) : .response(try parser.responseHead(), used: consumed)
                } catch {
                    return .failed("head: " + error.message)
                }
            }
        }
        return .incomplete
    }
}
