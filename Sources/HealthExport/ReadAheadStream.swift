#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthSpoolLock

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

    /// The buffers in play and how the reading ended, guarded by `Shared.lock`.
    struct Buffers {
        var free: [UnsafeMutableRawBufferPointer] = []
        var filled: [Chunk] = []
        var failure: Error?
        var ended = false
        var cancelled = false
    }

    /// What the reading thread and the reader share (the thread holds only this, so dropping
    /// the stream stops it).
    ///
    /// `@unchecked Sendable`: the buffers' bookkeeping is only touched under `lock`; `inner` is
    /// read only by the reading thread while it runs, and by the reader only when there is no
    /// such thread; a buffer's bytes belong to whoever took it out of `free` or `filled`.
    final class Shared: @unchecked Sendable {
        let lock = Lock(Buffers())
        let inner: ByteStream
        let chunkSize: Int
        let all: [UnsafeMutableRawBufferPointer]

        init(inner: ByteStream, chunkSize: Int, depth: Int) {
            self.inner = inner
            self.chunkSize = chunkSize
            all = (0..<depth).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16) }
            let all = self.all
            lock.withLock { $0.free = all }
        }

        deinit {
            for b in all { b.deallocate() }
        }

        /// The reading thread: fills free buffers in order until the end, an error or a cancel.
        func produce() {
            while true {
                let taken = lock.wait(until: { !$0.free.isEmpty || $0.cancelled }) { b in
                    b.cancelled ? nil : b.free.removeLast()
                }
                guard let buffer = taken else { return }

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

                let done = atEnd || error != nil
                lock.withLock(wake: true) { b in
                    if count > 0 { b.filled.append(Chunk(buffer: buffer, count: count, sourceBytesRead: read)) } else { b.free.append(buffer) }
                    if let error { b.failure = error }
                    if done { b.ended = true }
                }
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
        shared.lock.withLock(wake: true) { $0.cancelled = true }
        if let thread { pthread_join(thread, nil) }
    }

    var sourceBytesRead: Int64 { thread != nil ? consumedSourceBytes : shared.inner.sourceBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard thread != nil else { return try shared.inner.read(into: buffer) }
        guard buffer.count > 0, !finished else { return 0 }
        if let chunk = current, offset == chunk.count {
            shared.lock.withLock(wake: true) { $0.free.append(chunk.buffer) }
            current = nil
        }
        if current == nil {
            let next: Result<Chunk, Error>? = shared.lock.wait(until: { !$0.filled.isEmpty || $0.ended }) { b in
                if !b.filled.isEmpty { return .success(b.filled.removeFirst()) }
                return b.failure.map { .failure($0) }
            }
            switch next {
            case let .success(chunk)?:
                current = chunk
            case let .failure(error)?:
                finished = true
                throw error
            case nil:
                finished = true
                return 0
            }
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
