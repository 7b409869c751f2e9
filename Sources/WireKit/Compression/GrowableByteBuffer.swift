#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes that zlib (or an unmasking copy) writes straight into: storage is reserved ahead and
/// `count` advances by what was written, so nothing is zero-filled first or copied through a
/// staging buffer. Growth goes through `realloc`, which can move a large block without copying.
///
/// `@unchecked Sendable`: it belongs to one connection's permessage-deflate codec, which is
/// confined to the connection's queue (as `ZlibStream`).
final class GrowableByteBuffer: @unchecked Sendable {
    private var storage: UnsafeMutableRawPointer?
    /// Bytes written, in bytes.
    private(set) var count = 0
    /// Bytes of storage, in bytes.
    private(set) var capacity = 0

    init() {}

    deinit { free(storage) }

    /// The bytes written; valid until the buffer next changes.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// The storage after the written bytes; valid until the buffer next changes.
    var spareCapacity: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: storage.map { $0 + count }, count: capacity - count)
    }

    /// Grows the storage to at least `minimumCapacity` bytes, keeping what was written. False
    /// when the memory could not be had (nothing changed then).
    func reserve(_ minimumCapacity: Int) -> Bool {
        guard minimumCapacity > capacity else { return true }
        guard let grown = realloc(storage, minimumCapacity) else { return false }
        storage = grown
        capacity = minimumCapacity
        return true
    }

    /// Counts the first `written` bytes of `spareCapacity` as written.
    func commit(_ written: Int) {
        count += min(max(written, 0), capacity - count)
    }

    /// Appends `bytes`, growing the storage to exactly what it needs; false when it could not.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return true }
        guard reserve(count + bytes.count) else { return false }
        spareCapacity.copyMemory(from: bytes)
        count += bytes.count
        return true
    }

    /// Forgets the last `dropped` bytes (storage kept).
    func removeLast(_ dropped: Int) {
        count -= min(max(dropped, 0), count)
    }

    /// Forgets every byte (storage kept).
    func removeAll() {
        count = 0
    }

    /// Forgets every byte and frees the storage.
    func release() {
        free(storage)
        storage = nil
        count = 0
        capacity = 0
    }
}
