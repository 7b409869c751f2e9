/// `value` after `change`: builds a var-style options value inside an expression, e.g.
/// `configured(WebSocketOptions()) { $0.maxMessageSize = 1024 }`.
public func configured<Value>(_ value: Value, _ change: (inout Value) throws -> Void) rethrows -> Value {
    var value = value
    try change(&value)
    return value
}
