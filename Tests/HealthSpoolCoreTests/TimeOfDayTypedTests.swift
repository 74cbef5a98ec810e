import Testing
@testable import HealthSpoolCore

/// Issue 40: a time typed as a person types it is read as they meant it, or refused.
@Suite struct TimeOfDayTypedTests {
    @Test(arguments: [
        ("0900", "09:00"), ("900", "09:00"), ("9", "09:00"), ("09", "09:00"), ("9:00", "09:00"),
        ("09:00", "09:00"), ("9.00", "09:00"), ("9h00", "09:00"), ("9h", "09:00"), (" 9:05 ", "09:05"),
        ("2130", "21:30"), ("21:30", "21:30"), ("9am", "09:00"), ("9 AM", "09:00"), ("9:30 pm", "21:30"),
        ("9p", "21:00"), ("12 am", "00:00"), ("12pm", "12:00"), ("12:15 a.m.", "00:15"), ("0000", "00:00"),
    ])
    func readsAsMeant(typed: String, meant: String) {
        #expect(TimeOfDay(typed: typed)?.description == meant)
    }

    @Test(arguments: ["", "18:0900:07", "25:00", "9:7", "12345", "13pm", "0am", "9:60", "nine", "9:00:00", "-9", "9."])
    func refusesWhatIsNotATime(typed: String) {
        #expect(TimeOfDay(typed: typed) == nil)
    }

    @Test func aListTakesTypedTimes() throws {
        #expect(try TimeOfDay.list(parsing: "2000, 8am").map(\.description) == ["08:00", "20:00"])
    }
}
