import WireKit

/// WireKit's UTF-8 validator against the standard library's decoder.
///
/// Input: byte 1 seeds the chunking (byte 0 is unused), the rest is the text. The whole-buffer
/// verdict and the incremental one over the chunks must both equal the standard library's
/// (valid iff decoding and re-encoding gives the same bytes), and the reported offset of the
/// first invalid byte must lie in the ill-formed subsequence the standard library finds.
enum UTF8Fuzzer {
    static let name = "utf8"

    static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let input = FuzzInput(bytes)
        let data = input.data
        let expected = Array(String(decoding: data, as: UTF8.self).utf8) == data
        let whole = UTF8Validator.isValid(data)
        try require(whole == expected, name, "isValid says \(whole), the standard library \(expected) for \(hex(data))")

        var validator = UTF8Validator()
        var incremental = true
        for chunk in input.chunks {
            incremental = Array(chunk).withUnsafeBytes { validator.validate($0) } && incremental
        }
        incremental = incremental && validator.isAtCharacterBoundary
        try require(incremental == expected, name, "chunked validation says \(incremental), the standard library \(expected) for \(hex(data))")

        if let offset = validator.invalidByteOffset {
            guard let (start, length) = firstError(data) else {
                throw FuzzFinding(name, "invalid at \(offset), but the standard library finds no error in \(hex(data))")
            }
            try require(
                offset >= start && offset <= start + length, name,
                "invalid at \(offset), the standard library's error spans \(start)..<\(start + length) in \(hex(data))")
        }
    }

    /// Start and length of the first ill-formed subsequence, per the standard library.
    static func firstError(_ data: [UInt8]) -> (Int, Int)? {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error(let length): return (offset, length)
            case .emptyInput: return nil
            }
        }
    }

    static func hex(_ data: [UInt8]) -> String {
        data.prefix(64).map { String($0, radix: 16) }.joined(separator: " ")
    }
}
