@testable import HealthJournal
import HealthSpoolCore
import HealthSpoolLinux
import Testing

/// Issue 40, item 3: steps typed in are listed by day like every measurement typed in, so they
/// can be changed and deleted once Undo has expired; not among the latest readings.
@Suite struct TypedStepsTests {
    static let now = JournalRunnerTests.now   // 2026-01-01T10:00Z
    static let hour: Int64 = 3_600_000

    static func at(_ hoursBefore: Int64) -> Timestamp { Timestamp(millis: now.millis - hoursBefore * hour, utcOffsetSeconds: 0) }

    @Test func typedStepsAreListedAndCanBeChangedAndDeleted() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        let (samples, _) = try journal.measure(.steps(4200, from: Self.at(2), to: Self.at(1)), at: Self.now, now: Self.now)
        _ = try journal.measure(.heartRate(72), at: Self.at(1), now: Self.now)

        let view = try journal.measurements(now: Self.now)
        let steps = try #require(view.days.first?.readings.first { $0.kind == .steps })
        #expect(steps.key == HealthJournal.key(of: samples))
        #expect("\(steps.time) \(steps.line)" == "08:00 Steps 4,200 steps until 09:00")
        #expect(!view.latest.contains { $0.kind == .steps })
        #expect(view.text.contains("08:00  Steps 4,200 steps until 09:00"), "\(view.text)")

        // Changed: the count, over the same time; the day's steps follow.
        let (old, newKey) = try journal.editSteps(steps.key, to: 4500, now: Self.now)
        #expect(old.text == "4,200 steps until 09:00")
        let new = try journal.measurement(newKey)
        #expect(new.kind == .steps && new.value == 4500 && new.at.millis == Self.at(2).millis && new.end?.millis == Self.at(1).millis)
        #expect(try journal.store.samples(type: "stepCount", source: ManualMeasurement.source, fromMillis: 0, toMillis: Int64.max, limit: 10)
            .map(\.sample.value) == [4500])

        // Deleted: gone from the list.
        _ = try journal.deleteMeasurement(newKey)
        #expect(try journal.measurements(now: Self.now).days.flatMap(\.readings).allSatisfy { $0.kind != .steps })
    }
}
