import HealthSpoolCore

/// Loads settings with their precedence: command line > environment > user file > system file > defaults.
public enum SettingsLoader {
    /// Reads both files and the environment. Errors name the file and line.
    public static func load(paths: Paths, environment: [String: String], overrides: [(String, String)] = []) throws -> Settings {
        try loadTracked(paths: paths, environment: environment, overrides: overrides).settings
    }

    /// `load`, keeping where each setting came from (`healthspool config show`).
    public static func loadTracked(paths: Paths, environment: [String: String], overrides: [(String, String)] = []) throws -> ResolvedSettings {
        try SettingsReader.resolveTracked(files: try files(paths: paths), environment: environment, overrides: overrides)
    }

    /// The config files that exist, system file first.
    public static func files(paths: Paths) throws -> [SettingsFile] {
        var files: [SettingsFile] = []
        for (path, layer) in [(paths.systemConfigFile, SettingsLayer.system), (paths.userConfigFile, .user)] {
            if let text = try FileSystem.readText(path) { files.append(SettingsFile(path: path, text: text, layer: layer)) }
        }
        return files
    }

    /// Sets (or removes, with nil) keys in the user's config file, atomically, mode 0600.
    public static func update(paths: Paths, _ changes: [(String, String?)]) throws {
        var text = try FileSystem.readText(paths.userConfigFile) ?? "# healthspool user settings; see healthspool.conf(5)\n"
        for (key, value) in changes {
            if let value { var probe = Settings(); try SettingsReader.apply(key, value, to: &probe, origin: "new value") }
            text = SettingsReader.updating(text, key: key, value: value)
        }
        try FileSystem.makeDirectory(paths.configDir, mode: 0o700)
        try FileSystem.writeAtomically(paths.userConfigFile, Array(text.utf8), mode: 0o600)
    }
}
