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
/// is delivered (sized from the frame header), so its bytes are copied once.
struct MessageAssembler: Sendable {
    /// Largest message accepted, in bytes.
    var maxMessageSize: Int
    /// Opcode of the message being received (`.text` or `.binary`), `nil` between messages.
    private(set) var messageOpcode: WebSocketOpcode?
    /// Whether the frame being received ends its message.
    private var frameIsFinal = false
    /// Reassembly buffer, unmasked; its capacity is reused across messages.
    private var buffer: [UInt8] = []
    /// The payload of an unfragmented binary message being received over several reads, at its
    /// final size; `nil` otherwise.
    private var binaryPayload: Data?
    /// Payload length of the frame being received, in bytes.
    private var frameLength = 0
    private var validator = UTF8Validator()

    /// Buffers above this capacity, in bytes, are released after their message.
    private static let retainedCapacity = 1 << 20

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
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
            return receiveBinaryPayload(slice, key: key, offset: offset, isFrameEnd: isFrameEnd)
        }
        if offset == 0 && frameIsFinal && buffer.isEmpty {
            // The last (or only) frame of a text message: its size is known, so grow once.
            buffer.reserveCapacity(frameLength)
        }
        let start = buffer.count
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
        if buffer.capacity > Self.retainedCapacity {
            buffer = []
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        return event
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
    private mutating func receiveBinaryPayload(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?, offset: Int, isFrameEnd: Bool) -> WebSocketEvent? {
        if offset == 0 || binaryPayload == nil {
            // The length was checked against maxMessageSize when the header arrived. Uninitialized
            // memory handed to the Data (which frees it): every byte is written below, so zeroing
            // it first would be a wasted pass over the message.
            if let memory = malloc(max(frameLength, 1)) {
                binaryPayload = Data(bytesNoCopy: memory, count: frameLength, deallocator: .free)
            } else {
                binaryPayload = Data(count: frameLength)
            }
        }
        if !slice.isEmpty {
            binaryPayload?.withUnsafeMutableBytes { all in
                let destination = UnsafeMutableRawBufferPointer(rebasing: all[offset..<(offset + slice.count)])
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
        return .binary(payload)
    }

    private func directBinary(_ slice: UnsafeRawBufferPointer, key: WebSocketMaskingKey?) -> WebSocketEvent {
        guard let key else { return .binary(Data(slice)) }
        var data = Data(count: slice.count)
        data.withUnsafeMutableBytes { WebSocketMasking.copy(slice, to: $0, key: key) }
        return .binary(data)
    }
}
