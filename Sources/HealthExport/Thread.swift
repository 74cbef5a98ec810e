#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `body` on a new joinable thread with an 8 MiB stack; nil when no thread could be
/// made (the caller then does the work in line). The parse pipeline and the read-ahead stream
/// share this.
func startThread(_ body: @escaping () -> Void) -> pthread_t? {
    final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Work(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 8 << 20)
    let rc = pthread_create(&thread, &attributes, { raw in
        Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context)
    pthread_attr_destroy(&attributes)
    guard rc == 0 else {
        Unmanaged<Work>.fromOpaque(context).release()
        return nil
    }
    return thread
}
