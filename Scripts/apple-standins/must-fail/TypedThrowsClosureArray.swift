// expect-runtime: [typed-throws-value]
// The runtime check must refuse what an Apple compile below macOS 15 / iOS 18 refuses: a
// typed-throws function type kept as a value (here an array element) needs runtime metadata
// support that older systems lack. (The shape of WireKit's write batch before 0.2.0.)
enum WriteError: Error { case closed }

final class Batch {
    typealias Write = @Sendable (inout [UInt8]) throws(WriteError) -> Void
    var writes: [Write] = []
    func add(_ write: @escaping Write) { writes.append(write) }
}
