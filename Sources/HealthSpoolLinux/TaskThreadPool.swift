import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The threads Swift concurrency's global executor runs on in the daemon, in place of
/// Dispatch's global queues (issue 39).
///
/// On Linux, libdispatch watches the threads of its global queues: once a second, when work
/// waits in one of them, it opens `/proc/TID/stat` for each of their threads, and traps (SIGILL,
/// "workq: registered worker exited prematurely") when that open fails — as it does when the
/// process or the machine is out of file descriptors. Swift concurrency's default executor is
/// those queues, so a daemon out of descriptors, with a task waiting for a thread (a busy
/// machine), died. This pool makes its threads at start and waits on a futex: no job it runs
/// needs a descriptor. (`Task.sleep` still wakes through a Dispatch timer: for a sleep that must
/// not, see `ThreadExecutor`.)
///
/// Jobs run first come, first served; a task's priority does not reorder them. Blocking work
/// belongs on threads of its own, as everywhere in the daemon: a job that blocks holds one of
/// `threads` until it returns.
public final class TaskThreadPool: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [Entry] = []
        var head = 0
    }

    /// A job, and whether it came from the global executor (run on the generic executor, as
    /// Dispatch's would) or from a task that prefers this pool (run with it as task executor).
    private struct Entry {
        let job: UnownedJob
        let global: Bool
    }

    /// How many threads run jobs.
    public let threads: Int
    private let queue = Mutex(Queue())
    private let waiting = DispatchSemaphore(value: 0)
    private let threadIDs = Mutex<[pthread_t]>([])

    /// Starts `threads` threads. Fails only when the system refuses a thread.
    public init(threads: Int) throws(ThreadExecutorError) {
        self.threads = max(1, threads)
        for _ in 0..<self.threads {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let rc = pthread_create(&thread, nil, { raw in
                Unmanaged<TaskThreadPool>.fromOpaque(raw!).takeRetainedValue().serve()
                return nil
            }, context)
            guard rc == 0 else {
                // The threads made so far stay, waiting: the pool is not used.
                Unmanaged<TaskThreadPool>.fromOpaque(context).release()
                throw ThreadExecutorError(call: "pthread_create", code: rc)
            }
            pthread_detach(thread)
            threadIDs.withLock { $0.append(thread) }
        }
    }

    /// Twice the processors online, at least 4 and at most 32: Dispatch's pool on Linux grows
    /// to twice the processors when its threads block.
    public static var defaultThreads: Int {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return min(32, max(4, 2 * online))
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(Entry(job: UnownedJob(job), global: false))
    }

    /// Whether the calling thread is one of the pool's.
    public var isCurrent: Bool {
        let me = pthread_self()
        return threadIDs.withLock { $0.contains { pthread_equal($0, me) != 0 } }
    }

    private func push(_ entry: Entry) {
        queue.withLock { $0.jobs.append(entry) }
        waiting.signal()
    }

    private func pop() -> Entry {
        waiting.wait()
        return queue.withLock { q in
            let entry = q.jobs[q.head]
            q.head += 1
            if q.head == q.jobs.count {
                q.jobs.removeAll(keepingCapacity: true)
                q.head = 0
            } else if q.head >= 1024, q.head * 2 >= q.jobs.count {
                q.jobs.removeFirst(q.head)
                q.head = 0
            }
            return entry
        }
    }

    private func serve() {
        while true {
            let entry = pop()
            if entry.global {
                entry.job.runSynchronously(on: Self.genericExecutor)
            } else {
                entry.job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// The executor a job of the global executor runs on: the runtime's generic executor, two
    /// null words (what Dispatch's global executor passes to `swift_job_run`).
    private static let genericExecutor = unsafeBitCast((0, 0) as (Int, Int), to: UnownedSerialExecutor.self)

    // MARK: The global executor

    private typealias EnqueueGlobal = @convention(thin) (UnownedJob) -> Void
    private typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, EnqueueGlobal) -> Void

    /// The pool the global executor's hook sends jobs to, once installed.
    private static let installed = Mutex<TaskThreadPool?>(nil)

    /// Makes this pool Swift concurrency's global executor for the rest of the process (the
    /// runtime's `swift_task_enqueueGlobal_hook`): every job that would go to Dispatch's global
    /// queues comes here. Returns false when the runtime has no such hook or another pool is
    /// installed; call it once, before the process starts its tasks.
    @discardableResult
    public func installAsGlobalExecutor() -> Bool {
        let fresh = Self.installed.withLock { current -> Bool in
            guard current == nil else { return false }
            current = self
            return true
        }
        guard fresh, let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return false }
        let hook = symbol.assumingMemoryBound(to: EnqueueGlobalHook?.self)
        hook.pointee = { job, original in
            guard let pool = TaskThreadPool.installed.withLock({ $0 }) else { return original(job) }
            pool.push(Entry(job: job, global: true))
        }
        return true
    }
}

extension TaskThreadPool {
    /// The thread that ends `TaskThreadPool.sleep(for:)`'s sleeps; nil when the system refused it.
    static let timers: ThreadExecutor? = try? ThreadExecutor(name: "task timers")

    /// `Task.sleep(for:)` without Dispatch: `Task.sleep` wakes through a Dispatch timer that sends
    /// its job to a global queue, where libdispatch's monitor may trap when descriptors run out
    /// (see the type). This one wakes from a thread of its own (`ThreadExecutor`) and resumes the
    /// caller on its executor; it throws `CancellationError` as soon as the task is cancelled.
    /// Falls back to `Task.sleep` when that thread could not be made.
    public static func sleep(for duration: Duration, isolation: isolated (any Actor)? = #isolation) async throws {
        guard let timers else { return try await Task.sleep(for: duration) }
        try await timers.sleep(for: duration, isolation: isolation)
    }
}
