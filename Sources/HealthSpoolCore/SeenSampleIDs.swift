/// The ids a full export held, kept compactly while it is imported (issue 43), so that after
/// the import each stored sample can be asked about: did this export still hold it?
///
/// Ids are uniform hashes, so they are filed by their first bits: the top `bucketBits` bits of
/// the id's first 8 bytes pick a bucket, and the bucket keeps the next 32 bits (4 bytes an id).
/// The buckets have one fixed capacity, sized once from the number of ids `expected` (the
/// earlier full export's count: 32–64 ids a bucket on average, and a little more),
/// all in one flat array: no object per id or per bucket, no regrowth while the export is read.
/// An id whose bucket is full goes to a spill list that keeps its whole first 8 bytes (a good
/// guess spills ~3 %; a bad one spills more and costs 8 bytes an id, never an answer). `seal`
/// sorts each bucket in place (a few dozen values) and the spill list;
/// `contains` reads one bucket, starting where the value should lie if the bucket's values
/// were spread evenly, and steps from there (the spill list only when that bucket is full).
///
/// Ids arrive, and are asked about, in an order unrelated to their value, so each visit to a
/// bucket would be a miss of the processor's caches (the buckets take ~5 bytes an id): ids are
/// therefore filed, and asked about (`positionsNotHeld(in:)`), in batches put in bucket order
/// first (a counting sort), which walks the buckets front to back as they lie in memory.
///
/// What is compared is a prefix of the id: `bucketBits + 32` bits in a bucket, 64 bits in the
/// spill list. So `contains` errs in one direction only: it may say yes for an id the export did
/// not hold, when another id it held shares that prefix (a deletion goes unseen: the
/// conservative side; with ~40 values a bucket, about one chance in 10^8 per deleted sample);
/// it never says no for an id that was inserted, since every inserted id is in its bucket or
/// in the spill list. A sample is never called deleted because of how the ids are kept.
public struct SeenSampleIDs: Sendable {
    /// Bits of the id's first 8 bytes choosing its bucket (0…20).
    let bucketBits: Int
    /// Slots per bucket.
    let capacity: Int
    /// The buckets' slots, bucket after bucket: for each id, the 32 bits after its bucket bits.
    private var slots: ContiguousArray<UInt32>
    /// How many slots of each bucket are used.
    private var used: ContiguousArray<UInt32>
    /// The first 8 bytes of each id whose bucket was full.
    private(set) var spill: [UInt64] = []
    /// The first 8 bytes of ids noted but not yet filed (at most `batch`).
    private var pending: ContiguousArray<UInt64> = []
    private var sealed = true
    /// How many ids are filed, or asked about, at once.
    static let batch = 1 << 14

    /// How many ids were noted.
    public private(set) var count = 0

    /// Room for about `expected` ids (more fit: they spill, at 8 bytes each). Planned for at
    /// most 2^26 (a guess above it plans for 2^26).
    public init(expected: Int = 0) {
        let n = min(max(0, expected), 1 << 26)
        let bits = Self.bucketBits(expected: n)
        // The average a bucket, with 2 % more ids than expected (a newer export holds new
        // samples), and 2 more: near the least memory for buckets of a Poisson spread, where a
        // slot costs 4 bytes in every bucket and a spilled id 8 (a 1 GB export's 2.4 M ids:
        // ~3 % spill, 11.3 MB in all; one standard deviation more, ~0.7 %, took 12.3 MB).
        let mean = (n + n / 50 + (1 << bits) - 1) >> bits
        bucketBits = bits
        capacity = mean + 2
        slots = ContiguousArray(repeating: 0, count: capacity << bits)
        used = ContiguousArray(repeating: 0, count: 1 << bits)
    }

    /// The most bits (at most 20) that leave ~32 or more ids a bucket: `expected / 2^bits`
    /// in 32..<64.
    static func bucketBits(expected n: Int) -> Int {
        var bits = 0
        while bits < 20, n >> (bits + 6) != 0 { bits += 1 }
        return bits
    }

    /// The bucket of an id's first 8 bytes, and the 32 bits it keeps there.
    @inline(__always)
    private func place(_ high: UInt64) -> (bucket: Int, rest: UInt32) {
        (Int(truncatingIfNeeded: high >> UInt64(64 - bucketBits)), UInt32(truncatingIfNeeded: high >> UInt64(32 - bucketBits)))
    }

    /// Notes an id the export held.
    public mutating func insert(_ id: SampleID) {
        if pending.isEmpty { pending.reserveCapacity(Self.batch) }
        pending.append(id.high)
        count += 1
        sealed = false
        if pending.count >= Self.batch { filePending() }
    }

