import Testing
import HealthSpoolCore
@testable import HealthExport

/// The read-ahead wrapper gives its reader what the inner stream gives, in order: every byte,
/// then the end or the error.
@Suite struct ReadAheadStreamTests {
    /// Bytes 0, 1, 2, … (mod 251) in uneven reads, failing after `failAfter` bytes if set.
    final class Counting: ByteStream {
        let total: Int
        let failAfter: Int?
        var position = 0
        var sourceBytesRead: Int64 { Int64(position) }
        init(total: Int, failAfter: Int? = nil) { self.total = total; self.failAfter = failAfter }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let limit = failAfter ?? total
            if position >= limit, failAfter != nil {
                throw ImportError.truncated(format: "test", offset: Int64(position), reason: "cut")
            }
            let n = min(buffer.count, limit - position, 1 + position % 7_777)
            for i in 0..<n { buffer[i] = UInt8((position + i) % 251) }
            position += n
            return n
        }
    }

    func drain(_ s: ByteStream, readSize: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        let buf = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
        defer { buf.deallocate() }
        while true {
            let n = try s.read(into: buf)
            if n == 0 { return out }
            out.append(contentsOf: buf[0..<n])
        }
    }

    @Test(arguments: [1, 1000, 70_000])
    func everyByteArrivesInOrderThenTheEnd(readSize: Int) throws {
        let stream = ReadAheadStream(Counting(total: 300_001), chunkSize: 65_536, depth: 2)
        let bytes = try drain(stream, readSize: readSize)
        #expect(bytes.count == 300_001)
        #expect(bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        #expect(stream.sourceBytesRead == 300_001)
        #expect(try stream.read(into: UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)) == 0)
    }

    @Test func anErrorComesAfterTheBytesReadBeforeIt() throws {
        let stream = ReadAheadStream(Counting(total: 1_000_000, failAfter: 100_003), chunkSize: 32_768, depth: 3)
        var got: [UInt8] = []
        let buf = UnsafeMutableRawBufferPointer.allocate(byteCount: 5_000, alignment: 1)
        defer { buf.deallocate() }
        let error = #expect(throws: ImportError.self) {
            while true {
                let n = try stream.read(into: buf)
                if n == 0 { break }
                got.append(contentsOf: buf[0..<n])
            }
        }
        #expect(got.count == 100_003)
        #expect("\(error!)".contains("cut"))
    }

    @Test func droppingTheStreamEarlyStopsItsThread() throws {
        for _ in 0..<20 {
            let stream = ReadAheadStream(Counting(total: 10_000_000), chunkSize: 4_096, depth: 2)
            let buf = UnsafeMutableRawBufferPointer.allocate(byteCount: 100, alignment: 1)
            defer { buf.deallocate() }
            #expect(try stream.read(into: buf) == 100)
        }
    }
}
