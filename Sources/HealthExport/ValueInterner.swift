/// Remembers the last few distinct attribute values (raw bytes → decoded value), so that the
/// strings repeated on every record of an export (source, version, device, unit, type) are
/// decoded and allocated once instead of once a record.
struct ValueInterner<Value> {
    private var keys: [[UInt8]]
    private var values: [Value?]
    private var nextSlot = 0

    init(slots: Int = 8) {
        keys = Array(repeating: [], count: slots)
        values = Array(repeating: nil, count: slots)
    }

    /// The value remembered for `raw`, or `make(raw)` (then remembered).
    @inline(__always)
    mutating func value(for raw: UnsafeRawBufferPointer, make: (UnsafeRawBufferPointer) -> Value) -> Value {
        for i in 0..<keys.count {
            if keys[i].count == raw.count, let v = values[i],
               keys[i].withUnsafeBytes({ raw.count == 0 || memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) {
                return v
            }
        }
        let v = make(raw)
        keys[nextSlot] = Array(raw)
        values[nextSlot] = v
        nextSlot = (nextSlot + 1) % keys.count
        return v
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
