import Testing
@testable import HealthSpoolCore

/// When a newer full export's missing samples count as deleted, and how many one import may
/// mark (issue 43).
@Suite struct DeletionInferenceTests {
    let earlier = Timestamp(millis: 1_767_254_400_000)   // 2026-01-01
    let later = Timestamp(millis: 1_767_859_200_000)     // 2026-01-08

    @Test func onlyACleanFullExportNewerThanTheNewestSeenInfersSinceTheEarlierDate() {
        #expect(DeletionInference.eligibility(exportDate: later, newestSeen: earlier, clean: true) == .infer(since: earlier))
        // Health Auto Export, native, CSV: no ExportDate, partial by nature.
        #expect(DeletionInference.eligibility(exportDate: nil, newestSeen: earlier, clean: true) == .notFullExport)
        // A problem, a failure or an interruption: not the phone's whole store.
        #expect(DeletionInference.eligibility(exportDate: later, newestSeen: earlier, clean: false) == .unclean)
        // The first full export: nothing to compare with.
        #expect(DeletionInference.eligibility(exportDate: later, newestSeen: nil, clean: true) == .firstExport)
        // An older export, or the same one again.
        #expect(DeletionInference.eligibility(exportDate: earlier, newestSeen: later, clean: true) == .notNewer(newest: later))
        #expect(DeletionInference.eligibility(exportDate: later, newestSeen: later, clean: true) == .notNewer(newest: later))
    }

    @Test(arguments: [(50, 10_000, 1, true), (100, 10_000, 1, true), (101, 10_000, 1, false), (1, 99, 1, false),
                      (0, 0, 1, true), (1, 10_000, 0, false), (0, 10_000, 0, true), (2_000, 10_000, 20, true)])
    func theBoundIsAPercentOfTheStoredSamplesOfTheRange(candidates: Int, stored: Int, percent: Int, applies: Bool) {
        let decision = DeletionInference.decide(candidates: candidates, stored: stored, boundPercent: percent)
        #expect(decision == (applies ? .apply : .hold(limit: stored * percent / 100)))
    }

    @Test func theSeenSetHoldsWhatWasNotedInAnyOrder() {
        let ids = (0..<1000).map { i in
            SampleID(bytes: withUnsafeBytes(of: (UInt64(i) &* 0x9E37_79B9_7F4A_7C15).bigEndian) { Array($0) } + [UInt8](repeating: UInt8(i % 256), count: 8))
        }
        var seen = SeenSampleIDs()
        for id in ids.reversed() where id != ids[500] { seen.insert(id) }
        seen.seal()
        #expect(seen.count == 999)
        #expect(ids.filter { !seen.contains($0) } == [ids[500]])
    }
}
