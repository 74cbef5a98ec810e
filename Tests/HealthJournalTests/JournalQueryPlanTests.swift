import Testing
import HealthSpoolCore
@testable import HealthJournal
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// The journal's reads by day go through the `*_day` indexes, never a scan.
@Suite struct JournalQueryPlanTests {
    @Test func aDaysEntriesAreReadThroughTheDayIndexNotAScan() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/plan.db")
        let plan = try store.conn.prepare("EXPLAIN QUERY PLAN SELECT \(JournalStore.symptomColumns) FROM symptom_entries WHERE day = 1 AND deleted = 0")
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3) ?? "") }
        #expect(details.contains { $0.contains("USING INDEX symptom_entries_day") }, "\(details)")
    }

    /// The calendar's shading reads a month's scores in one range of the day index.
    @Test func aMonthsSeverityTotalsAreOneRangeOfTheDayIndex() throws {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let store = try SampleStore(path: dir + "/plan.db")
        let plan = try store.conn.prepare("EXPLAIN QUERY PLAN \(JournalStore.severityTotalsQuery)")
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3) ?? "") }
        #expect(details.contains { $0.contains("USING INDEX symptom_entries_day (day>? AND day<?)") }, "\(details)")
    }
}
