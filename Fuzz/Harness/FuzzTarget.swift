/// Every fuzz target: a name (the libFuzzer binary, the corpus folder) and its check of one
/// input. `Fuzz/Entry/TARGET.swift` calls `run` from `LLVMFuzzerTestOneInput`; the corpus
/// replay test calls it for every committed input.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case frames
    case httpHead = "http-head"
    case handshake
    case utf8
    case json
    case packet
    case jwt
    case url
    case msgpack

    /// Runs the target's checks on one input; throws when a property does not hold.
    public func run(_ input: UnsafeRawBufferPointer) throws(FuzzFinding) {
        switch self {
        case .frames: try FrameFuzzer.run(input)
        case .httpHead: try HTTPHeadFuzzer.run(input)
        case .handshake: try HandshakeFuzzer.run(input)
        case .utf8: try UTF8Fuzzer.run(input)
        case .json: try JSONFuzzer.run(input)
        case .packet: try PacketFuzzer.run(input)
        case .jwt: try JWTFuzzer.run(input)
        case .url: try URLFuzzer.run(input)
        case .msgpack: try MessagePackFuzzer.run(input)
        }
    }

    /// The libFuzzer entry: a finding stops the process (libFuzzer saves the input).
    public func fuzzerEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        do {
            try run(UnsafeRawBufferPointer(start: data, count: size))
        } catch {
            fatalError("fuzz finding: \(error)")
        }
        return 0
    }
}
