#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One raw-deflate (RFC 1951, no zlib header) compressor or decompressor: a `z_stream` owned
/// from creation to `deinit`.
///
/// `@unchecked Sendable`: it belongs to one connection's state machine, which is confined to
/// the connection's queue.
final class ZlibStream: @unchecked Sendable {
    enum Kind { case deflater, inflater }

    private let zlib: ZlibLibrary
    private let stream: ZlibLibrary.Stream
    let kind: Kind

    private static let Z_OK: Int32 = 0, Z_STREAM_END: Int32 = 1, Z_BUF_ERROR: Int32 = -5
    private static let Z_SYNC_FLUSH: Int32 = 2
    private static let Z_DEFLATED: Int32 = 8, Z_MEM_ERROR: Int32 = -4
    /// Stack space zlib writes into when the output storage is full, in bytes.
    private static let probeSize = 4 << 10
    /// Storage given to an empty output the first time zlib has output for it, in bytes; it
    /// doubles from there (so a 1 MiB message ends in exactly 1 MiB of storage).
    private static let firstCapacity = 16 << 10

    /// A compressor with a window of 2^`windowBits` bytes (9...15), `level` 0...9 (-1: zlib's
    /// default) and `memoryLevel` 1...9.
    init(deflateLevel level: Int32, windowBits: Int, memoryLevel: Int32) throws(ZlibError) {
        zlib = try ZlibLibrary.loaded()
        kind = .deflater
        stream = UnsafeMutableRawPointer.allocate(byteCount: ZlibLibrary.streamSize, alignment: 8)
        stream.initializeMemory(as: UInt8.self, repeating: 0, count: ZlibLibrary.streamSize)
        let code = zlib.deflateInit2_(stream, level, Self.Z_DEFLATED, -Int32(windowBits), memoryLevel, 0, zlib.version, Int32(ZlibLibrary.streamSize))
        guard code == Self.Z_OK else {
            stream.deallocate()
            throw .failed(code: code, message: "deflateInit2 (window bits \(windowBits), level \(level))")
        }
    }

    /// A decompressor accepting windows up to 2^`windowBits` bytes (8...15).
    init(inflateWindowBits windowBits: Int) throws(ZlibError) {
        zlib = try ZlibLibrary.loaded()
        kind = .inflater
        stream = UnsafeMutableRawPointer.allocate(byteCount: ZlibLibrary.streamSize, alignment: 8)
        stream.initializeMemory(as: UInt8.self, repeating: 0, count: ZlibLibrary.streamSize)
        let code = zlib.inflateInit2_(stream, -Int32(windowBits), zlib.version, Int32(ZlibLibrary.streamSize))
        guard code == Self.Z_OK else {
            stream.deallocate()
            throw .failed(code: code, message: "inflateInit2 (window bits \(windowBits))")
        }
    }

    deinit {
        switch kind {
        case .deflater: _ = zlib.deflateEnd(stream)
        case .inflater: _ = zlib.inflateEnd(stream)
        }
        stream.deallocate()
    }

    /// Inflater: the peer's data ended its deflate stream (a block with BFINAL); `reset()` before more.
    private(set) var streamEnded = false

    /// Forgets the history (no context takeover).
    func reset() {
        streamEnded = false
        switch kind {
        case .deflater: _ = zlib.deflateReset(stream)
        case .inflater: _ = zlib.inflateReset(stream)
        }
    }

