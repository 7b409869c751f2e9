/// Makes socket ids shaped like socketcluster-server's (the `base64id` package): 15 bytes — 11
/// random, then a 4-byte big-endian sequence number — as 20 URL-safe base64 characters.
struct SocketIDGenerator {
    private var sequence: UInt32 = 0
    private var random: [UInt8]

    init() {
        var generator = SystemRandomNumberGenerator()
        random = (0..<11).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The next id; the random part is refreshed every time, the sequence counts up (wrapping).
    mutating func next() -> String {
        var generator = SystemRandomNumberGenerator()
        for index in random.indices { random[index] = UInt8.random(in: .min ... .max, using: &generator) }
        var bytes = random
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 24))
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 16))
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 8))
        bytes.append(UInt8(truncatingIfNeeded: sequence))
        sequence &+= 1
        return SocketIDGenerator.urlSafeBase64(bytes)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// Unpadded URL-safe base64 of a byte count divisible by 3.
    static func urlSafeBase64(_ bytes: [UInt8]) -> String {
        var output = ""
        output.reserveCapacity(bytes.count / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        return output
    }
}
