/// Splits a fuzz input into control bytes and the data to feed, and the data into chunks.
///
/// The first byte of every input selects a variant (e.g. the role), the second seeds the chunk
/// sizes; the rest is the data, untouched, so the fuzzer mutates the bytes the parser sees.
struct FuzzInput {
    let variant: UInt8
    let chunkSeed: UInt8
    let data: [UInt8]

    init(_ bytes: UnsafeRawBufferPointer) {
        variant = bytes.count > 0 ? bytes[0] : 0
        chunkSeed = bytes.count > 1 ? bytes[1] : 0
        data = bytes.count > 2 ? Array(bytes[2...]) : []
    }

    /// `data` cut into pieces of 1...N bytes (sizes from a small generator seeded by
    /// `chunkSeed`; seed 0 gives one piece).
    var chunks: [ArraySlice<UInt8>] {
        guard chunkSeed != 0 else { return data.isEmpty ? [] : [data[...]] }
        var state = UInt32(chunkSeed) &* 2_654_435_761
        let largest = 1 + Int(chunkSeed & 0x1F) * 3
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < data.count {
            state = state &* 1_103_515_245 &+ 12_345
            let size = 1 + Int((state >> 16) % UInt32(largest))
            let end = min(data.count, start + size)
            pieces.append(data[start..<end])
            start = end
        }
        return pieces
    }
}