    private var message: String {
        stream.load(fromByteOffset: ZlibLibrary.Field.message, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "no message"
    }

    /// Compresses `input` and sync-flushes, appending the output to `output` (it ends with the
    /// empty stored block 00 00 FF FF).
    func deflate(_ input: UnsafeRawBufferPointer, into output: GrowableByteBuffer) throws(ZlibError) {
        var unconsumed = 0
        _ = try run(input, into: output, limit: Int.max, unconsumed: &unconsumed) { zlib.deflate(stream, Self.Z_SYNC_FLUSH) }
    }

    /// Decompresses `input`, appending to `output`. Returns false, having stopped, as soon as
    /// `output` would exceed `limit` bytes; `unconsumed` is then how many bytes at the end of
    /// `input` zlib has not read yet (a later call with them and a higher limit goes on).
    func inflate(_ input: UnsafeRawBufferPointer, into output: GrowableByteBuffer, limit: Int, unconsumed: inout Int) throws(ZlibError) -> Bool {
        try run(input, into: output, limit: limit, unconsumed: &unconsumed) { zlib.inflate(stream, Self.Z_SYNC_FLUSH) }
    }

    /// Runs `step` once with zlib's output pointed at `space`; answers zlib's code and the bytes
    /// it wrote there.
    private func call(_ step: () -> Int32, writingInto space: UnsafeMutableRawBufferPointer) -> (code: Int32, produced: Int) {
        stream.storeBytes(of: space.baseAddress, toByteOffset: ZlibLibrary.Field.nextOut, as: UnsafeMutableRawPointer?.self)
        stream.storeBytes(of: UInt32(space.count), toByteOffset: ZlibLibrary.Field.availOut, as: UInt32.self)
        let code = step()
        return (code, space.count - Int(stream.load(fromByteOffset: ZlibLibrary.Field.availOut, as: UInt32.self)))
    }

    /// Feeds all of `input`, zlib writing straight into `output`'s spare storage until it has no
    /// more to give. False when the output reached `limit` + 1 bytes, with the input zlib has
    /// not read in `unconsumed`.
    private func run(
        _ input: UnsafeRawBufferPointer, into output: GrowableByteBuffer, limit: Int, unconsumed: inout Int, step: () -> Int32
    ) throws(ZlibError) -> Bool {
        unconsumed = 0
        stream.storeBytes(of: input.baseAddress, toByteOffset: ZlibLibrary.Field.nextIn, as: UnsafeRawPointer?.self)
        stream.storeBytes(of: UInt32(input.count), toByteOffset: ZlibLibrary.Field.availIn, as: UInt32.self)
        defer {
            stream.storeBytes(of: nil, toByteOffset: ZlibLibrary.Field.nextIn, as: UnsafeRawPointer?.self)
            stream.storeBytes(of: nil, toByteOffset: ZlibLibrary.Field.nextOut, as: UnsafeMutableRawPointer?.self)
        }
        while true {
            let allowed = limit == .max ? Int(UInt32.max) : min(Int(UInt32.max), limit + 1 - output.count)
            guard allowed > 0 else {
                unconsumed = Int(stream.load(fromByteOffset: ZlibLibrary.Field.availIn, as: UInt32.self))
                return false
            }
            let room: Int, code: Int32, produced: Int
            if output.count < output.capacity {
                let space = output.spareCapacity
                room = min(space.count, allowed)
                (code, produced) = call(step, writingInto: UnsafeMutableRawBufferPointer(rebasing: space[0..<room]))
                output.commit(produced)
            } else {
                // The storage is full. zlib often has nothing more to give (a message exactly the
                // size of the storage kept from the last one), so it is asked through a small
                // stack buffer first; the storage doubles only when it did give more.
                room = min(Self.probeSize, allowed)
                (code, produced) = try withUnsafeTemporaryAllocation(byteCount: room, alignment: 16) { probe throws(ZlibError) in
                    let answer = call(step, writingInto: probe)
                    if answer.produced > 0 {
                        let needed = output.count + answer.produced
                        var grown = max(needed, Self.firstCapacity, output.capacity * 2)
                        if limit != .max { grown = max(needed, min(grown, limit + 1)) }
                        guard output.reserve(grown), output.append(UnsafeRawBufferPointer(rebasing: probe[0..<answer.produced])) else {
                            throw .failed(code: Self.Z_MEM_ERROR, message: "out of memory for \(grown) bytes of output")
                        }
                    }
                    return answer
                }
            }
            let availableIn = stream.load(fromByteOffset: ZlibLibrary.Field.availIn, as: UInt32.self)
            switch code {
            case Self.Z_OK, Self.Z_BUF_ERROR, Self.Z_STREAM_END:
                if code == Self.Z_BUF_ERROR && produced == 0 && availableIn > 0 {
                    throw .failed(code: code, message: "no progress")
                }
                if code == Self.Z_STREAM_END {
                    // The peer ended the deflate stream (a final block): the rest is not deflate data.
                    streamEnded = true
                    return true
                }
                // Done when the input is used up and zlib did not fill the space it had.
                if availableIn == 0 && produced < room { return true }
                if limit != .max && output.count > limit {
                    unconsumed = Int(availableIn)
                    return false
                }
            default:
                throw .failed(code: code, message: message)
            }
        }
    }
}
