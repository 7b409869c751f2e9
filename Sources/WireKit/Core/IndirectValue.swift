/// A value kept behind one reference and copied when written while shared: it keeps the
/// detail fields of a value type (most of them `nil` most of the time) out of its inline size,
/// so the type is cheap to store, copy and throw. Equal (and hashed, when the value is) by value.
package struct IndirectValue<Value: Sendable & Equatable>: Sendable, Equatable {
    /// `@unchecked Sendable`: `value` is only written while this is the sole reference to it
    /// (`isKnownUniquelyReferenced`), as copy-on-write types do.
    private final class Storage: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage

    /// `value`, kept behind a reference.
    package init(_ value: Value) { storage = Storage(value) }

    /// The value; setting it copies the storage first when it is shared.
    package var value: Value {
        get { storage.value }
        set {
            if isKnownUniquelyReferenced(&storage) {
                storage.value = newValue
            } else {
                storage = Storage(newValue)
            }
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }
}

extension IndirectValue: Hashable where Value: Hashable {
    package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension Optional {
    /// `value` behind a reference, or `nil` when it equals `empty`: a value with nothing set
    /// needs no storage at all.
    package init<Value>(boxing value: Value, unlessEqualTo empty: Value) where Wrapped == IndirectValue<Value> {
        self = value == empty ? nil : IndirectValue(value)
    }

    /// Changes the boxed value (`empty` when there is none) with `body`; the result is boxed as
    /// `init(boxing:unlessEqualTo:)` does.
    package mutating func updateBoxed<Value>(empty: Value, _ body: (inout Value) -> Void) where Wrapped == IndirectValue<Value> {
        var value = self?.value ?? empty
        body(&value)
        self = Optional(boxing: value, unlessEqualTo: empty)
    }
}
