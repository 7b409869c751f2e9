import Foundation

/// Collects what an `AsyncStream` yields, so the story can wait, with a deadline, for the next
/// element it expects without racing the network.
/// `@unchecked Sendable`: `buffer` is only touched while holding `lock`.
final class Inbox<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [Element] = []
    private var feeder: Task<Void, Never>?

    init(_ stream: AsyncStream<Element>) {
        feeder = Task { [weak self] in
            for await element in stream {
                guard let self else { return }
                self.lock.withLock { self.buffer.append(element) }
            }
        }
    }

    deinit { feeder?.cancel() }

    /// The first element matching `match`, dropping the ones before it; throws `StoryError`
    /// naming `what` when none arrives within `timeout`.
    func next(
        _ what: String, within timeout: Duration = .seconds(5),
        where match: (Element) -> Bool = { _ in true }
    ) async throws -> Element {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found: Element? = lock.withLock {
                guard let index = buffer.firstIndex(where: match) else {
                    buffer.removeAll()
                    return nil
                }
                let element = buffer[index]
                buffer.removeFirst(index + 1)
                return element
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else { throw StoryError("\(what) did not happen within \(timeout)") }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A step of the story that did not go as told.
struct StoryError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
