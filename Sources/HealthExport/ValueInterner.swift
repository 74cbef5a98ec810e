/// Remembers the last few distinct attribute values (raw bytes → decoded value), so that the
/// strings repeated on every record of an export (source, version, device, unit, type) are
/// decoded and allocated once instead of once a record.
///
/// Keys live in plain memory and the slot that answered last is tried first: consecutive
/// records nearly always repeat it, and the lookup then costs one `memcmp` and no reference
/// counting.
struct ValueInterner<Value> {
    private final class Storage {
        let slots: Int
        let keys: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        let counts: UnsafeMutablePointer<Int>
        let values: UnsafeMutablePointer<Value?>
        // Read for every attribute value: unchecked, as the scanner's (see `XMLTagScanner`).
        @exclusivity(unchecked) var last = 0
        @exclusivity(unchecked) var next = 0

        init(slots: Int) {
            self.slots = slots
            keys = .allocate(capacity: slots)
            keys.initialize(repeating: nil, count: slots)
            counts = .allocate(capacity: slots)
            counts.initialize(repeating: -1, count: slots)
            values = .allocate(capacity: slots)
            values.initialize(repeating: nil, count: slots)
        }

        deinit {
            for i in 0..<slots { keys[i]?.deallocate() }
            keys.deallocate()
            counts.deallocate()
            values.deinitialize(count: slots)
            values.deallocate()
        }

        @inline(__always) func matches(_ i: Int, _ raw: UnsafeRawBufferPointer) -> Bool {
            counts[i] == raw.count && (raw.count == 0 || memcmp(keys[i]!, raw.baseAddress!, raw.count) == 0)
        }
    }

    private let storage: Storage

    init(slots: Int = 8) { storage = Storage(slots: max(1, slots)) }

    /// The value remembered for `raw`, or `make(raw)` (then remembered).
    @inline(__always)
    mutating func value(for raw: UnsafeRawBufferPointer, make: (UnsafeRawBufferPointer) -> Value) -> Value {
        let s = storage
        if s.matches(s.last, raw), let v = s.values[s.last] { return v }
        for i in 0..<s.slots where i != s.last && s.matches(i, raw) {
            if let v = s.values[i] {
                s.last = i
                return v
            }
        }
        let v = make(raw)
        let slot = s.next
        s.keys[slot]?.deallocate()
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, raw.count), alignment: 1)
        if raw.count > 0 { copy.copyMemory(from: raw.baseAddress!, byteCount: raw.count) }
        s.keys[slot] = copy
        s.counts[slot] = raw.count
        s.values[slot] = v
        s.last = slot
        s.next = (slot + 1) % s.slots
        return v
    }

    /// Forgets the value last made (one that must be made again each time it is asked for).
    mutating func forgetLast() {
        let s = storage
        s.counts[s.last] = -1
        s.values[s.last] = nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
