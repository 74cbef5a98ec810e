import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// The steps form of the measurements page: a count walked since a time today, stored like
/// `healthspool measure steps N --from HH:MM` (a `stepCount` sample from then until now), and
/// counted in the day's steps on Today, the day view and `healthspool day`.
enum StepsForm {
    /// The typed count and time read in the machine's zone at the request's time.
    static func parse(store: LentStore, _ fields: [String: String]) throws -> MeasurementEntry.Outcome {
        let journal = try store.records()
        return MeasurementEntry.parseSteps(fields: fields, now: journal.local(DaemonClock.now()), zone: journal.zone)
    }
}