    /// Notes the ids of a batch of samples the export held.
    public mutating func insert(idsOf samples: [Sample]) {
        for i in samples.indices { insert(samples[i].id) }
    }

    /// Files the pending ids in their buckets, bucket after bucket.
    private mutating func filePending() {
        let order = bucketOrder(pending.count) { pending[$0] }
        for p in order {
            let high = pending[Int(p)]
            let (bucket, rest) = place(high)
            let n = Int(used[bucket])
            if n < capacity {
                slots[bucket * capacity + n] = rest
                used[bucket] = UInt32(n + 1)
            } else {
                spill.append(high)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The positions `0..<count` in the order of their ids' buckets (a counting sort;
    /// `high(p)` gives the first 8 bytes of the id at position `p`).
    private func bucketOrder(_ count: Int, _ high: (Int) -> UInt64) -> ContiguousArray<Int32> {
        var next = ContiguousArray<Int32>(repeating: 0, count: used.count + 1)
        for p in 0..<count { next[place(high(p)).bucket + 1] += 1 }
        for b in 0..<used.count { next[b + 1] += next[b] }
        var order = ContiguousArray<Int32>(repeating: 0, count: count)
        for p in 0..<count {
            let b = place(high(p)).bucket
            order[Int(next[b])] = Int32(p)
            next[b] += 1
        }
        return order
    }

    /// Sorts what was noted, for `contains` (after the last `insert`).
    public mutating func seal() {
        guard !sealed else { return }
        filePending()
        pending = []
        let used = used, capacity = capacity
        slots.withUnsafeMutableBufferPointer { slots in
            for bucket in 0..<used.count {
                Self.sort(slots, from: bucket * capacity, count: Int(used[bucket]))
            }
        }
        spill.sort()
        sealed = true
    }

    /// Whether the export held `id`, or an id sharing its compared prefix (after `seal`).
    public func contains(_ id: SampleID) -> Bool {
        precondition(sealed, "SeenSampleIDs.contains before seal")
        let (bucket, rest) = place(id.high)
        let n = Int(used[bucket])
        let found = slots.withUnsafeBufferPointer { Self.find(rest, in: $0, from: bucket * capacity, count: n) }
        if found { return true }
        // Only a full bucket spilled.
        return n == capacity && Self.binarySearch(id.high, in: spill)
    }

    /// The positions in `ids` (ascending) of the ids the export did not hold, nor any id
    /// sharing their compared prefix: `contains` for each, asked in bucket order (after `seal`;
    /// at most 2^31 ids).
    public func positionsNotHeld(in ids: [SampleID]) -> [Int] {
        var out: [Int] = []
        var from = 0
        while from < ids.count {
            let n = min(Self.batch, ids.count - from)
            let order = bucketOrder(n) { ids[from + $0].high }
            let before = out.count
            for p in order where !contains(ids[from + Int(p)]) { out.append(from + Int(p)) }
            out[before...].sort()
            from += n
        }
        return out
    }

    /// Sorts `count` values from `start` in place (insertion sort: a bucket holds a few dozen,
    /// at most `capacity`).
    static func sort(_ a: UnsafeMutableBufferPointer<UInt32>, from start: Int, count: Int) {
        guard count > 1 else { return }
        for i in (start + 1)..<(start + count) {
            let v = a[i]
            var j = i
            while j > start, a[j - 1] > v {
                a[j] = a[j - 1]
                j -= 1
            }
            a[j] = v
        }
    }

    /// Whether the sorted `count` values from `start` hold `v`: starts where `v` would lie if
    /// they were spread evenly over 32 bits, then steps up or down (a few steps for uniform
    /// values; at most `count` for any).
    static func find(_ v: UInt32, in a: UnsafeBufferPointer<UInt32>, from start: Int, count: Int) -> Bool {
        guard count > 0 else { return false }
        let end = start + count
        var i = start + Int((UInt64(v) &* UInt64(count)) >> 32)
        if a[i] < v {
            i += 1
            while i < end, a[i] < v { i += 1 }
            return i < end && a[i] == v
        }
        while i > start, a[i] > v { i -= 1 }
        return a[i] == v
    }

    /// Whether the sorted `a` holds `v`.
    static func binarySearch(_ v: UInt64, in a: [UInt64]) -> Bool {
        var low = 0, high = a.count
        while low < high {
            let mid = (low + high) / 2
            if a[mid] < v { low = mid + 1 } else { high = mid }
        }
        return low < a.count && a[low] == v
    }
}
