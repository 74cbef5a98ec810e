@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon

/// The steps form of the measurements page: a count walked since a time today, stored like
/// `healthspool measure steps N --from HH:MM` (a `stepCount` sample from then until now), and
/// counted in the day's steps on Today, the day view and `healthspool day`.
enum StepsForm {
    static func render(_ p: inout Page, typed: MeasurePage.Typed?) {
        p.raw("<h3 id=\"steps-h\">Steps</h3>")
        p.form("/measure") { p in
            p.raw("<input type=\"hidden\" name=\"kind\" value=\"steps\"><div class=\"row\">")
            p.field("Number of steps", name: "value-steps", value: typed?.value("value-steps", of: "steps") ?? "",
                    extra: "required autocomplete=\"off\" inputmode=\"numeric\"", hint: "A whole number, for example 4200",
                    error: typed?.error("value-steps", of: "steps"))
            let since = typed?.value("since", of: "steps") ?? ""
            p.field("Counted since (time today)", name: "since", value: since.isEmpty ? "00:00" : since,
                    extra: "required autocomplete=\"off\" class=\"short\"", hint: "For example 08:00; 00:00 for the whole day so far",
                    error: typed?.error("since", of: "steps"))
            p.raw("</div><button type=\"submit\">Save steps</button>")
        }
    }

    /// The typed count and time read in the machine's zone at the request's time.
    static func parse(_ ctx: DaemonContext, _ fields: [String: String]) throws -> MeasurementEntry.Outcome {
        let journal = try HealthJournal(context: ctx)
        return MeasurementEntry.parseSteps(fields: fields, now: journal.local(DaemonClock.now()), zone: journal.zone)
    }
}
