/// Settings of permessage-deflate (RFC 7692), the WebSocket compression extension.
///
/// Memory per connection once negotiated, from zlib's own formulas: the compressor takes
/// 2^(windowBits+2) + 2^(memoryLevel+9) bytes plus ~6 KiB, the decompressor 2^windowBits plus
/// ~7 KiB; both are created on first use. The defaults (15 bits, memory level 5) come to about
/// 150 KiB + 39 KiB = ~189 KiB (0.1.0's memory level 8: ~301 KiB); window 9 bits and memory
/// level 1 to ~9 KiB + ~8 KiB. Turning context takeover off does not shrink the buffers, but
/// lets a quiet peer's history go. Buffers kept between messages (compressed output, inflated
/// message) follow the largest message up to 1 MiB + 16 KiB and are released after larger ones.
public struct PerMessageDeflateOptions: Sendable, Hashable {
    /// zlib compression level, 0 (store) ... 9 (smallest); a value outside 0 ... 9 is clamped
    /// when set. Default 1, the fastest (0.1.0 used 6, zlib's, ws's and Python websockets'
    /// default): on JSON-like chat text it takes about half the CPU of level 6 per round trip
    /// for output ~11 % larger (69 KB against 62 KB per MiB, 345 against 311 bytes per 4 KiB
    /// message, context takeover on); level 3 costs more than 1 and is no smaller. The level
    /// does not change memory use.
    public var level: Int = 1 { didSet { level = min(max(level, 0), 9) } }
    /// zlib memory level for the compressor, 1 ... 9; clamped when set. Default 5, as Python
    /// websockets (0.1.0 used 8, zlib's and ws's default): the compressor's hash table takes
    /// 2^(memoryLevel+9) bytes, 16 KiB at 5 against 128 KiB at 8; on JSON-like chat text level 8
    /// made output 0.6 % smaller for no CPU difference that could be measured.
    public var memoryLevel: Int = 5 { didSet { memoryLevel = min(max(memoryLevel, 1), 9) } }
    /// Window the client compresses with, as 2^bits bytes (9 ... 15, default 15; clamped when
    /// set). A client offers it; a server asks clients that allow it for at most this.
    public var clientMaxWindowBits: Int = 15 { didSet { clientMaxWindowBits = min(max(clientMaxWindowBits, 9), 15) } }
    /// Window the server compresses with, as 2^bits bytes (9 ... 15, default 15; clamped when
    /// set). A client asks for it when below 15; a server uses at most this.
    public var serverMaxWindowBits: Int = 15 { didSet { serverMaxWindowBits = min(max(serverMaxWindowBits, 9), 15) } }
    /// The client starts every message with an empty history (less memory held, worse ratio).
    /// Off by default.
    public var clientNoContextTakeover = false
    /// The server starts every message with an empty history. Off by default.
    public var serverNoContextTakeover = false
    /// Messages shorter than this many bytes go uncompressed (default 64; a negative value is
    /// taken as 0 when set).
    public var minimumMessageSize: Int = 64 { didSet { minimumMessageSize = max(0, minimumMessageSize) } }

    /// The defaults documented on each property; change them one by one
    /// (`var deflate = PerMessageDeflateOptions(); deflate.level = 1`).
    public init() {}
}

/// What a permessage-deflate negotiation settled, from the server's point of view (RFC 7692 §7.1).
public struct PerMessageDeflateParameters: Sendable, Hashable {
    /// The server starts every message with an empty history.
    public var serverNoContextTakeover = false
    /// The client starts every message with an empty history.
    public var clientNoContextTakeover = false
    /// Window of the server's compressor, 8 ... 15 bits.
    public var serverMaxWindowBits = 15
    /// Window of the client's compressor, 8 ... 15 bits.
    public var clientMaxWindowBits = 15

    /// The settled parameters (RFC 7692 defaults: context takeover both ways, 15-bit windows).
    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }
}
