#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The permessage-deflate codec of one connection (RFC 7692 §6, §7.2), owned by its
/// `WebSocketStateMachine`: compresses outgoing messages (RSV1 on their first frame, the
/// trailing 00 00 FF FF removed) and inflates incoming ones (the trailer put back), checking the
/// inflated size against the message limit while inflating. zlib streams are created on first use.
struct PerMessageDeflate: Sendable {
    let parameters: PerMessageDeflateParameters
    let role: WebSocketRole
    let options: PerMessageDeflateOptions
    /// Largest inflated message, in bytes.
    let maxMessageSize: Int

    private var deflater: ZlibStream?
    private var inflater: ZlibStream?
    /// Compressed output of the message being sent (zlib writes into it); storage reused.
    private var compressed = GrowableByteBuffer()
    /// Unmasked input slice; storage reused.
    private var unmasked = GrowableByteBuffer()
    /// Inflated bytes of the message being received (zlib writes into it); storage reused.
    private var inflated = GrowableByteBuffer()
    /// Opcode of the compressed message being received, `nil` between messages.
    private(set) var inboundOpcode: WebSocketOpcode?
    private var inboundFrameIsFinal = false
    /// What the inflated message being received holds of the shared budget.
    private var charge: PartialMessageCharge

    private static let trailer: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
    /// Buffers above this capacity, in bytes, are released after their message. Reserving 1 MiB
    /// gives a little more (the allocator rounds up), and a 1 MiB message must not lose its
    /// buffers to that (as in `MessageAssembler`): releasing them made every such message fault
    /// in fresh pages and regrow them.
    private static let retainedCapacity = (1 << 20) + (16 << 10)

    init(
        parameters: PerMessageDeflateParameters, role: WebSocketRole, options: PerMessageDeflateOptions, maxMessageSize: Int,
        budget: PartialMessageBudget? = nil
    ) {
        self.parameters = parameters
        self.role = role
        self.options = options
        self.maxMessageSize = maxMessageSize
        charge = PartialMessageCharge(budget: budget)
    }

    /// Bytes of storage kept between messages (compressed output, unmasked input, inflated
    /// output); for tests that check buffers are kept or released.
    var reservedBytes: Int { compressed.capacity + unmasked.capacity + inflated.capacity }

    /// Bytes the inflated message being received holds of the shared budget.
    var chargedBytes: Int { charge.charged }

    /// Gives back what the message being received holds of the shared budget.
    mutating func releaseBudget() {
        charge.releaseAll()
    }

    private var sendWindowBits: Int { role == .client ? parameters.clientMaxWindowBits : parameters.serverMaxWindowBits }
    /// The peer's window: the decompressor needs no more (RFC 7692 §7.1.2).
    private var receiveWindowBits: Int { role == .client ? parameters.serverMaxWindowBits : parameters.clientMaxWindowBits }
    private var sendNoContextTakeover: Bool { role == .client ? parameters.clientNoContextTakeover : parameters.serverNoContextTakeover }
    private var receiveNoContextTakeover: Bool { role == .client ? parameters.serverNoContextTakeover : parameters.clientNoContextTakeover }

    // MARK: Sending

    /// Compresses a whole message. Returns nil when it should go uncompressed (below the size
    /// threshold, a window of 8 bits, or zlib failed), otherwise calls `body` with the payload.
    mutating func compress(_ payload: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard payload.count >= options.minimumMessageSize, sendWindowBits >= 9 else { return false }
        do throws(ZlibError) {
            if deflater == nil {
                deflater = try ZlibStream(deflateLevel: Int32(options.level), windowBits: sendWindowBits, memoryLevel: Int32(options.memoryLevel))
            }
            compressed.removeAll()
            try deflater!.deflate(payload, into: compressed)
        } catch {
            deflater = nil
            return false
        }
        if sendNoContextTakeover { deflater?.reset() }
        // A sync flush ends with an empty stored block, 00 00 FF FF: it is left off (§7.2.1).
        if compressed.bytes.suffix(4).elementsEqual(Self.trailer) { compressed.removeLast(4) }
        if compressed.count == 0 {
            // §7.2.3.6: an empty message is one 0x00 byte.
            guard withUnsafeBytes(of: UInt8(0), { compressed.append($0) }) else { return false }
        }
        body(compressed.bytes)
        if compressed.capacity > Self.retainedCapacity { compressed.release() }
        return true
    }

