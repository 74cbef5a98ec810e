import ArgumentParser
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux

struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List data types by category, or enable/disable types and categories.",
        subcommands: [TypesList.self, TypesEnable.self, TypesDisable.self],
        defaultSubcommand: TypesList.self
    )
}

struct TypesList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List every type with its state, frequency, unit and queued count.")
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let configuration = try common.configuration()
        print(TypeList.report(settings: configuration.settings, queued: TypeList.queuedCounts(storePath: configuration.storePath), json: json))
    }
}

/// Resolves names to categories, registry types or HealthKit identifiers (any syntactically
/// valid one: a category covers identifiers outside the registry by family). An unknown name
/// fails with the closest valid one, exit status 78, like an unknown name in the config file.
func resolveTypesOrCategories(_ names: [String]) throws -> [String] {
    try names.map { n in
        if let c = DataCategory.named(n) { return c.rawValue }
        if let t = DataType.lookup(n) { return t.name }
        if DataType.isHealthKitIdentifier(n) { return n }
        throw configurationError(SettingsError(key: "types", reason: TypeName.problem(n), origin: "command line"))
    }
}

struct TypesEnable: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Enable types or whole categories.",
        discussion: "Enabling one type of a disabled category keeps the category disabled and names the type in types.enabled."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "Type names, category names, or any HealthKit identifier (HKQuantityTypeIdentifierDietaryBiotin).", completion: Completions.typesAndCategories) var names: [String]

    func run() throws {
        let configuration = try common.configuration()
        let targets = try resolveTypesOrCategories(names)
        let (disabled, enabled) = enabling(targets, disabled: configuration.settings.disabledTypes, enabled: configuration.settings.enabledTypes)
        try SettingsLoader.update(paths: configuration.paths, [("types.disabled", disabled.isEmpty ? nil : disabled.joined(separator: ",")),
                                                        ("types.enabled", enabled.isEmpty ? nil : enabled.joined(separator: ","))])
        print("enabled: \(targets.joined(separator: ", ")) (files dropped again are imported again for them)")
    }
}

struct TypesDisable: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Disable types or whole categories: they are neither stored nor sent.",
        discussion: "A category covers every HealthKit identifier of its family, not only the types 'types list' shows (healthspool.conf(5), types.disabled)."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "Type names, category names, or any HealthKit identifier (HKQuantityTypeIdentifierDietaryBiotin).", completion: Completions.typesAndCategories) var names: [String]

    func run() throws {
        let configuration = try common.configuration()
        let targets = try resolveTypesOrCategories(names)
        let (disabled, enabled) = disabling(targets, disabled: configuration.settings.disabledTypes, enabled: configuration.settings.enabledTypes)
        try SettingsLoader.update(paths: configuration.paths, [("types.disabled", disabled.joined(separator: ",")),
                                                        ("types.enabled", enabled.isEmpty ? nil : enabled.joined(separator: ","))])
        print("disabled: \(targets.joined(separator: ", ")) (samples of disabled types are neither stored nor sent)")
    }
}

struct FrequencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frequency",
        abstract: "Show or set the sync frequency (realtime, hourly, daily, manual), or a type's delivery frequency.",
        discussion: "Import always happens at once; only sending waits. With --type, sets that type's delivery frequency (immediate or hourly) under realtime sync."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "realtime, hourly, daily or manual; with --type: immediate or hourly (case ignored).", completion: Completions.frequencies) var value: String?
    @Option(name: .customLong("type"), help: "Set this type's delivery frequency instead.", completion: Completions.types) var type: String?

    func run() throws {
        let configuration = try common.configuration()
        let s = configuration.settings
        guard let value else {
            print("sync frequency: \(s.syncFrequency.rawValue)")
            print("delivery frequency by type (under realtime sync):")
            let width = DataType.all.map(\.name.count).max() ?? 0
            for t in DataType.all where s.isEnabled(t.name) { print("  \(TextTable.pad(t.name, width))  \(s.frequency(of: t.name).rawValue)") }
            return
        }
        if let type {
            guard let t = DataType.lookup(type) else { throw CLIError("unknown type '\(type)'; see 'healthspool types list'") }
            guard let f = DeliveryFrequency(rawValue: value.lowercased()) else { throw CLIError("a type's frequency is immediate or hourly, not '\(value)'") }
            var hourly = s.hourlyTypes.map(DataType.canonicalName).filter { $0 != t.name }
            var immediate = s.immediateTypes.map(DataType.canonicalName).filter { $0 != t.name }
            if f == .hourly { hourly.append(t.name) } else { immediate.append(t.name) }
            try SettingsLoader.update(paths: configuration.paths, [("types.hourly", hourly.isEmpty ? nil : hourly.joined(separator: ",")),
                                                            ("types.immediate", immediate.isEmpty ? nil : immediate.joined(separator: ","))])
            print("\(t.name): \(f.rawValue)")
            return
        }
        guard let frequency = SyncFrequency(rawValue: value.lowercased()) else {
            throw CLIError("sync frequency is one of: \(SyncFrequency.allCases.map(\.rawValue).joined(separator: ", ")); got '\(value)'")
        }
        try SettingsLoader.update(paths: configuration.paths, [("sync.frequency", frequency.rawValue)])
        print("sync frequency: \(frequency.rawValue)")
    }
}
