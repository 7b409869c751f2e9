/// One socket's subscribed channel names in subscription order: insert, remove and lookup in
/// amortized O(1) (a removed name leaves a hole that a compaction fills once holes outnumber
/// names), and the sum of the names' UTF-8 lengths for `BrokerOptions.maxSubscriptionBytes`.
struct SubscriptionList {
    /// Names in subscription order; `nil` is a removed name not compacted away yet.
    private var slots: [String?] = []
    private var slotByName: [String: Int] = [:]
    /// Sum of the UTF-8 lengths of the names held, in bytes.
    private(set) var byteCount = 0
    /// Slots copied by compactions so far (the work removals cost; tests check it stays linear).
    private(set) var slotsMoved = 0

    /// Number of names held.
    var count: Int { slotByName.count }

    func contains(_ name: String) -> Bool { slotByName[name] != nil }

    /// Adds `name` at the end; returns false when it was already held.
    @discardableResult
    mutating func insert(_ name: String) -> Bool {
        guard slotByName[name] == nil else { return false }
        slotByName[name] = slots.count
        slots.append(name)
        byteCount += name.utf8.count
        return true
    }

    /// Removes `name`; returns false when it was not held.
    @discardableResult
    mutating func remove(_ name: String) -> Bool {
        guard let slot = slotByName.removeValue(forKey: name) else { return false }
        slots[slot] = nil
        byteCount -= name.utf8.count
        if slots.count > 16 && slots.count > 2 * slotByName.count { compact() }
        return true
    }

    /// The names in subscription order.
    var inOrder: [String] { slots.compactMap { $0 } }

    private mutating func compact() {
        var kept: [String?] = []
        kept.reserveCapacity(slotByName.count)
        for case let name? in slots {
            slotByName[name] = kept.count
            kept.append(name)
        }
        slotsMoved += kept.count
        slots = kept
    }
}
