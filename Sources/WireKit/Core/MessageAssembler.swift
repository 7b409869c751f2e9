#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns data frame payloads into messages: enforces fragment order (1002), the message size
/// limit (1009, checked when a frame header announces its length) and UTF-8 validity of text
/// (1007, checked as each slice arrives so it fails at the first bad byte, across fragments).
/// A message that arrives as one unfragmented frame in one read skips the reassembly buffer; an
/// unfragmented binary message spread over several reads is unmasked straight into the `Data` that
/// is delivered. Memory follows the bytes that actually arrived, never the length a header
/// announces: at most `initialReservation` is reserved up front, then the storage doubles (capped
/// at the announced length) as the payload arrives, so a peer that announces 16 MiB and sends one
/// byte costs 64 KiB, not 16 MiB. Storage beyond 64 KiB is first covered by the shared
/// `PartialMessageBudget`, when there is one (1009 when it cannot be).
struct MessageAssembler: Sendable {
    /// Largest message accepted, in bytes.
    var maxMessageSize: Int
    /// Opcode of the message being received (`.text` or `.binary`), `nil` between messages.
    private(set) var messageOpcode: WebSocketOpcode?
    /// Whether the frame being received ends its message.
    private var frameIsFinal = false
    /// Reassembly buffer, unmasked; its capacity is reused across messages.
    private var buffer: [UInt8] = []
    /// The payload of an unfragmented binary message being received over several reads: its
    /// first `offset` bytes are received, its count is the storage reserved so far (at most the
    /// frame's length); `nil` otherwise.
    private var binaryPayload: Data?
    /// Payload length of the frame being received, in bytes.
    private var frameLength = 0
    private var validator = UTF8Validator()
    /// What the message being received holds of the shared budget.
    private var charge: PartialMessageCharge

    /// Buffers above this capacity, in bytes, are released after their message. Reserving 1 MiB
    /// gives a little more (the allocator rounds up), and a 1 MiB message must not lose its buffer
    /// to that: releasing it made every such message fault in fresh pages and regrow from 64 KiB.
    private static let retainedCapacity = (1 << 20) + (16 << 10)
    /// Most storage reserved for a message before its bytes arrive, in bytes: a header's length is
    /// only a claim, so larger messages grow with what is received.
    static let initialReservation = 64 << 10

    /// Bytes of storage held for the message being received (reassembly buffer capacity plus the
    /// binary payload's storage); for tests that check reservations follow received bytes.
    var reservedBytes: Int { buffer.capacity + (binaryPayload?.count ?? 0) }

    init(maxMessageSize: Int, budget: PartialMessageBudget? = nil) {
        self.maxMessageSize = maxMessageSize
        charge = PartialMessageCharge(budget: budget)
    }

    /// Bytes the message being received holds of the shared budget.
    var chargedBytes: Int { charge.charged }

    /// Gives back what the message being received holds of the shared budget (the connection
    /// ended with the message unfinished).
    mutating func releaseBudget() {
        charge.releaseAll()
    }

    /// A data frame (text, binary or continuation) header arrived.
    mutating func begin(_ header: WebSocketFrameHeader) throws(WebSocketError) {
        switch header.opcode {
        case .continuation:
            guard messageOpcode != nil else {
                throw .protocolViolation(.continuationWithoutMessage)
            }
        default:
            if let messageOpcode {
                throw .protocolViolation(.interleavedDataFrame(opcode: header.opcode, unfinished: messageOpcode))
            }
            messageOpcode = header.opcode
            validator.reset()
        }
        let total = UInt64(buffer.count) + UInt64(header.payloadLength)
        if total > UInt64(max(maxMessageSize, 0)) {
            throw .messageTooBig(size: total, limit: maxMessageSize)
        }
        frameIsFinal = header.fin
        frameLength = header.payloadLength
    }