    // MARK: Receiving

    /// A data frame header arrived while permessage-deflate is on. Returns true when the frame
    /// belongs to a compressed message (this codec takes its payload), false for an uncompressed
    /// one (the assembler takes it). Throws 1002 for RSV1 on a continuation frame and for a new
    /// message inside an unfinished compressed one.
    mutating func begin(_ header: WebSocketFrameHeader, assemblerBusy: Bool) throws(WebSocketError) -> Bool {
        let rsv1 = header.reservedBits & 0b100 != 0
        if header.opcode == .continuation {
            if rsv1 { throw .protocolViolation(.compressedContinuationFrame) }
            guard inboundOpcode != nil else { return false }
        } else {
            if let inboundOpcode {
                throw .protocolViolation(.interleavedDataFrame(opcode: header.opcode, unfinished: inboundOpcode))
            }
            guard rsv1 else { return false }
            if assemblerBusy { throw .protocolViolation(.compressedFrameInsideFragmentedMessage(header.opcode)) }
            inboundOpcode = header.opcode
            inflated.removeAll()
        }
        inboundFrameIsFinal = header.fin
        return true
    }

    /// A slice of a compressed message's frame (masked as on the wire). Returns the message
    /// once its last frame ends. Throws 1009 as soon as the inflated size passes the limit,
    /// 1007 for invalid UTF-8 in text, 1002 for data zlib rejects.
    mutating func receive(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?, offset: Int, isFrameEnd: Bool) throws(WebSocketError) -> WebSocketEvent? {
        if !slice.isEmpty {
            if let key {
                let input = unmasked
                input.removeAll()
                guard input.reserve(slice.count) else {
                    throw .protocolViolation(.invalidCompressedData(reason: "out of memory for \(slice.count) bytes of input"))
                }
                WebSocketMasking.copy(slice, to: UnsafeMutableRawBufferPointer(rebasing: input.spareCapacity[0..<slice.count]), key: key, phase: offset)
                input.commit(slice.count)
                if let error = withExtendedLifetime(input, { inflate(input.bytes) }) { throw error }
            } else if let error = inflate(slice) {
                throw error
            }
        }
        guard isFrameEnd, inboundFrameIsFinal, let opcode = inboundOpcode else { return nil }
        if let error = Self.trailer.withUnsafeBytes({ inflate($0) }) { throw error }
        inboundOpcode = nil
        if receiveNoContextTakeover || inflater?.streamEnded == true { inflater?.reset() }
        let event: WebSocketEvent
        if opcode == .text {
            guard UTF8Validator.isValid(inflated.bytes) else {
                throw .invalidUTF8("a compressed text message is not valid UTF-8")
            }
            event = .text(String(decoding: inflated.bytes, as: UTF8.self))
        } else {
            event = .binary(Data(inflated.bytes))
        }
        charge.releaseAll()
        if inflated.capacity > Self.retainedCapacity { inflated.release() } else { inflated.removeAll() }
        if unmasked.capacity > Self.retainedCapacity { unmasked.release() }
        return event
    }

    /// Inflates onto `inflated`; returns the failure, if any. Output beyond what the shared
    /// budget covers stops zlib, is covered (doubling), and inflating goes on from there.
    private mutating func inflate(_ bytes: UnsafeRawBufferPointer) -> WebSocketError? {
        var input = bytes
        while true {
            let limit = min(maxMessageSize, charge.allowance)
            var unconsumed = 0
            let withinLimit: Bool
            do throws(ZlibError) {
                if inflater == nil { inflater = try ZlibStream(inflateWindowBits: receiveWindowBits) }
                if inflater!.streamEnded { throw .failed(code: 1, message: "data after the end of the deflate stream") }
                withinLimit = try inflater!.inflate(input, into: inflated, limit: limit, unconsumed: &unconsumed)
            } catch {
                return .protocolViolation(.invalidCompressedData(reason: "\(error)"))
            }
            if withinLimit { return nil }
            if limit >= maxMessageSize { return .messageTooBig(size: UInt64(inflated.count), limit: maxMessageSize) }
            let target = min(maxMessageSize, max(inflated.count, limit * 2))
            guard charge.cover(target) else { return .partialMessageBudgetExceeded(size: target, budget: charge.budget?.limit ?? 0) }
            input = UnsafeRawBufferPointer(rebasing: input[(input.count - unconsumed)...])
        }
    }
}
