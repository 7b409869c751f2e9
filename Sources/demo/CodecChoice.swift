import PubSubClient

/// The packet codec `--codec` names: `json` (the default) or `min-bin` (`sc-codec-min-bin`).
enum CodecChoice: String, Equatable, CaseIterable {
    case json
    case minBin = "min-bin"

    /// The codec itself.
    var codec: any PacketCodec {
        switch self {
        case .json: return JSONPacketCodec()
        case .minBin: return MinBinPacketCodec()
        }
    }

    /// Parses `--codec`'s value.
    init(option text: String) throws(UsageError) {
        guard let choice = CodecChoice(rawValue: text) else {
            throw UsageError("--codec must be json or min-bin, not \(text.escapedForDisplay)")
        }
        self = choice
    }
}
