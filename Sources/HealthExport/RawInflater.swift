import CZlib
import HealthSpoolCore

/// One raw-deflate decompressor (zlib's `z_stream`) and the input buffer it reads from, owned
/// together and freed once, in `deinit`.
///
/// The `z_stream` lives on the heap: zlib keeps a pointer back to it and refuses to work once
/// the struct moves. The initializer throws only before it stores anything, so a failed start
/// frees what it made itself and `deinit` never runs on half-made state.
final class RawInflater {
    /// zlib's state, initialized with `inflateInit2(-15)` (raw deflate, as zip stores it).
    let stream: UnsafeMutablePointer<z_stream>
    /// Compressed bytes waiting for zlib (`stream.next_in` points into it).
    let input: UnsafeMutableRawBufferPointer

    /// Why zlib could not start (out of memory, a library mismatch).
    struct StartError: Error { let code: Int32 }

    init(inputCapacity: Int) throws {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = hs_inflate_init_raw(stream)
        guard rc == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw StartError(code: rc)
        }
        self.stream = stream
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: inputCapacity, alignment: 16)
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }
}
