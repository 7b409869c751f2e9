import Dispatch

/// Takes the jobs of tasks that prefer a `QueueTaskExecutor` while it is in the middle of a step
/// on the executor's queue (delivering what a read brought), to run them at the end of that step
/// on the same thread.
package protocol QueueTaskJobAdopter: AnyObject, Sendable {
    /// Keeps `job` to run it later in the current step and returns true; returns false when no
    /// step is running on this thread (the executor then queues a block for it).
    func adopt(_ job: UnownedJob) -> Bool
}

/// A `TaskExecutor` that runs tasks on a connection's serial queue (`WebSocket.executor`,
/// `PubSubClient.executor`).
///
/// A task that prefers it resumes where its answer was read: a continuation resumed while the
/// queue delivers a read's messages is adopted by the connection (`QueueTaskJobAdopter`), which
/// runs it once the read's messages were all delivered, on the same thread, and writes what the
/// resumed tasks sent with the read's own output. On Linux that thread is the event loop that read
/// the socket, so a round trip costs no thread wake-up beyond the loop's own. A job enqueued from
/// anywhere else runs in a block on the queue.
///
/// `@unchecked Sendable`: `adopter` is set once, by the owner's initializer, before the executor
/// is handed out; `queue` never changes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
package final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue
    package weak var adopter: (any QueueTaskJobAdopter)?

    package init(queue: DispatchQueue) {
        self.queue = queue
    }

    // The class is available from macOS 15, iOS 18, tvOS 18 and watchOS 11 on: so are its uses.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)  // apple-runtime-check: guarded
        if let adopter, adopter.adopt(job) { return }
        // apple-runtime-check: guarded
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs jobs an adopter took, in order. On the queue.
    package func run(_ jobs: [UnownedJob]) {
        let executor = asUnownedTaskExecutor()  // apple-runtime-check: guarded
        for job in jobs { job.runSynchronously(on: executor) }
    }
}
