import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct LifestyleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifestyle",
        abstract: "Log lifestyle factors (exercise, diet, water, stress, caffeine, sleep, or your own) in your health journal.",
        subcommands: [LifestyleLogCommand.self, LifestyleEditCommand.self, LifestyleDeleteCommand.self, LifestyleListCommand.self]
    )
}

struct LifestyleLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log a lifestyle factor: healthspool lifestyle log caffeine --amount 2 --unit cups --when morning.",
        discussion: "Measure it with an amount (--amount, with --unit) or a level (--level none, low, moderate or high), or neither. Sent to the gateway as a lifestyleEntry record."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The factor (exercise, diet, water, stress, caffeine, sleep, or your own).") var factor: String
    @Option(help: "How much (a number).") var amount: Double?
    @Option(help: "The amount's unit (cups, ml, minutes, hours, …).") var unit: String?
    @Option(help: "A level instead of an amount: none, low, moderate or high.", completion: .list(["none", "low", "moderate", "high"])) var level: String?
    @Option(name: .customLong("when"), help: ArgumentHelp("Part of the day: morning, afternoon, evening or night (default: from the time). Without --at, the time meant: the part's middle (morning 08:30, night 01:00), or now if still to come.", valueName: "PART"))
    var when: String?
    @Option(help: ArgumentHelp("When: 2026-11-22T08:00 (local time), with +01:00 or Z, or 08:00 for today (default: now).", valueName: "TIME"))
    var at: String?
    @Option(help: "A note.") var note: String?
    @Flag(help: "Print the entry as JSON.") var json = false

    func validate() throws {
        if amount != nil && level != nil { throw ValidationError("give an --amount or a --level, not both") }
        if unit != nil && amount == nil { throw ValidationError("--unit needs an --amount") }
        if let amount, !amount.isFinite || amount < 0 { throw ValidationError("--amount must be a number of 0 or more") }
    }

    func run() throws {
        var measure: LifestyleMeasure?
        if let amount { measure = .amount(amount, unit: unit ?? "") }
        if let level {
            guard let l = LifestyleLevel(parsing: level) else { throw ValidationError("'\(level)' is not a level: choose none, low, moderate or high") }
            measure = .level(l)
        }
        let when = try self.when.map(JournalCLI.timeOfDay)
        let entry = try withJournal(common) { r in
            let at = try self.at.map { try JournalCLI.time($0, today: r.entries.today) }
            return try r.entries.logLifestyle(LifestyleLog(factor: factor, measure: measure, when: when, at: at, note: note))
        }
        if json { return printJSON(JournalRows.json(entry)) }
        print("logged " + JournalRows.line(entry))
    }
}

struct LifestyleListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List a day's lifestyle factors (today by default).")
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("The day: YYYY-MM-DD, today or yesterday.", valueName: "DATE"), completion: Completions.dates) var date: String?
    @Flag(help: "Print the entries as JSON.") var json = false

    func run() throws {
        let (day, entries) = try withJournal(common) { r in
            let day = try date.map { try JournalCLI.date($0, today: r.entries.today) } ?? r.entries.today
            return (day, try r.entries.lifestyle(on: day))
        }
        if json { return printJSON(.array(entries.map(JournalRows.json))) }
        if entries.isEmpty { print("no lifestyle factors logged on \(day)") }
        for e in entries { print(JournalRows.line(e)) }
    }
}

struct LifestyleEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a lifestyle entry: healthspool lifestyle edit ID --amount 3.",
        discussion: "Only the fields given change (a new --amount keeps the unit unless --unit is given); --note '' removes the note, --no-measure the amount or level. The new version is sent under the same id."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The entry's ID (at least its first 4 characters, as 'lifestyle list' shows).") var id: String
    @Option(help: "Another factor name.") var factor: String?
    @Option(help: "How much (a number).") var amount: Double?
    @Option(help: "The amount's unit (cups, ml, minutes, hours, …).") var unit: String?
    @Option(help: "A level instead of an amount: none, low, moderate or high.", completion: .list(["none", "low", "moderate", "high"])) var level: String?
    @Flag(name: .customLong("no-measure"), help: "Remove the amount or level.") var noMeasure = false
    @Option(name: .customLong("when"), help: ArgumentHelp("Time of day: morning, afternoon, evening or night.", valueName: "PART"))
    var when: String?
    @Option(help: ArgumentHelp("When: 2026-11-22T08:00 (local time), with +01:00 or Z, or 08:00 for today.", valueName: "TIME"))
    var at: String?
    @Option(help: "A note ('' removes it).") var note: String?
    @Flag(help: "Print the entry as JSON.") var json = false

    func validate() throws {
        if amount != nil && level != nil { throw ValidationError("give an --amount or a --level, not both") }
        if noMeasure && (amount != nil || level != nil) { throw ValidationError("--no-measure goes without --amount and --level") }
        if unit != nil && amount == nil { throw ValidationError("--unit needs an --amount") }
        if let amount, !amount.isFinite || amount < 0 { throw ValidationError("--amount must be a number of 0 or more") }
    }

    func run() throws {
        var changes = LifestyleChanges()
        changes.factor = factor
        if let level {
            guard let l = LifestyleLevel(parsing: level) else { throw ValidationError("'\(level)' is not a level: choose none, low, moderate or high") }
            changes.measure = .some(.level(l))
        }
        if noMeasure { changes.measure = .some(nil) }
        changes.when = try self.when.map(JournalCLI.timeOfDay)
        changes.note = note
        let entry = try withJournal(common) { r in
            changes.at = try self.at.map { try JournalCLI.time($0, today: r.entries.today) }
            if let amount {
                // A new amount keeps the unit it had unless another is given.
                var kept = ""
                if case let .amount(_, u)? = try r.entries.lifestyleEntry(id).measure { kept = u }
                changes.measure = .some(.amount(amount, unit: unit ?? kept))
            }
            return try r.entries.editLifestyle(id, changes)
        }
        if json { return printJSON(JournalRows.json(entry)) }
        print("edited (version \(entry.version)) " + JournalRows.line(entry))
    }
}

struct LifestyleDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a lifestyle entry (the gateway gets a tombstone)."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The entry's ID (at least its first 4 characters).") var id: String
    @Flag(help: "Print the deleted entry as JSON.") var json = false

    func run() throws {
        let entry = try withJournal(common) { try $0.entries.deleteLifestyle(id) }
        if json { return printJSON(JournalRows.json(entry)) }
        print("deleted " + JournalRows.line(entry))
    }
}
