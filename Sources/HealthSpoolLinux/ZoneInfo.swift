import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Finds the machine's time zone and reads its rules from the tz database (package tzdata).
public enum ZoneInfo {
    /// The zone database directory.
    public static let directory = "/usr/share/zoneinfo"

    /// The zone in effect: `TZ` (a zone name, `:name`, a path or a POSIX rule), else
    /// `/etc/localtime`, else UTC.
    public static func current(environment: [String: String]) throws -> ZoneRules {
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/") { return try load(path: tz, name: name(ofPath: tz) ?? "UTC") }
            if validName(tz), FileSystem.exists(directory + "/" + tz) { return try named(tz) }
            if let rule = PosixZoneRule(parsing: tz) { return ZoneRules(name: tz, initialOffset: rule.standardOffset, rule: rule) }
            throw ZoneRulesError("TZ=\(tz): no such zone in \(directory) and not a POSIX TZ rule; set TZ to a name like Europe/Berlin (install tzdata)")
        }
        if FileSystem.exists("/etc/localtime") {
            let name = name(ofPath: linkTarget("/etc/localtime") ?? "")
                ?? (try? FileSystem.readText("/etc/timezone"))??.trimmingSpaces ?? "UTC"
            return try load(path: "/etc/localtime", name: name.isEmpty ? "UTC" : name)
        }
        return .utc
    }

    /// The zone with this tz database name (`America/New_York`).
    public static func named(_ name: String) throws -> ZoneRules {
        guard validName(name) else { throw ZoneRulesError("time zone '\(name)': not a zone name like Europe/Berlin") }
        return try load(path: directory + "/" + name, name: name)
    }

    static func validName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/").contains("..")
    }

    static func load(path: String, name: String) throws -> ZoneRules {
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(path, limit: 1 << 20) } catch {
            throw ZoneRulesError("time zone \(name): cannot read \(path) (\(error)); install tzdata or set TZ")
        }
        return try ZoneRules(name: name, tzif: bytes)
    }

    /// `Europe/Berlin` from `/usr/share/zoneinfo/Europe/Berlin` (or `…/zoneinfo/posix/…`).
    static func name(ofPath path: String) -> String? {
        var parts = path.split(separator: "/").map(String.init)
        guard let i = parts.lastIndex(of: "zoneinfo") else { return nil }
        parts.removeFirst(i + 1)
        if let first = parts.first, first == "posix" || first == "right" { parts.removeFirst() }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
