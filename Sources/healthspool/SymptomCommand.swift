import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct SymptomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symptom",
        abstract: "Log, edit, delete and list symptoms in your health journal.",
        discussion: """
            A symptom entry has a severity (mild 1, moderate 2, severe 3, debilitating 4), a time of day (morning, afternoon, evening, night) and an exact time, what relieved and what aggravated it, and a note. Symptoms live in categories you make; without one they go into "All Symptoms". Each entry is sent to the gateway as a symptomEntry record; an edit sends it again under the same id with the next version, a delete sends a tombstone.

            Works whether or not the daemon runs; a running daemon is told to sync the new records.
            """,
        subcommands: [SymptomLogCommand.self, SymptomEditCommand.self, SymptomDeleteCommand.self, SymptomListCommand.self,
                      SymptomCategoriesCommand.self]
    )
}

/// The options `log` and `edit` share.
struct SymptomFields: ParsableArguments {
    @Option(name: .customLong("when"), help: ArgumentHelp("Part of the day: morning, afternoon, evening or night (default: from the time). Without --at, the time meant: the part's middle (morning 08:30, night 01:00), or now if still to come.", valueName: "PART"))
    var when: String?
    @Option(help: ArgumentHelp("When it happened: 2026-11-22T19:30 (local time), with +01:00 or Z, or 19:30 for today (default: now).", valueName: "TIME"))
    var at: String?
    @Option(help: ArgumentHelp("The symptom's category (made when new; the symptom moves there).", valueName: "NAME"))
    var category: String?
    @Option(name: .customLong("relieved-by"), help: ArgumentHelp("What relieved it (repeat, or separate with commas).", valueName: "FACTOR"))
    var relievedBy: [String] = []
    @Option(name: .customLong("aggravated-by"), help: ArgumentHelp("What made it worse (repeat, or separate with commas).", valueName: "FACTOR"))
    var aggravatedBy: [String] = []
    @Option(help: "A note.") var note: String?
}

struct SymptomLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log a symptom: healthspool symptom log headache --severity moderate --when evening.",
        discussion: "Prints the new entry with its ID (the first 8 characters are enough for edit and delete)."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The symptom (headache, chest pain, …); made when new.") var symptom: String
    @Option(help: "mild, moderate, severe or debilitating (or 1–4).", completion: .list(["mild", "moderate", "severe", "debilitating"])) var severity: String
    @OptionGroup var fields: SymptomFields
    @Flag(help: "Print the entry as JSON.") var json = false

    func run() throws {
        let severity = try JournalCLI.severity(self.severity)
        let when = try fields.when.map(JournalCLI.timeOfDay)
        let (entry, movedFrom) = try withJournal(common) { r in
            let at = try fields.at.map { try JournalCLI.time($0, today: r.entries.today) }
            return try r.entries.logSymptom(SymptomLog(symptom: symptom, severity: severity, when: when, at: at, category: fields.category,
                                                       relievedBy: JournalCLI.names(fields.relievedBy), aggravatedBy: JournalCLI.names(fields.aggravatedBy),
                                                       note: fields.note))
        }
        if json { return printJSON(JournalRows.json(entry)) }
        print("logged " + JournalRows.line(entry))
        if let movedFrom { print("\(entry.symptom) moved from \(movedFrom) to \(entry.category)") }
        if let line = EmergencyLine.line(symptom: entry.symptom, severity: entry.severity) { print(line) }
    }
}

