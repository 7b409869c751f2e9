extension JSONValue {
    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are falsy, everything else
    /// (arrays and objects included) truthy. Client and server send or honour some fields only
    /// when truthy.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .double(let value): return value != 0 && !value.isNaN
        case .string(let value): return !value.isEmpty
        case .array, .object: return true
        }
    }
}
