// expect: cannot find 'MSG_NOSIGNAL' in scope
// The check must refuse a name only Glibc has, even where it arrives through Foundation (Linux's
// Foundation re-exports Glibc; Apple's re-exports Darwin, which has SO_NOSIGPIPE instead).
import Foundation

func sendQuietly(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
}
