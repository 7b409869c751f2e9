#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The read buffer and `iovec` array of the current thread, shared by every `TCPTransport`
/// running on it. A transport uses them only inside one synchronous read or write call and
/// never holds them across calls (`.received` bytes are valid only during the event), so one
/// set per thread serves any number of connections: 1,000 idle connections cost no 64 KiB
/// buffer each.
enum ThreadIOBuffers {
    /// Size of the read buffer (bytes).
    static let readBufferSize = 64 * 1024
    /// Most buffers passed to one `sendmsg` call.
    static let maxIOVecs = 64

    private static let iovecOffset = readBufferSize  // 16-byte aligned: iovec needs 8
    private static let byteCount = readBufferSize + maxIOVecs * MemoryLayout<iovec>.stride

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // The thread's buffers go when the thread does. POSIX calls the destructor only for a
        // non-null value; Glibc's header still types the parameter optional and Darwin's
        // (audited for nullability) does not, so it is read through an optional on both.
        pthread_key_create(&key) { pointer in
            let block: UnsafeMutableRawPointer? = pointer
            block?.deallocate()
        }
        return key
    }()

    private static func block() -> UnsafeMutableRawPointer {
        if let existing = pthread_getspecific(key) { return existing }
        let block = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
        pthread_setspecific(key, block)
        return block
    }

    /// This thread's read buffer.
    static var readBuffer: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: block(), count: readBufferSize)
    }

    /// This thread's `iovec` array (`maxIOVecs` entries).
    static var iovecs: UnsafeMutablePointer<iovec> {
        (block() + iovecOffset).bindMemory(to: iovec.self, capacity: maxIOVecs)
    }
}
