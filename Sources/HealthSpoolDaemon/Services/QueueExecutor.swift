import Dispatch

/// The daemon's serial coordination queue as a Swift `SerialExecutor`: an actor whose
/// `unownedExecutor` is this one runs its jobs on that queue, in order with the Dispatch blocks
/// still sent there (timers, the start of a stop). The coordination actors
/// (`StatusBoard`, `SpoolIntake`, `SyncCoordinator`) share it (issue 27):
/// their state is checked by the compiler, and code already on the queue that cannot await (a
/// timer's handler, a Dispatch block, one actor reading another in the same step) enters an
/// actor with `assumeIsolated`, which `checkIsolated()` lets through only on this queue (Linux
/// has no `DispatchSerialQueue` executor to do this).
///
/// It is a `TaskExecutor` too: a loop run with it as its preference (retention's) is woken from
/// a sleep on the queue, which Dispatch gives a thread when the cooperative pool has none free.
final class QueueExecutor: SerialExecutor, TaskExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor()) }
    }

    func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}
