import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure", abstract: "Enter a measurement by hand: blood pressure, heart rate, blood oxygen, glucose, weight, steps.",
        discussion: """
            Stored as samples of the matching HealthKit type (source "healthspool", HKWasUserEntered) and synced \
            like imported ones. Values outside physiological ranges are refused with the range.
            """,
        subcommands: [MeasureBP.self, MeasureHR.self, MeasureSpO2.self, MeasureGlucose.self, MeasureWeight.self, MeasureSteps.self, MeasureList.self, MeasureDelete.self])
}

/// The measurements typed in, as the web interface's Measurements page shows them (the same view).
struct MeasureList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the measurements typed in: each kind's latest, then the readings by day, newest first.",
        discussion: "Blood sugar is shown in journal.glucose_unit, the other unit beside it.")
    @OptionGroup var common: CommonOptions
    @Option(help: "How many days back (default 90).") var days = HealthJournal.measurementDays
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard (1...36_500).contains(days) else { throw ValidationError("--days must be from 1 to 36500") }
    }

    func run() throws {
        let view = try withJournal(common) { r in try r.records().measurements(now: r.now, days: days) }
        if json { printJSON(view.json) } else { print(view.text) }
    }
}

/// Deletes a measurement typed in (by mistake): its samples go to the gateway as tombstones.
struct MeasureDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a measurement typed in by mistake (the gateway gets a tombstone).",
        discussion: "ID is the reading's id as 'measure list --json' gives it. A blood pressure's two numbers go together.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The reading's id (from 'measure list --json').") var id: String

    func run() throws {
        let r = try withJournal(common) { try $0.records().deleteMeasurement(id) }
        print("deleted \(r.line) of \(r.date) \(r.time)")
    }
}

/// Options every measurement takes.
struct MeasureOptions: ParsableArguments {
    @OptionGroup var common: CommonOptions
    @Option(help: "When it was measured (default now): HH:MM today, YYYY-MM-DD HH:MM, or with an offset.") var at: String?
    @Flag(help: "Print JSON.") var json = false

    func store(_ m: (HealthJournal, Timestamp) throws -> ManualMeasurement) throws {
        let (samples, result) = try withJournal(common) { r in
            let j = try r.records()
            return try j.measure(try m(j, r.now), at: try at.map { try j.time($0, now: r.now) } ?? r.now, now: r.now)
        }
        if json {
            printJSON(.array(samples.map { s in
                .object([("id", .string(s.id.description)), ("type", .string(s.type)), ("value", .number(s.value)), ("unit", .string(s.unit)),
                         ("startDate", .string(s.start.iso8601Local)), ("endDate", .string(s.end.iso8601Local))])
            }))
            return
        }
        let values = samples.map { "\($0.type) \(SampleIdentity.canonicalNumber($0.value)) \($0.unit)" }.joined(separator: ", ")
        print(result.new > 0 ? "stored \(values) at \(samples[0].start.shortLocal)" : "already stored: \(values)")
    }
}

struct MeasureBP: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bp", abstract: "Blood pressure, systolic/diastolic in mmHg (128/82).")
    @Argument(help: "SYSTOLIC/DIASTOLIC") var reading: String
    @OptionGroup var options: MeasureOptions

    func run() throws {
        let parts = reading.split(separator: "/")
        guard parts.count == 2, let sys = Double(parts[0]), let dia = Double(parts[1]) else {
            throw ValidationError("blood pressure: '\(reading)' is not SYSTOLIC/DIASTOLIC (128/82)")
        }
        try options.store { _, _ in .bloodPressure(systolic: sys, diastolic: dia) }
    }
}

struct MeasureHR: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hr", abstract: "Heart rate in beats per minute.")
    @Argument(help: "Beats per minute (62).") var bpm: Double
    @OptionGroup var options: MeasureOptions
    func run() throws { try options.store { _, _ in .heartRate(bpm) } }
}

struct MeasureSpO2: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "spo2", abstract: "Blood oxygen saturation in percent.")
    @Argument(help: "Percent (97).") var percent: Double
    @OptionGroup var options: MeasureOptions
    func run() throws { try options.store { _, _ in .oxygenSaturation(percent) } }
}

struct MeasureGlucose: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "glucose", abstract: "Blood glucose in mg/dL (default) or mmol/L.")
    @Argument(help: "The value (5.4).") var value: Double
    @Argument(help: "mg/dL or mmol/L.") var unit = "mg/dL"
    @OptionGroup var options: MeasureOptions
    func run() throws { try options.store { _, _ in .bloodGlucose(value, unit: unit) } }
}

struct MeasureWeight: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "weight", abstract: "Body weight in kg (default) or lb.")
    @Argument(help: "The value (72.5).") var value: Double
    @Argument(help: "kg or lb.") var unit = "kg"
    @OptionGroup var options: MeasureOptions
    func run() throws { try options.store { _, _ in .bodyMass(value, unit: unit) } }
}

struct MeasureSteps: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "steps", abstract: "Steps counted between two times (--from, --to).")
    @Argument(help: "The step count (1200).") var count: Double
    @Option(help: "When counting started.") var from: String
    @Option(help: "When it ended (default now).") var to: String?
    @OptionGroup var options: MeasureOptions

    func run() throws {
        try options.store { j, now in
            .steps(count, from: try j.time(from, now: now), to: try to.map { try j.time($0, now: now) } ?? now)
        }
    }
}
