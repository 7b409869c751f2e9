import Dispatch

/// A connection's side of its `QueueTaskExecutor`: while the connection delivers a read's
/// messages on its queue (`collecting`), the jobs of tasks that prefer the executor and are
/// resumed by those messages wait here, and run together once the read was delivered (`runJobs`),
/// on the same thread, before the read's output is written.
///
/// A separate object rather than the connection itself: the executor holds its adopter weakly,
/// and a weak reference to the connection would move its reference counts to a side table, on
/// the per-message path.
///
/// `@unchecked Sendable`: `collecting` and `jobs` are touched only on the connection's queue
/// (`adopt` checks it is there before touching them).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class TaskJobInbox: QueueTaskJobAdopter, @unchecked Sendable {
    private let queueKey: DispatchSpecificKey<ObjectIdentifier>
    private let owner: ObjectIdentifier
    /// A read's messages are being delivered on the queue right now.
    var collecting = false
    private var jobs: [UnownedJob] = []

    /// `queueKey` and `owner`: the queue's specific value that says a block runs for this
    /// connection.
    init(queueKey: DispatchSpecificKey<ObjectIdentifier>, owner: ObjectIdentifier) {
        self.queueKey = queueKey
        self.owner = owner
    }

    func adopt(_ job: UnownedJob) -> Bool {
        guard DispatchQueue.getSpecific(key: queueKey) == owner, collecting else { return false }
        jobs.append(job)
        return true
    }

    /// Ends collecting and runs what was collected. Jobs adopted meanwhile would only come from
    /// a job resuming another task at once; they get a block of their own.
    func runJobs(on executor: QueueTaskExecutor) {
        collecting = false
        guard !jobs.isEmpty else { return }
        let now = jobs
        jobs.removeAll(keepingCapacity: true)
        executor.run(now)
    }
}
