extension JSONValue {
    /// Decodes one MessagePack document (the whole of `bytes`) with `decoder`'s limits.
    public init(messagePack bytes: some Collection<UInt8>, decoder: MessagePackDecoder = MessagePackDecoder()) throws(MessagePackDecodingError) {
        self = try decoder.decode(bytes)
    }

    /// This value as MessagePack, written as msgpack-lite 0.1.26 writes the same JavaScript value:
    /// integers in the smallest format (float 64 outside the 32-bit range up to ±2⁵³, as for
    /// every JavaScript number), an integral ``double(_:)`` in the 32-bit range as an integer,
    /// the ``binary(_:)`` wrapper as a `bin`, object keys sorted. Throws when a string, bin,
    /// array or object has 2³² or more elements.
    public func messagePackBytes() throws(MessagePackEncodingError) -> [UInt8] {
        var encoder = MessagePackEncoder()
        try encoder.encode(self)
        return encoder.bytes
    }
}
