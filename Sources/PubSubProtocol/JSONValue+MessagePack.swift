extension JSONValue {
    /// Decodes one MessagePack document (the whole of `bytes`) with `decoder`'s limits.
    public init(messagePack bytes: some Collection<UInt8>, decoder: MessagePackDecoder = MessagePackDecoder()) throws(MessagePackDecodingError) {
        self = try decoder.decode(bytes)
    }

    /// This value as MessagePack, written as msgpack-lite writes the same JavaScript value
    /// (object keys sorted; see ``MessagePackEncoder``).
    public func messagePackBytes() throws(MessagePackEncodingError) -> [UInt8] {
        var encoder = MessagePackEncoder()
        try encoder.encode(self)
        return encoder.bytes
    }
}
