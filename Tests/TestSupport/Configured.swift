/// `value` after `change`: builds a var-style options value inline, for example
/// `configured(SessionConfiguration(address: address)) { $0.autoReconnect = false }`.
public func configured<Value>(_ value: Value, _ change: (inout Value) throws -> Void) rethrows -> Value {
    var value = value
    try change(&value)
    return value
}
