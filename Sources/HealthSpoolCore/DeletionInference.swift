/// When samples an earlier full Apple Health export held, and a newer one no longer holds,
/// count as deleted on the phone (issue 43), and how many one import may mark.
///
/// Conservative by design: only a full export (`export.xml`/`export.zip` with its
/// `ExportDate`) imported cleanly, newer than every full export seen before, infers anything;
/// only samples stored from a full export, starting before the earlier export's date, of a type
/// enabled now, are candidates; and at most `boundPercent` % of the stored samples of that range
/// are marked at once, the rest waiting for the person (`healthspool deletions apply`).
public enum DeletionInference {
    /// Whether an import may infer deletions.
    public enum Eligibility: Sendable, Equatable {
        /// Yes: candidates start before `since`, the newest full export seen before this one.
        case infer(since: Timestamp)
        /// No: the first full export seen (nothing to compare with).
        case firstExport
        /// No: this export is not newer than `newest`, a full export already seen.
        case notNewer(newest: Timestamp)
        /// No: the file is not a full export (Health Auto Export, native, CSV: partial by nature).
        case notFullExport
        /// No: the import did not end cleanly (a problem, a failure, an interruption).
        case unclean
    }

    /// What an import does with its candidates.
    public enum Decision: Sendable, Equatable {
        /// Mark them deleted now.
        case apply
        /// Keep them waiting: more than `limit` (the bound) were found.
        case hold(limit: Int)
    }

    /// Whether an import of a file with `exportDate` (nil: not a full export) may infer
    /// deletions, given the newest full export seen before it and whether it ended cleanly.
    public static func eligibility(exportDate: Timestamp?, newestSeen: Timestamp?, clean: Bool) -> Eligibility {
        guard let exportDate else { return .notFullExport }
        guard clean else { return .unclean }
        guard let newestSeen else { return .firstExport }
        guard exportDate.millis > newestSeen.millis else { return .notNewer(newest: newestSeen) }
        return .infer(since: newestSeen)
    }

    /// The most samples one import may mark deleted: `boundPercent` % of `stored` (the stored
    /// samples of the export's range), rounded down.
    public static func limit(stored: Int, boundPercent: Int) -> Int {
        stored * max(0, boundPercent) / 100
    }

    /// Applies `candidates` deletions now when they are within the bound, else holds them.
    public static func decide(candidates: Int, stored: Int, boundPercent: Int) -> Decision {
        let limit = limit(stored: stored, boundPercent: boundPercent)
        return candidates <= limit ? .apply : .hold(limit: limit)
    }
}
