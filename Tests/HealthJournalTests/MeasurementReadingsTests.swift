@testable import HealthJournal
import HealthSpoolCore
import HealthSpoolLinux
import Testing

/// Measurements typed in are shown back: the measurements page's view and the day view list
/// them from the same use case, formatted for people.
@Suite struct MeasurementReadingsTests {
    static let now = JournalRunnerTests.now   // 2026-01-01T10:00Z
    static let hour: Int64 = 3_600_000

    static func at(_ hoursBefore: Int64) -> Timestamp { Timestamp(millis: now.millis - hoursBefore * hour, utcOffsetSeconds: 0) }

    @Test func readingsAreFormattedForPeopleAndListedByDayNewestFirst() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        _ = try journal.measure(.bloodPressure(systolic: 128, diastolic: 82), at: Self.at(1), now: Self.now)
        _ = try journal.measure(.heartRate(72), at: Self.at(2), now: Self.now)
        _ = try journal.measure(.oxygenSaturation(97), at: Self.at(26), now: Self.now)
        _ = try journal.measure(.bloodGlucose(98, unit: "mg/dL"), at: Self.at(27), now: Self.now)
        _ = try journal.measure(.bloodPressure(systolic: 141, diastolic: 90), at: Self.at(50), now: Self.now)
        _ = try journal.measure(.bodyMass(160, unit: "lb"), at: Self.at(51), now: Self.now)

        let view = try journal.measurements(now: Self.now)
        #expect(view.days.map(\.date.description) == ["2026-01-01", "2025-12-31", "2025-12-30"])
        #expect(view.days[0].readings.map { "\($0.time) \($0.line)" } == ["09:00 Blood pressure 128/82 mmHg", "08:00 Heart rate 72 bpm"])
        #expect(view.days[1].readings.map { "\($0.time) \($0.line)" } == ["08:00 Blood oxygen 97 %", "07:00 Blood sugar 5.4 mmol/L (98 mg/dL)"])
        let latest = view.latest.map { "\($0.kind.rawValue): \($0.reading?.text ?? "none")" }
        #expect(latest == ["bloodPressure: 128/82 mmHg", "heartRate: 72 bpm", "oxygen: 97 %", "glucose: 5.4 mmol/L", "weight: 72.6 kg"])

        #expect(view.text.hasPrefix("""
            Latest (last 90 days)
              Blood pressure  128/82 mmHg, 2026-01-01 09:00
              Heart rate      72 bpm, 2026-01-01 08:00
            """), "\(view.text)")
        #expect(view.text.contains("2025-12-31\n  08:00  Blood oxygen 97 %\n  07:00  Blood sugar 5.4 mmol/L (98 mg/dL)\n"), "\(view.text)")

        let mg = try journal.measurements(now: Self.now, glucoseUnit: .mgPerDL)
        #expect(mg.days[1].readings[1].line == "Blood sugar 98 mg/dL (5.4 mmol/L)")
    }

    @Test func glucoseIsShownInTheUnitChosenInSettingsWithTheOtherBeside() throws {
        let (context, dir) = try JournalRunnerTests.context(["HEALTHSPOOL_JOURNAL_GLUCOSE_UNIT": "mg/dL"])
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        _ = try journal.measure(.bloodGlucose(5.4, unit: "mmol/L"), at: Self.at(1), now: Self.now)
        let view = try journal.measurements(now: Self.now)
        #expect(view.glucoseUnit == .mgPerDL)
        #expect(view.days[0].readings.map(\.line) == ["Blood sugar 97 mg/dL (5.4 mmol/L)"])
    }

    @Test func readingsAreWrittenInTheUsersLocale() throws {
        let (context, dir) = try JournalRunnerTests.context(["LANG": "de_DE.UTF-8"])
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        _ = try journal.measure(.bodyMass(72.6, unit: "kg"), at: Self.at(1), now: Self.now)
        _ = try journal.measure(.bloodGlucose(98, unit: "mg/dL"), at: Self.at(2), now: Self.now)
        _ = try journal.measure(.oxygenSaturation(97.5), at: Self.at(3), now: Self.now)
        let lines = try journal.measurements(now: Self.now).days[0].readings.map(\.line)
        #expect(lines == ["Weight 72,6 kg", "Blood sugar 5,4 mmol/L (98 mg/dL)", "Blood oxygen 97,5 %"])
    }

    @Test func theDayViewListsTheDaysMeasurementsInTextAndJSON() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let days = try HealthDays(journal: HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context))
        _ = try days.journal.measure(.heartRate(64), at: Self.at(3), now: Self.now)
        _ = try days.journal.measure(.bloodPressure(systolic: 128, diastolic: 82), at: Self.at(1), now: Self.now)
        _ = try days.journal.measure(.heartRate(99), at: Self.at(30), now: Self.now)   // the day before
        let day = try days.day(CivilDate(year: 2026, month: 1, day: 1))
        #expect(day.measurements.map(\.line) == ["Heart rate 64 bpm", "Blood pressure 128/82 mmHg"])
        let text = DayText.render(day, zone: days.zone)
        #expect(text.contains("Measurements  07:00 Heart rate 64 bpm\n              09:00 Blood pressure 128/82 mmHg"), "\(text)")
        var w = JSONWriter(capacity: 1024)
        w.value(try #require(day.json.objectValue?.first { $0.0 == "measurements" }?.1))
        // Each reading names itself by its id (`measure delete ID`): its start and first sample's id.
        let bp = day.measurements[1]
        #expect(bp.key == "\(Self.at(1).millis).\(bp.parts[0].id)")
        #expect(w.text.contains(#"{"id":"\#(bp.key)","kind":"bloodPressure","at":"2026-01-01T09:00:00.000Z","value":128,"diastolic":82,"text":"128/82 mmHg"}"#), "\(w.text)")
    }
}
