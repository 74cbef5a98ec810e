import HealthSpoolCore

/// What a pass over archive/ and failed/ removed.
public struct SpoolPruneReport: Sendable, Equatable {
    /// Files removed from archive/ (by age, then by size).
    public var archived: [String] = []
    /// Files removed from failed/ (each with its `.reason`).
    public var failed: [String] = []
    /// Bytes freed.
    public var bytes: Int64 = 0
    public init() {}
}

extension SpoolDirectory {
    /// Removes archived files older than `archiveDays` (0: no age limit), then the oldest ones
    /// while archive/ holds more than `archiveMaxBytes` (0: no size limit), and files in failed/
    /// older than `failedDays` (0: kept) with their `.reason`. A file's age is its modification
    /// time, which `FileSystem.move` sets when it enters the folder. `now` is an input.
    public func prune(archiveDays: Int, archiveMaxBytes: Int64, failedDays: Int, now: Timestamp) throws -> SpoolPruneReport {
        var report = SpoolPruneReport()
        // archive/: oldest first (then by name, for equal times).
        var files: [(name: String, millis: Int64, size: Int64)] = []
        for name in try FileSystem.list(archive) {
            if let m = FileSystem.modified(archive + "/" + name) { files.append((name, m.millis, m.size)) }
        }
        files.sort { $0.millis != $1.millis ? $0.millis < $1.millis : $0.name < $1.name }
        var total = files.reduce(Int64(0)) { $0 + $1.size }
        let cutoff = now.millis - Int64(archiveDays) * 86_400_000
        for f in files {
            let tooOld = archiveDays > 0 && f.millis < cutoff
            let overSize = archiveMaxBytes > 0 && total > archiveMaxBytes
            guard tooOld || overSize else { break }
            try FileSystem.remove(archive + "/" + f.name)
            report.archived.append(f.name)
            report.bytes += f.size
            total -= f.size
        }
        // failed/: a file and its reason go together; the reason's time is when it failed.
        if failedDays > 0 {
            let failedCutoff = now.millis - Int64(failedDays) * 86_400_000
            let names = try FileSystem.list(failed)
            let present = Set(names)
            for name in names {
                let path = failed + "/" + name
                if name.hasSuffix(".reason") {
                    // A reason whose file is gone is removed on its own once old.
                    let file = String(name.dropLast(".reason".count))
                    if !present.contains(file), let m = FileSystem.modified(path), m.millis < failedCutoff {
                        try FileSystem.remove(path)
                        report.bytes += m.size
                    }
                    continue
                }
                guard let m = FileSystem.modified(path) else { continue }
                let reason = FileSystem.modified(path + ".reason")
                guard max(m.millis, reason?.millis ?? .min) < failedCutoff else { continue }
                try FileSystem.remove(path)
                try FileSystem.remove(path + ".reason")
                report.failed.append(name)
                report.bytes += m.size + (reason?.size ?? 0)
            }
        }
        if !report.archived.isEmpty { FileSystem.syncDirectory(of: archive + "/.") }
        if !report.failed.isEmpty { FileSystem.syncDirectory(of: failed + "/.") }
        return report
    }
}
