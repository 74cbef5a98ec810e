import HealthSpoolCore
import HealthSpoolLinux
import Testing
@testable import HealthSpoolDaemon
import HealthSpoolStore

/// Home is today (issue 28): the doses due with whether taken, the day's symptoms and figures,
/// the latest measurements, and one line only when sending needs attention.
@Suite struct HomeTodayTests {
    static let now = JournalRunnerTests.now   // 2026-01-01T10:00Z, a Thursday

    @Test func dosesDueTodayAreMatchedToTheDosesTakenInOrder() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        _ = try journal.addMedication(Medication(name: "Ibuprofen", dose: "400 mg"), now: Self.now)
        _ = try journal.addReminder(name: "Pills", kind: nil, times: [TimeOfDay(hour: 20, minute: 0)!, TimeOfDay(hour: 8, minute: 0)!],
                                    rule: RecurrenceRule(.daily), start: CivilDate(year: 2025, month: 12, day: 1), medication: "Ibuprofen",
                                    now: Timestamp(millis: Self.now.millis - 86_400_000, utcOffsetSeconds: 0))
        _ = try journal.addReminder(name: "Walk", kind: nil, times: [TimeOfDay(hour: 9, minute: 0)!],
                                    rule: RecurrenceRule(.daily), start: nil, medication: nil, now: Self.now)
        _ = try journal.takeDose("Ibuprofen", at: Timestamp(millis: Self.now.millis - 3_600_000, utcOffsetSeconds: 0))
        _ = try journal.measure(.bloodPressure(systolic: 128, diastolic: 82), at: Timestamp(millis: Self.now.millis - 60_000, utcOffsetSeconds: 0), now: Self.now)
        _ = try journal.measure(.bodyMass(70, unit: "kg"), at: Timestamp(millis: Self.now.millis - 86_400_000, utcOffsetSeconds: 0), now: Self.now)

        let home = try HomeToday(store: try SampleStore.connect(to: context), zone: context.zone, configuration: context).view(now: Self.now)
        #expect(home.date == CivilDate(year: 2026, month: 1, day: 1))
        #expect(home.doses.map { "\($0.time) \($0.medication) \($0.taken)" } == ["08:00 Ibuprofen 400 mg true", "20:00 Ibuprofen 400 mg false"])
        let figures = Dictionary(uniqueKeysWithValues: home.figures.map { ($0.id, $0.text + ($0.when.map { " " + $0 } ?? "")) })
        #expect(figures["steps"] == "none yet")
        #expect(figures["blood-pressure"] == "128/82 mmHg at 09:59")
        #expect(figures["weight"] == "70 kg yesterday")
        #expect(home.symptoms.isEmpty && home.goals.isEmpty)
    }

    /// Issue 40: a reminder made at 10:00 asks for that day's 20:00 dose, not for the 08:00 one
    /// that was due before it existed (it was counted as due, and late, in the summary).
    @Test func aReminderMadeTodayAsksOnlyForTheTimesAfterItWasMade() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        _ = try journal.addMedication(Medication(name: "Metformin", dose: "500 mg"), now: Self.now)
        _ = try journal.addReminder(name: "Pills", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!, TimeOfDay(hour: 20, minute: 0)!],
                                    rule: RecurrenceRule(.daily), start: nil, medication: "Metformin", now: Self.now)
        let home = try HomeToday(store: try SampleStore.connect(to: context), zone: context.zone, configuration: context).view(now: Self.now)
        #expect(home.doses.map { "\($0.time) \($0.medication) \($0.taken)" } == ["20:00 Metformin 500 mg false"])
        let tomorrow = Timestamp(millis: Self.now.millis + 86_400_000, utcOffsetSeconds: 0)
        let next = try HomeToday(store: try SampleStore.connect(to: context), zone: context.zone, configuration: context).view(now: tomorrow)
        #expect(next.doses.map(\.time) == ["08:00", "20:00"])
    }

    static func status(state: String = "idle", url: String? = "https://gw.example", error: String? = nil, last: String? = nil) -> JSONValue {
        .object([
            ("daemon", .object([("state", .string(state))])),
            ("gateway", .object([("url", url.map(JSONValue.string) ?? .null), ("error", error.map(JSONValue.string) ?? .null)])),
            ("lastSuccessfulSync", last.map { .object([("at", .string($0))]) } ?? .null),
        ])
    }

    @Test func theAttentionLineSaysSinceWhenAndWhyInPlainWords() {
        let today = CivilDate(year: 2026, month: 1, day: 1)   // Thursday
        let utc = ZoneRules.utc
        #expect(HomeView.attention(status: Self.status(), today: today, zone: utc) == nil)
        #expect(HomeView.attention(status: Self.status(url: nil), today: today, zone: utc) == nil)
        #expect(HomeView.attention(status: Self.status(error: "Could not connect to server (curl 7)", last: "2025-12-30T08:00:00Z"), today: today, zone: utc)
                == "Your data has not been sent since Tuesday: the server does not answer.")
        #expect(HomeView.attention(status: Self.status(error: "HTTP 401", last: "2025-12-31T08:00:00Z"), today: today, zone: utc)
                == "Your data has not been sent since yesterday: the server does not accept its password or key.")
        #expect(HomeView.attention(status: Self.status(error: "timed out"), today: today, zone: utc)
                == "Your data has not been sent yet: the server does not answer.")
        #expect(HomeView.attention(status: Self.status(state: "stopped"), today: today, zone: utc)
                == "Your data is not being sent: the background service is not running.")
    }
}
