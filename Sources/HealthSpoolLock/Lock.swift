#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock of the package: a mutex guarding a value, with a condition to wait on until the
/// value changes. Threads that block on purpose (the parse pipeline, the read-ahead thread, the
/// buffer pool of encoded batches) use this type and nothing else; everything else is confined
/// to a serial queue or an actor.
///
/// `@unchecked Sendable` because its invariant makes it safe: `state` is only read or written
/// while `mutex` is held (every access goes through `withLock` or `wait`), so any number of
/// threads may share the lock. The mutex and the condition live on the heap: a pthread object
/// must never move, and Swift gives a stored property passed with `&` no fixed address.
public final class Lock<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    /// A lock guarding `initial`.
    public init(_ initial: State) {
        state = initial
        Self.check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
        Self.check(pthread_cond_init(condition, nil), "pthread_cond_init")
    }

    deinit {
        Self.check(pthread_cond_destroy(condition), "pthread_cond_destroy")
        Self.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the state, the mutex held. When `body` changed what waiters wait for,
    /// pass `wake: true` so they look again.
    @inline(__always)
    public func withLock<R>(wake: Bool = false, _ body: (inout State) throws -> R) rethrows -> R {
        Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        defer {
            if wake { Self.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast") }
            Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        }
        return try body(&state)
    }

    /// Waits until `ready` holds for the state, then runs `body` with the mutex still held, and
    /// wakes the other waiters (`body` usually changes what they wait for).
    public func wait<R>(until ready: (State) -> Bool, then body: (inout State) throws -> R) rethrows -> R {
        Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        defer {
            Self.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
            Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        }
        while !ready(state) { Self.check(pthread_cond_wait(condition, mutex), "pthread_cond_wait") }
        return try body(&state)
    }

    /// A failing pthread call on a lock we own is a programming error (EINVAL, EDEADLK): stop
    /// with its name and code rather than run on unprotected.
    @inline(__always)
    private static func check(_ code: Int32, _ call: StaticString) {
        if code != 0 { fatalError("\(call) failed with \(code)") }
    }
}
