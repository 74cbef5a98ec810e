#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads another stream on a thread of its own, a few chunks ahead of its reader: inflating a
/// zip member and checking its CRC-32 overlap with scanning the XML.
///
/// The reader sees exactly the bytes, the end and the error the inner stream gives, in the same
/// order; an error comes after the bytes read before it. Memory is `depth` chunks.
final class ReadAheadStream: ByteStream {
    /// One filled buffer.
    struct Chunk {
        var buffer: UnsafeMutableRawBufferPointer
        var count: Int
        /// The inner stream's `sourceBytesRead` once this chunk was read.
        var sourceBytesRead: Int64
    }

    /// What the reading thread and the reader share (the thread holds only this, so dropping
    /// the stream stops it).
    final class Shared: @unchecked Sendable {
        /// On the heap: a pthread mutex or condition must never move, and Swift promises no
        /// fixed address for a stored property passed with `&`.
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        var free: [UnsafeMutableRawBufferPointer] = []
        var filled: [Chunk] = []
        var failure: Error?
        var ended = false
        var cancelled = false
        let inner: ByteStream
        let chunkSize: Int
        let all: [UnsafeMutableRawBufferPointer]

        init(inner: ByteStream, chunkSize: Int, depth: Int) {
            self.inner = inner
            self.chunkSize = chunkSize
            all = (0..<depth).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16) }
            free = all
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            for b in all { b.deallocate() }
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(mutex)
            changed.deallocate()
            mutex.deallocate()
        }

        /// The reading thread: fills free buffers in order until the end, an error or a cancel.
        func produce() {
            while true {
                pthread_mutex_lock(mutex)
                while free.isEmpty && !cancelled { pthread_cond_wait(changed, mutex) }
                if cancelled { pthread_mutex_unlock(mutex); return }
                let buffer = free.removeLast()
                pthread_mutex_unlock(mutex)

                var count = 0
                var error: Error?
                var atEnd = false
                do {
                    while count < chunkSize {
                        let n = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                        if n == 0 { atEnd = true; break }
                        count += n
                    }
                } catch let e {
                    error = e
                }
                let read = inner.sourceBytesRead

                pthread_mutex_lock(mutex)
                if count > 0 { filled.append(Chunk(buffer: buffer, count: count, sourceBytesRead: read)) } else { free.append(buffer) }
                if let error { failure = error }
                let done = atEnd || error != nil
                if done { ended = true }
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(mutex)
                if done { return }
            }
        }
    }

    private let shared: Shared
    /// The reading thread; nil when none could be made (then reads go straight to the inner stream).
    private let thread: pthread_t?
    /// The chunk being read, and how far.
    private var current: Chunk?
    private var offset = 0
    private var consumedSourceBytes: Int64 = 0
    private var finished = false

    init(_ inner: ByteStream, chunkSize: Int = 1 << 20, depth: Int = 3) {
        let shared = Shared(inner: inner, chunkSize: chunkSize, depth: max(2, depth))
        self.shared = shared
        thread = startThread { shared.produce() }
    }

    deinit {
        pthread_mutex_lock(shared.mutex)
        shared.cancelled = true
        pthread_cond_broadcast(shared.changed)
        pthread_mutex_unlock(shared.mutex)
        if let thread { pthread_join(thread, nil) }
    }

    var sourceBytesRead: Int64 { thread != nil ? consumedSourceBytes : shared.inner.sourceBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard thread != nil else { return try shared.inner.read(into: buffer) }
        guard buffer.count > 0, !finished else { return 0 }
        if let chunk = current, offset == chunk.count {
            pthread_mutex_lock(shared.mutex)
            shared.free.append(chunk.buffer)
            pthread_cond_broadcast(shared.changed)
            pthread_mutex_unlock(shared.mutex)
            current = nil
        }
        if current == nil {
            pthread_mutex_lock(shared.mutex)
            while shared.filled.isEmpty && !shared.ended { pthread_cond_wait(shared.changed, shared.mutex) }
            if shared.filled.isEmpty {
                let failure = shared.failure
                pthread_mutex_unlock(shared.mutex)
                finished = true
                if let failure { throw failure }
                return 0
            }
            current = shared.filled.removeFirst()
            pthread_mutex_unlock(shared.mutex)
            offset = 0
            consumedSourceBytes = current!.sourceBytesRead
        }
        let chunk = current!
        let n = min(buffer.count, chunk.count - offset)
        buffer.baseAddress!.copyMemory(from: chunk.buffer.baseAddress! + offset, byteCount: n)
        offset += n
        return n
    }
}
