@testable import HealthSpoolWeb
import HealthSpoolCore
import Testing

@Suite struct DayStripTests {
    @Test func aMonthAwayKeepsTheDayClampedToTheMonthsLastDay() {
        #expect(DayStrip.shifted(CivilDate(year: 2026, month: 3, day: 31), months: -1) == CivilDate(year: 2026, month: 2, day: 28))
        #expect(DayStrip.shifted(CivilDate(year: 2026, month: 12, day: 15), months: 1) == CivilDate(year: 2027, month: 1, day: 15))
        #expect(DayStrip.shifted(CivilDate(year: 2026, month: 1, day: 10), months: -1) == CivilDate(year: 2025, month: 12, day: 10))
    }

    @Test func theStripListsTheChosenDayBetweenItsNeighboursAsLinks() {
        let html = DayStrip.strip(selected: CivilDate(year: 2026, month: 11, day: 22), today: CivilDate(year: 2026, month: 11, day: 22))
        #expect(html.contains("href=\"/day/2026-11-22\" class=\"today\" aria-current=\"date\""))
        // Issue 40: the strip stops at today and shows as many earlier days instead.
        #expect(html.contains("href=\"/day/2026-10-25\"") && !html.contains("data-date=\"2026-11-23\""))
        #expect(html.components(separatedBy: "<li>").count - 1 == 29)
    }

    @Test func anEarlierDayHasItsNeighboursOnBothSidesUpToToday() {
        let html = DayStrip.strip(selected: CivilDate(year: 2026, month: 11, day: 27), today: CivilDate(year: 2026, month: 11, day: 28))
        #expect(html.contains("href=\"/day/2026-11-26\"") && html.contains("href=\"/day/2026-11-28\" class=\"today\""))
        #expect(!html.contains("data-date=\"2026-11-29\""))
        #expect(html.contains("href=\"/day/2026-10-31\"") && !html.contains("href=\"/day/2026-10-30\""))
        let month = DayStrip.strip(selected: CivilDate(year: 2026, month: 10, day: 1), today: CivilDate(year: 2026, month: 11, day: 28))
        #expect(month.contains("href=\"/day/2026-09-17\"") && month.contains("href=\"/day/2026-10-15\"") && !month.contains("href=\"/day/2026-10-16\""))
    }

    @Test func symptomScoresShadeInFiveSteps() {
        #expect([0, 1, 2, 3, 5, 6, 9, 10, 40].map(DayStrip.shade) == ["s0", "s1", "s1", "s2", "s2", "s3", "s3", "s4", "s4"])
    }
}

@Suite struct ImportUploadNameTests {
    @Test func anUploadedNameStaysInsideTheSpoolAndIsNeverHidden() {
        #expect(ImportUpload.storedName("export.zip") == "export.zip")
        #expect(ImportUpload.storedName("../../.bashrc") == "bashrc")
        #expect(ImportUpload.storedName(".partial") == "partial")
        #expect(ImportUpload.storedName("/") == "upload")
        #expect(ImportUpload.storedName("Export – März.xml") == "Export _ M_rz.xml")
        #expect(ImportUpload.storedName(String(repeating: "a", count: 300) + ".json").utf8.count == 120)
    }
}
