// expect-runtime: [newer-api]
// The runtime check must refuse the Synchronization module's types (macOS 15, iOS 18), as an Apple
// compile for this package's deployment targets does.
import Synchronization

final class Counter: Sendable {
    let count = Mutex(0)
}