struct SymptomEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a symptom entry: healthspool symptom edit ID --severity severe.",
        discussion: "Only the fields given change. A list given replaces the entry's list (--relieved-by '' empties it); --note '' removes the note. The day's scores are computed again when they were already stored."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The entry's ID (at least its first 4 characters).") var id: String
    @Option(help: "Another symptom name.") var symptom: String?
    @Option(help: "mild, moderate, severe or debilitating (or 1–4).") var severity: String?
    @OptionGroup var fields: SymptomFields
    @Flag(help: "Print the entry as JSON.") var json = false

    func run() throws {
        var changes = SymptomChanges()
        changes.symptom = symptom
        changes.severity = try severity.map(JournalCLI.severity)
        changes.when = try fields.when.map(JournalCLI.timeOfDay)
        changes.category = fields.category
        if !fields.relievedBy.isEmpty { changes.relievedBy = JournalCLI.names(fields.relievedBy) }
        if !fields.aggravatedBy.isEmpty { changes.aggravatedBy = JournalCLI.names(fields.aggravatedBy) }
        changes.note = fields.note
        let entry = try withJournal(common) { r in
            changes.at = try fields.at.map { try JournalCLI.time($0, today: r.entries.today) }
            return try r.entries.editSymptom(id, changes)
        }
        if json { return printJSON(JournalRows.json(entry)) }
        print("edited (version \(entry.version)) " + JournalRows.line(entry))
    }
}

struct SymptomDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a symptom entry (the gateway gets a tombstone).",
        discussion: "The entry is no longer shown or scored; an imported symptom you delete is not brought back by importing it again."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The entry's ID (at least its first 4 characters).") var id: String
    @Flag(help: "Print the deleted entry as JSON.") var json = false

    func run() throws {
        let entry = try withJournal(common) { try $0.entries.deleteSymptom(id) }
        if json { return printJSON(JournalRows.json(entry)) }
        print("deleted " + JournalRows.line(entry))
    }
}

struct SymptomListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List symptom entries: a day's, the 50 most recent, or all.",
        discussion: "Symptoms imported from Apple Health or Health Auto Export are listed too (marked imported). When there are more than 50 entries, the list says how many and how to see the rest."
    )
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("Only this day: YYYY-MM-DD, today or yesterday.", valueName: "DATE"), completion: Completions.dates) var date: String?
    @Flag(help: "Every entry, newest first, not only the 50 most recent.") var all = false
    @Flag(help: "Print the entries as JSON.") var json = false

    func validate() throws {
        if all && date != nil { throw ValidationError("give --all or --date, not both") }
    }

    func run() throws {
        let (day, entries, total) = try withJournal(common) { r in
            let day = try date.map { try JournalCLI.date($0, today: r.entries.today) }
            if let day { return (Optional(day), try r.entries.symptoms(on: day), 0) }
            let (entries, total) = try r.entries.recentSymptoms(all: all)
            return (nil, entries, total)
        }
        if json { return printJSON(.array(entries.map(JournalRows.json))) }
        if entries.isEmpty {
            print(day.map { "no symptoms logged on \($0)" } ?? "no symptoms logged yet; try: healthspool symptom log headache --severity mild")
            return
        }
        for e in entries { print(JournalRows.line(e)) }
        if total > entries.count {
            print("showing the newest \(entries.count) of \(total) entries; use --all for every one, or --date for one day")
        }
    }
}

struct SymptomCategoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "List your symptom categories and their symptoms, or add one.",
        discussion: "Organize symptoms by body system, doctor or diagnosis. A symptom goes into a category with 'symptom log NAME --category CATEGORY'."
    )
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("Add a category with this name.", valueName: "NAME")) var add: String?
    @Flag(help: "Print the categories as JSON.") var json = false

    func run() throws {
        let categories = try withJournal(common) { r in
            if let add { try r.entries.addCategory(add) }
            return try r.entries.categories()
        }
        if json {
            return printJSON(.array(categories.map { c in
                .object([("name", .string(c.name)), ("symptoms", .array(c.symptoms.map(JSONValue.string)))])
            }))
        }
        for c in categories {
            print("\(EscapedText.escape(c.name)): " + (c.symptoms.isEmpty ? "no symptoms yet" : c.symptoms.map(EscapedText.escape).joined(separator: ", ")))
        }
    }
}
