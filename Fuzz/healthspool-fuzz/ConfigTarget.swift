import HealthSpoolCore

/// The config file reader (`SettingsReader`, what `SettingsLoader` calls on each file's text).
/// Properties: parsing never crashes and names a line when it fails; for a file that parses,
/// setting a key with `updating` (what `healthspool gateway set` does) leaves a file that still
/// parses, in which that key now has the new value and every other key is unchanged.
enum ConfigTarget {
    static let target = FuzzTarget(name: "config", summary: "config file reader and updater") { data in
        let text = String(decoding: data, as: UTF8.self)
        _ = try? SettingsReader.resolve(files: [(origin: "fuzz.conf", text: text)], environment: [:])
        guard let entries = try? SettingsReader.parseFile(text, origin: "fuzz.conf") else { return }
        // The key and value to set: a known key picked by the input, a value from its last line.
        let keys = SettingKey.all.map(\.name)
        let key = keys[data.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % keys.count]
        let value = String(text.split(separator: "\n").last ?? "v").trimmingSpaces
        // A value with a line break is refused before `updating` (`SettingsReader.apply`); `\r\n`
        // is one Character, so the scalars are looked at.
        guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }),
              !value.hasPrefix("\""), !value.hasSuffix("\"") else { return }
        let updated = SettingsReader.updating(text, key: key, value: value)
        let after: [(String, String, Int)]
        do { after = try SettingsReader.parseFile(updated, origin: "updated.conf") } catch {
            propertyFailed("config: setting \(key) = \(value) breaks the file: \(error)\n\(updated)")
        }
        func last(_ list: [(String, String, Int)]) -> [String: String] {
            var out: [String: String] = [:]
            for (k, v, _) in list { out[k] = v }
            return out
        }
        var expected = last(entries)
        expected[key] = value
        if last(after) != expected {
            propertyFailed("config: setting \(key) = \(value) gives \(last(after)), expected \(expected)\n--- before\n\(text)\n--- after\n\(updated)")
        }
    }
}