    /// A slice of the current frame's payload (masked as on the wire) arrived. Returns the
    /// message when this slice completes it.
    mutating func receive(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?, offset: Int, isFrameEnd: Bool) throws(WebSocketError) -> WebSocketEvent? {
        let isText = messageOpcode == .text
        if offset == 0 && isFrameEnd && frameIsFinal && buffer.isEmpty {
            messageOpcode = nil
            return isText ? try directText(slice, key: key) : directBinary(slice, key: key)
        }
        if !isText && frameIsFinal && buffer.isEmpty {
            return try receiveBinaryPayload(slice, key: key, offset: offset, isFrameEnd: isFrameEnd)
        }
        if offset == 0 && frameIsFinal && buffer.isEmpty {
            // The last (or only) frame of a text message: its announced size, up to a modest cap,
            // is reserved at once; beyond the cap the buffer grows geometrically as bytes arrive.
            buffer.reserveCapacity(min(frameLength, Self.initialReservation))
        }
        let start = buffer.count
        if start + slice.count > min(charge.allowance, buffer.capacity) {
            // The last frame's end is where the message ends: growth never reserves beyond it.
            try coverBufferGrowth(to: start + slice.count, messageEnd: frameIsFinal ? start - offset + frameLength : nil)
        }
        buffer.append(contentsOf: slice)
        if let key {
            buffer.withUnsafeMutableBytes { all in
                WebSocketMasking.apply(key, to: UnsafeMutableRawBufferPointer(rebasing: all[start...]), phase: offset)
            }
        }
        if isText {
            let valid = buffer.withUnsafeBytes { all in validator.validate(UnsafeRawBufferPointer(rebasing: all[start...])) }
            guard valid else { throw invalidText() }
        }
        guard isFrameEnd && frameIsFinal else { return nil }
        if isText && !validator.isAtCharacterBoundary {
            throw .invalidUTF8("text message ends inside a UTF-8 sequence")
        }
        let event: WebSocketEvent = isText ? .text(String(decoding: buffer, as: UTF8.self)) : .binary(Data(buffer))
        messageOpcode = nil
        charge.releaseAll()
        if buffer.capacity > Self.retainedCapacity {
            buffer = []
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        return event
    }

    /// The reassembly buffer must hold `needed` bytes beyond what the budget covers: covers the
    /// storage it will have (doubling when it grows, up to `messageEnd` when the last frame is
    /// being received), or throws 1009.
    private mutating func coverBufferGrowth(to needed: Int, messageEnd: Int?) throws(WebSocketError) {
        let doubled = max(needed, min(buffer.capacity * 2, messageEnd ?? .max))
        let target = needed > buffer.capacity ? doubled : min(buffer.capacity, max(needed, charge.charged * 2))
        guard charge.cover(target) else {
            throw .partialMessageBudgetExceeded(size: target, budget: charge.budget?.limit ?? 0)
        }
        if target > buffer.capacity { buffer.reserveCapacity(target) }
    }

    private func invalidText() -> WebSocketError {
        .invalidUTF8("invalid UTF-8 at byte \(validator.invalidByteOffset ?? 0) of a text message")
    }

    private mutating func directText(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?) throws(WebSocketError) -> WebSocketEvent {
        validator.reset()
        guard let key else {
            guard validator.validate(slice), validator.isAtCharacterBoundary else { throw invalidTextOrTruncated() }
            return .text(String(decoding: slice, as: UTF8.self))
        }
        var valid = true
        var validator = self.validator
        let text = String(unsafeUninitializedCapacity: slice.count) { storage in
            let raw = UnsafeMutableRawBufferPointer(storage)
            WebSocketMasking.copy(slice, to: raw, key: key)
            valid = validator.validate(UnsafeRawBufferPointer(raw)) && validator.isAtCharacterBoundary
            return valid ? slice.count : 0
        }
        self.validator = validator
        guard valid else { throw invalidTextOrTruncated() }
        return .text(text)
    }

    private func invalidTextOrTruncated() -> WebSocketError {
        validator.invalidByteOffset == nil ? .invalidUTF8("text message ends inside a UTF-8 sequence") : invalidText()
    }

    /// A slice of an unfragmented binary message (or of the only non-empty fragment) that spans
    /// several reads: copied, unmasked, into the `Data` that will be delivered.
    private mutating func receiveBinaryPayload(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?, offset: Int, isFrameEnd: Bool) throws(WebSocketError)
        -> WebSocketEvent?
    {
        if offset == 0 || binaryPayload == nil {
            binaryPayload = Self.uninitializedData(count: min(frameLength, Self.initialReservation))
        }
        let end = offset + slice.count
        if let reserved = binaryPayload?.count, end > reserved {
            try growBinaryPayload(to: end, received: offset)
        }
        if !slice.isEmpty {
            binaryPayload?.withUnsafeMutableBytes { all in
                let destination = UnsafeMutableRawBufferPointer(rebasing: all[offset..<end])
                if let key {
                    WebSocketMasking.copy(slice, to: destination, key: key, phase: offset)
                } else {
                    destination.copyMemory(from: slice)
                }
            }
        }
        guard isFrameEnd, let payload = binaryPayload else { return nil }
        binaryPayload = nil
        messageOpcode = nil
        charge.releaseAll()
        return .binary(payload)
    }

    /// Moves the `received` bytes of the binary payload into storage of at least `needed` bytes:
    /// double the current storage, never more than the frame's length (which the last growth
    /// reaches exactly, so the delivered `Data` has the message's count).
    private mutating func growBinaryPayload(to needed: Int, received: Int) throws(WebSocketError) {
        let reserved = binaryPayload?.count ?? 0
        let count = min(frameLength, max(needed, reserved * 2))
        guard charge.cover(count) else {
            throw .partialMessageBudgetExceeded(size: count, budget: charge.budget?.limit ?? 0)
        }
        var grown = Self.uninitializedData(count: count)
        if let old = binaryPayload, received > 0 {
            grown.withUnsafeMutableBytes { destination in
                old.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: destination[0..<received])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<received]))
                }
            }
        }
        binaryPayload = grown
    }

    /// `count` bytes of uninitialized memory owned by a `Data` (which frees it): every byte is
    /// written before it is read, so zeroing it first would be a wasted pass over the message.
    private static func uninitializedData(count: Int) -> Data {
        guard let memory = malloc(max(count, 1)) else { return Data(count: count) }
        return Data(bytesNoCopy: memory, count: count, deallocator: .free)
    }

    private func directBinary(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?) -> WebSocketEvent {
        guard let key else { return .binary(Data(slice)) }
        var data = Data(count: slice.count)
        data.withUnsafeMutableBytes { WebSocketMasking.copy(slice, to: $0, key: key) }
        return .binary(data)
    }
}
