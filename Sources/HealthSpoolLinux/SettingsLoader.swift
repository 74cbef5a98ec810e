import HealthSpoolCore

/// Loads settings with their precedence: command line > environment > user file > system file > defaults.
public enum SettingsLoader {
    /// Reads both files and the environment. Errors name the file and line.
    public static func load(paths: Paths, environment: [String: String], overrides: [(String, String)] = []) throws -> Settings {
        var files: [(origin: String, text: String)] = []
        for path in [paths.systemConfigFile, paths.userConfigFile] {
            if let text = try FileSystem.readText(path) { files.append((path, text)) }
        }
        return try SettingsReader.resolve(files: files, environment: environment, overrides: overrides)
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
