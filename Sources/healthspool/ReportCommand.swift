import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import HealthSpoolWeb

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a summary of a period for a doctor's visit: one self-contained HTML file, JSON, or a FHIR file.",
        discussion: """
            Symptoms (days, total and highest daily score, worst days, a daily chart, parts of the day), medications \
            with adherence (doses due by the reminders against doses logged: on time within an hour, late, missed; \
            by medication and by week), measurements (every reading, or each day's lowest, mean and highest past 60 \
            readings), steps and sleep from the day totals, factors, and the notes of the period; a section with no \
            data is left out. The HTML file has its style and charts inline, no script and no link to anything: it can \
            be e-mailed or opened years later, and prints on A4 or Letter with a section per page. It is written with \
            mode 0600 and is never sent to the gateway. The web interface shows the same summary at /report.

            --fhir writes the same period as one FHIR R4 Bundle of type document, for a clinic's records system: an \
            International Patient Summary (a Composition with sections for vital signs, medications, allergies, \
            problems, results, the symptom history, activity and sleep), a Patient with only the name set in \
            report.name, vital signs as Observations with LOINC codes and UCUM units (blood glucose in \
            journal.glucose_unit), steps per day and sleep per night with their periods, the journal's medications as \
            MedicationStatements with their adherence, and its symptom entries as Observations with their severity. Ids \
            are stable: the same period written again replaces, not doubles, what the clinic holds. Written with mode \
            0600; nothing is sent anywhere.
            """)
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("The first day, YYYY-MM-DD (default: 29 days before --to).", valueName: "DATE"), completion: Completions.dates)
    var from: String?
    @Option(help: ArgumentHelp("The last day, YYYY-MM-DD (default: today).", valueName: "DATE"), completion: Completions.dates)
    var to: String?
    @Option(help: ArgumentHelp("Start on the day of the latest note in this category (since the last appointment).", valueName: "CATEGORY"))
    var since: String?
    @Option(help: ArgumentHelp("The note category of questions for the doctor: its notes come first.", valueName: "CATEGORY"))
    var questions: String?
    @Option(help: ArgumentHelp("Where to write (default: health-summary-FROM-to-TO.html, .json or .fhir.json; - for standard output).",
                               valueName: "FILE"),
            completion: .file(extensions: ["html", "json"]))
    var out: String?
    @Flag(help: "Write the figures as JSON instead of HTML.") var json = false
    @Flag(help: "Write a FHIR R4 document Bundle (International Patient Summary) instead of HTML, for a clinic's records system.")
    var fhir = false

    func validate() throws {
        if since != nil, from != nil { throw ValidationError("give --from or --since, not both") }
        if json, fhir { throw ValidationError("give --json or --fhir, not both") }
    }

    func run() throws {
        let (report, document) = try withJournal(common) { r -> (VisitReport, FHIRDocument?) in
            let reports = try r.reports()
            var (start, end) = try reports.period(from: from, to: to, now: r.now)
            if let since {
                guard let day = try reports.lastNoteDay(category: since) else {
                    throw CLIError("no note in category '\(since)': give --from, or a category that 'healthspool note categories' lists")
                }
                (start, end) = try reports.period(from: day.description, to: to, now: r.now)
            }
            if fhir {
                let d = try reports.fhirDocument(from: start, to: end, now: r.now, patientKey: r.configuration.fhirPatientKey)
                return (d.report, d)
            }
            return (try reports.report(from: start, to: end, now: r.now, questions: questions), nil)
        }
        var text: String
        if let document {
            var w = JSONWriter(capacity: 1 << 20)
            w.value(document.bundle)
            text = w.text + "\n"
        } else if json {
            var w = JSONWriter()
            w.value(report.json)
            text = w.text + "\n"
        } else {
            text = ReportFile.html(report)
        }
        let path = out ?? "health-summary-\(report.from)-to-\(report.to).\(fhir ? "fhir.json" : json ? "json" : "html")"
        if path == "-" { print(text, terminator: ""); return }
        do {
            if let exposure = try SafeWrite.replace(path, Array(text.utf8), mode: 0o600) {
                // Written safely all the same (no name another user could take or link to follow).
                StandardError.write("Warning: \(exposure); choose a folder of your own (--out)\n")
            }
        } catch {
            throw CLIError("could not write \(path): \(error)")
        }
        print("wrote \(path): \(report.from) to \(report.to)")
    }
}
