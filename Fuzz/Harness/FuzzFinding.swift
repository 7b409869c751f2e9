/// A property a fuzz target checks did not hold for one input (a crash in the code under test
/// is a finding too, but the sanitizer reports that one).
public struct FuzzFinding: Error, CustomStringConvertible {
    public var target: String
    public var message: String

    public init(_ target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    public var description: String { "\(target): \(message)" }
}

/// Throws a finding unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ target: String, _ message: @autoclosure () -> String) throws(FuzzFinding) {
    if !condition { throw FuzzFinding(target, message()) }
}
