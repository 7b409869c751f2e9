@_exported import MonotonicTime

/// A point on a monotonic clock, in nanoseconds: the instant type every sans-I/O core of this
/// package shares. The driver passes the current instant in (for example
/// `DispatchTime.now().uptimeNanoseconds`), and tests pass a manual one.
package typealias WebSocketInstant = MonotonicInstant
