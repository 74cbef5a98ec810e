import Testing
@testable import HealthSpoolCore

/// The ids a full export held, kept as bucketed 4-byte prefixes (issue 43): an id that was
/// inserted is always found, whatever the guessed size, the order or the values; a prefix shared
/// by two ids can only make an absent id look present (a deletion unseen), never the reverse.
@Suite struct SeenSampleIDsTests {
    /// Hash-like ids (SplitMix64), the same every run.
    static func ids(_ count: Int, seed: UInt64 = 1) -> [SampleID] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<count).map { _ in id(high: next(), low: next()) }
    }

    static func id(high: UInt64, low: UInt64) -> SampleID {
        SampleID(bytes: withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) })
    }

    @Test(arguments: [0, 1, 1_000])
    func emptyHoldsNothing(expected: Int) {
        var seen = SeenSampleIDs(expected: expected)
        seen.seal()
        #expect(seen.count == 0)
        for id in Self.ids(100) + [Self.id(high: 0, low: 0), Self.id(high: .max, low: .max)] {
            #expect(!seen.contains(id))
        }
    }

    @Test(arguments: [0, 1, 1_000])
    func oneIDIsFoundAndNoOther(expected: Int) {
        let ids = Self.ids(50)
        var seen = SeenSampleIDs(expected: expected)
        seen.insert(ids[0])
        seen.seal()
        #expect(seen.count == 1)
        #expect(seen.contains(ids[0]))
        #expect(ids.dropFirst().allSatisfy { !seen.contains($0) })
    }

    /// Every inserted id is found and (with hash-like ids) no other, whether the guess of the
    /// size was right, far too small (most spill) or far too large.
    @Test(arguments: [0, 100, 20_000, 1_000_000])
    func insertedIDsAreFoundWhateverTheGuess(expected: Int) {
        let ids = Self.ids(20_000)
        var seen = SeenSampleIDs(expected: expected)
        var inserted = 0
        for (i, id) in ids.enumerated().reversed() where i % 7 != 3 {
            seen.insert(id)
            inserted += 1
        }
        seen.seal()
        #expect(seen.count == inserted)
        let missing = ids.enumerated().filter { !seen.contains($0.element) }.map(\.offset)
        #expect(missing == Array(stride(from: 3, to: ids.count, by: 7)))
    }

    /// More ids than one batch (`SeenSampleIDs.batch`), noted and asked about in batches put
    /// in bucket order: the positions not held come back in order, as `contains` says.
    @Test(arguments: [0, 150_000])
    func positionsNotHeldAcrossBatches(expected: Int) {
        let ids = Self.ids(150_000, seed: 7)
        #expect(ids.count > 2 * SeenSampleIDs.batch)
        var seen = SeenSampleIDs(expected: expected)
        for (i, id) in ids.enumerated() where i % 1_000 != 999 { seen.insert(id) }
        seen.seal()
        let expectedAbsent = Array(stride(from: 999, to: ids.count, by: 1_000))
        #expect(seen.positionsNotHeld(in: ids) == expectedAbsent)
        #expect(ids.indices.filter { !seen.contains(ids[$0]) } == expectedAbsent)
        #expect(seen.positionsNotHeld(in: []) == [])
        #expect(SeenSampleIDs().positionsNotHeld(in: Array(ids[..<5])) == [0, 1, 2, 3, 4])
    }

    @Test func aGoodGuessSpillsLittle() {
        let ids = Self.ids(100_000)
        var seen = SeenSampleIDs(expected: ids.count)
        for id in ids { seen.insert(id) }
        seen.seal()
        #expect(seen.spill.count < ids.count / 20)
        var small = SeenSampleIDs(expected: 1_000)
        for id in ids { small.insert(id) }
        small.seal()
        #expect(small.spill.count > ids.count / 2)
    }

    /// Ids sharing their whole first 8 bytes fill one bucket, then spill; all are found.
    @Test(arguments: [0, 64, 100_000])
    func allEqualPrefixesAreFound(expected: Int) {
        let ids = (0..<500).map { Self.id(high: 0x1234_5678_9ABC_DEF0, low: UInt64($0)) }
        var seen = SeenSampleIDs(expected: expected)
        for id in ids { seen.insert(id) }
        seen.seal()
        #expect(seen.count == 500)
        #expect(ids.allSatisfy { seen.contains($0) })
        #expect(seen.spill.count == 500 - seen.capacity)
        #expect(!seen.contains(Self.id(high: 0x1234_5679_9ABC_DEF0, low: 0)))
    }

    /// What a shared prefix does: an absent id looks present (a deletion unseen, the safe
    /// side). The bucket compares `bucketBits + 32` bits of the first 8 bytes; the spill list
    /// all 64.
    @Test func aSharedPrefixOnlyEverSaysPresent() {
        var seen = SeenSampleIDs(expected: 2_500_000)
        #expect(seen.bucketBits == 16)
        let held = Self.id(high: 0xAAAA_BBBB_CCCC_0001, low: 7)
        seen.insert(held)
        seen.seal()
        // Same 48 compared bits, other last 16 bits and other second half: counted as held.
        #expect(seen.contains(Self.id(high: 0xAAAA_BBBB_CCCC_FFFF, low: 8)))
        // One compared bit differs: absent.
        #expect(!seen.contains(Self.id(high: 0xAAAA_BBBB_CCCD_0001, low: 7)))
        #expect(!seen.contains(Self.id(high: 0xAAAB_BBBB_CCCC_0001, low: 7)))
    }

    /// The extremes of a bucket: values 0 and 2^32 − 1, and ids of all zero or all one bits.
    @Test func extremeValuesAreFound() {
        let ids = [Self.id(high: 0, low: 0), Self.id(high: .max, low: .max), Self.id(high: 0xFFFF_FFFF, low: 1),
                   Self.id(high: 0xFFFF_FFFF_0000_0000, low: 2), Self.id(high: 1, low: 3)]
        for expected in [0, 10, 3_000_000] {
            var seen = SeenSampleIDs(expected: expected)
            for id in ids.reversed() { seen.insert(id) }
            seen.seal()
            #expect(ids.allSatisfy { seen.contains($0) })
            #expect(!seen.contains(Self.id(high: 0x8000_0000_0000_0000, low: 0)))
        }
    }

    @Test func insertingAfterSealNeedsAnotherSeal() {
        let ids = Self.ids(1_000)
        var seen = SeenSampleIDs(expected: 1_000)
        for id in ids[..<500] { seen.insert(id) }
        seen.seal()
        for id in ids[500...] { seen.insert(id) }
        seen.seal()
        #expect(ids.allSatisfy { seen.contains($0) })
    }

    @Test func aBatchOfSamplesIsNotedByID() {
        let samples = Self.ids(10).enumerated().map { i, id in
            Sample(storedID: id, type: "heartRate", value: 60, unit: "count/min", start: Timestamp(millis: Int64(i)),
                   end: Timestamp(millis: Int64(i)), source: SampleSource(name: "Watch"))
        }
        var seen = SeenSampleIDs(expected: 10)
        seen.insert(idsOf: Array(samples[..<9]))
        seen.seal()
        #expect(seen.count == 9)
        #expect(samples.map { seen.contains($0.id) } == Array(repeating: true, count: 9) + [false])
    }

    @Test(arguments: [(0, 0), (31, 0), (32, 0), (63, 0), (64, 1), (1_000, 4), (2_443_788, 16), (1 << 26, 20), (1 << 40, 20)])
    func bucketsHoldAboutThirtyTwoToSixtyFourIDs(expected: Int, bits: Int) {
        #expect(SeenSampleIDs.bucketBits(expected: expected) == bits)
    }

    /// The in-bucket sort and search on their own: duplicates, all equal, absent below the
    /// least and above the greatest, a bucket starting past the buffer's start.
    @Test func sortAndFindWithinABucket() {
        var values: [UInt32] = [9, 0, UInt32.max, 5, 5, 5, 1 << 31, 7]
        values.withUnsafeMutableBufferPointer { SeenSampleIDs.sort($0, from: 1, count: 6) }
        #expect(values == [9, 0, 5, 5, 5, 1 << 31, UInt32.max, 7])
        values.withUnsafeBufferPointer { a in
            for v: UInt32 in [0, 5, 1 << 31, .max] { #expect(SeenSampleIDs.find(v, in: a, from: 1, count: 6)) }
            for v: UInt32 in [1, 4, 6, 9, 7, (1 << 31) + 1, .max - 1] { #expect(!SeenSampleIDs.find(v, in: a, from: 1, count: 6)) }
            #expect(!SeenSampleIDs.find(9, in: a, from: 1, count: 0))
        }
        let same = [UInt32](repeating: 42, count: 40)
        same.withUnsafeBufferPointer { a in
            #expect(SeenSampleIDs.find(42, in: a, from: 0, count: 40))
            #expect(!SeenSampleIDs.find(41, in: a, from: 0, count: 40))
            #expect(!SeenSampleIDs.find(43, in: a, from: 0, count: 40))
        }
    }
}
