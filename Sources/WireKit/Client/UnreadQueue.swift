/// The unread items of a single-consumer buffer (`WebSocket.messages`' `MessageBuffer`,
/// PubSubClient's stream buffers): appended at the end, taken from the front in O(1), the taken
/// slots released at once and compacted now and then. Not thread-safe: its owner locks around it.
/// Inlinable so that each owner's copy is specialised for its element type.
@usableFromInline
package struct UnreadQueue<Element> {
    /// Unread items from `head` on (the slots before it are taken).
    @usableFromInline var items: [Element?] = []
    @usableFromInline var head = 0

    @inlinable package init() {}

    /// Items not yet taken.
    @inlinable package var count: Int { items.count - head }

    @inlinable package mutating func append(_ item: Element) {
        items.append(item)
    }

    /// The first unread item, if any.
    @inlinable package mutating func takeFirst() -> Element? {
        guard head < items.count, let item = items[head] else { return nil }
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Drops every unread item.
    @inlinable package mutating func removeAll() {
        items.removeAll()
        head = 0
    }
}
