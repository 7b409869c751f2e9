/// Makes socket ids shaped like socketcluster-server's (the `base64id` package): 15 bytes — 11
/// random, then a 4-byte big-endian sequence number — as 20 URL-safe base64 characters.
struct SocketIDGenerator {
    private var sequence: UInt32 = 0
    private var random = [UInt8](repeating: 0, count: 11)
    /// Fills the random part for a sequence number: the system's generator unless one was injected.
    private let fill: @Sendable (UInt32, inout [UInt8]) -> Void

    init(fill: (@Sendable (UInt32, inout [UInt8]) -> Void)? = nil) {
        self.fill =
            fill ?? { _, bytes in
                var generator = SystemRandomNumberGenerator()
                for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &generator) }
            }
    }

    /// The next id; the random part is refreshed every time, the sequence counts up (wrapping).
    mutating func next() -> String {
        fill(sequence, &random)
        var bytes = random
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 24))
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 16))
        bytes.append(UInt8(truncatingIfNeeded: sequence >> 8))
        bytes.append(UInt8(truncatingIfNeeded: sequence))
        sequence &+= 1
        return Base64URL.encode(bytes)
    }
}
