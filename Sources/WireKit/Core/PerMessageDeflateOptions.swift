/// Settings of permessage-deflate (RFC 7692), the WebSocket compression extension.
///
/// Memory per connection once negotiated, from zlib's own formulas: the compressor takes
/// 2^(windowBits+2) + 2^(memoryLevel+9) bytes plus ~6 KiB, the decompressor 2^windowBits plus
/// ~7 KiB; both are created on first use. The defaults (15 bits, memory level 8) come to about
/// 262 KiB + 39 KiB = ~301 KiB; window 9 bits and memory level 1 to ~9 KiB + ~8 KiB. Turning
/// context takeover off does not shrink the buffers, but lets a quiet peer's history go.
public struct PerMessageDeflateOptions: Sendable, Hashable {
    /// zlib compression level, 0 (store) ... 9 (smallest); 1 is fastest.
    public var level: Int
    /// zlib memory level for the compressor, 1 ... 9 (8: zlib's default).
    public var memoryLevel: Int
    /// Window the client compresses with, as 2^bits bytes (9 ... 15). A client offers it; a server
    /// asks clients that allow it for at most this.
    public var clientMaxWindowBits: Int
    /// Window the server compresses with, as 2^bits bytes (9 ... 15). A client asks for it when
    /// below 15; a server uses at most this.
    public var serverMaxWindowBits: Int
    /// The client starts every message with an empty history (less memory held, worse ratio).
    public var clientNoContextTakeover: Bool
    /// The server starts every message with an empty history.
    public var serverNoContextTakeover: Bool
    /// Messages shorter than this many bytes go uncompressed.
    public var minimumMessageSize: Int

    /// Options with every value clamped to what zlib accepts (level 0...9, memory level 1...9,
    /// windows 9...15 bits, threshold at least 0).
    public init(
        level: Int = 6, memoryLevel: Int = 8, clientMaxWindowBits: Int = 15, serverMaxWindowBits: Int = 15,
        clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false, minimumMessageSize: Int = 64
    ) {
        self.level = min(max(level, 0), 9)
        self.memoryLevel = min(max(memoryLevel, 1), 9)
        self.clientMaxWindowBits = min(max(clientMaxWindowBits, 9), 15)
        self.serverMaxWindowBits = min(max(serverMaxWindowBits, 9), 15)
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverNoContextTakeover = serverNoContextTakeover
        self.minimumMessageSize = max(0, minimumMessageSize)
    }
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
