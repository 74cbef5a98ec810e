#if canImport(Glibc)
import Glibc
#endif

/// A thread of the ingest endpoint's own (the accept loop, one per connection): blocking
/// socket and TLS calls never run on the cooperative pool.
enum IngestThread {
    /// Starts `body` on a new joinable thread; nil when none could be made.
    static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// Starts `body` on a detached thread; false when none could be made.
    static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(body) else { return false }
        pthread_detach(thread)
        return true
    }
}
