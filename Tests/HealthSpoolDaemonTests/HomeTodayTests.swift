@testable import HealthJournal
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import Testing
@testable import HealthSpoolDaemon
import HealthSpoolStore

/// Home is today (issue 28): the doses due with whether taken, the day's symptoms and figures,
/// the latest measurements, and one line only when sending needs attention.
@Suite struct HomeTodayTests {
    static let now = JournalHome.now   // 2026-01-01T10:00Z, a Thursday

    @Test func dosesDueTodayAreMatchedToTheDosesTakenInOrder() throws {
        let (context, dir) = try JournalHome.context()
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
        let (context, dir) = try JournalHome.context()
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

    /// Issue 40, "a glance": each figure against the median of the person's own last 30 days,
    /// in words and with an arrow; too few earlier figures say nothing.
    @Test func figuresSayHowTheyCompareWithThePersonsUsual() throws {
        let (context, dir) = try JournalHome.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        func at(_ daysAgo: Int64, hours: Int64 = 0) -> Timestamp {
            Timestamp(millis: Self.now.millis - daysAgo * 86_400_000 - hours * 3_600_000, utcOffsetSeconds: 0)
        }
        // Steps: 6,000 on four earlier days (and 9,000 once), 2,000 so far today.
        for (ago, steps) in [(1, 6_000.0), (2, 9_000), (3, 6_000), (5, 5_000), (40, 50_000)] {
            _ = try journal.measure(.steps(steps, from: at(Int64(ago), hours: 2), to: at(Int64(ago), hours: 1)), at: at(Int64(ago)), now: Self.now)
        }
        _ = try journal.measure(.steps(2_000, from: at(0, hours: 2), to: at(0, hours: 1)), at: at(0), now: Self.now)
        // Blood pressure: usual 120/80; today's top number 140. Weight: only two readings.
        for (ago, sys, dia) in [(1, 118.0, 79.0), (3, 120, 80), (6, 122, 81), (35, 180, 110)] {
            _ = try journal.measure(.bloodPressure(systolic: sys, diastolic: dia), at: at(Int64(ago)), now: Self.now)
        }
        _ = try journal.measure(.bloodPressure(systolic: 140, diastolic: 85), at: at(0, hours: 1), now: Self.now)
        _ = try journal.measure(.bodyMass(70, unit: "kg"), at: at(2), now: Self.now)
        _ = try journal.measure(.bodyMass(71, unit: "kg"), at: at(0, hours: 1), now: Self.now)

        let home = try HomeToday(store: try SampleStore.connect(to: context), zone: context.zone, configuration: context).view(now: Self.now)
        let glances = Dictionary(uniqueKeysWithValues: home.figures.map { ($0.id, $0.glance) })
        #expect(glances["steps"] == Glance(Usual(direction: .lower, median: 6_000), usual: "usual day 6,000", words: "fewer than a usual day so far"))
        #expect(glances["blood-pressure"] == Glance(Usual(direction: .higher, median: 120), usual: "usual 120/80 mmHg", words: "top number higher than usual"))
        #expect(glances["weight"] == .some(nil))
        let view = try journal.measurements(now: Self.now)
        #expect(view.glance(of: .bloodPressure, style: NumberStyle())?.arrow == "↑")
        #expect(view.glance(of: .weight, style: NumberStyle()) == nil)
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
        #expect(HomeView.attention(status: Self.status(error: "gateway answered HTTP 403", last: "2025-12-31T08:00:00Z"), today: today, zone: utc)
                == "Your data has not been sent since yesterday: the server does not accept its password or key.")
        // A refused connection whose port and milliseconds hold "401" and "403" is still one that does not answer.
        let refused = GatewayError.transport(code: 7, message: "Failed to connect to 127.0.0.1 port 40133 after 403 ms: Couldn't connect to server",
                                             url: "https://127.0.0.1:40133")
        #expect(HomeView.attention(status: Self.status(error: refused.description), today: today, zone: utc)
                == "Your data has not been sent yet: the server does not answer.")
        #expect(HomeView.attention(status: Self.status(error: "timed out"), today: today, zone: utc)
                == "Your data has not been sent yet: the server does not answer.")
        #expect(HomeView.attention(status: Self.status(state: "stopped"), today: today, zone: utc)
                == "Your data is not being sent: the background service is not running.")
    }

    /// Issue 43: a source that delivered daily and went quiet is one plain line on home, and the
    /// line goes when it delivers again; the time is the view's input.
    @Test func aQuietSourceIsOneLineUntilItDeliversAgain() throws {
        let (context, dir) = try JournalHome.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let store = try SampleStore.connect(to: context)
        let day: Int64 = 86_400_000
        let newest = Self.now.millis - 3 * day   // Monday 29 December 2025
        try store.saveFreshness(SourceFreshness(source: "Apple Watch", type: "heartRate", newestMillis: newest, arrivedMillis: newest,
                                                usualGapMillis: day, arrivals: 5))
        let home = HomeToday(store: store, zone: context.zone, configuration: context)
        #expect(try home.view(now: Self.now).quiet == ["Your Apple Watch has sent no heart rate since Monday 29 December"])
        #expect(try home.view(now: Timestamp(millis: newest + day)).quiet.isEmpty)   // not quiet yet
        _ = try store.insert([Sample(type: "heartRate", value: 61, unit: "count/min", start: Self.now, source: SampleSource(name: "Apple Watch"))],
                             now: Self.now)
        #expect(try home.view(now: Self.now).quiet.isEmpty)
    }
}
