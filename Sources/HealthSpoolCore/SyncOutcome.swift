/// What became of a sync: of one type's job, or of several jobs taken together (an attempt in
/// history, the answer to `healthspool sync`). One rule for both, used by the daemon's history,
/// its control socket and `sync` in-process alike.
public enum SyncOutcome: String, Sendable, CaseIterable {
    /// Everything asked for was delivered (possibly nothing, when nothing was queued).
    case success
    /// Some of it: samples went out or a type succeeded, while something else failed or was
    /// parked as a dead letter.
    case partial
    /// Nothing was achieved: no sample delivered, no type succeeded.
    case failed

    /// One type's job: `sent` samples accepted, `parked` refused for good, `failed` when the job
    /// ended on an error (samples left queued).
    public static func job(sent: Int, parked: Int, failed: Bool) -> SyncOutcome {
        if !failed && parked == 0 { return .success }
        return sent > 0 || !failed ? .partial : .failed
    }

    /// Several jobs as one: success when every job succeeded (or there were none); partial when
    /// any sample was delivered or any job succeeded or half-succeeded; failed otherwise. A type
    /// that succeeded with nothing to send beside one that failed is therefore partial, wherever
    /// the sync ran.
    public static func combining<S: Sequence>(_ jobs: S) -> SyncOutcome where S.Element == (outcome: SyncOutcome, sent: Int) {
        var all = true, any = false
        for job in jobs {
            if job.outcome != .success { all = false }
            if job.outcome != .failed || job.sent > 0 { any = true }
        }
        return all ? .success : (any ? .partial : .failed)
    }

    /// The exit status of `healthspool sync` for this outcome: 1 only when nothing was achieved.
    public var exitStatus: Int32 { self == .failed ? 1 : 0 }
}

/// What became of importing one file.
public enum ImportOutcome: String, Sendable, CaseIterable {
    /// Read whole and stored; the file leaves the spool (archive/ or deleted).
    case imported
    /// Some samples stored, then a problem: the file goes to failed/ with its reason.
    case partial
    /// Nothing stored: the file goes to failed/ with its reason.
    case failed
    /// Identical to a file imported before: archived without being parsed.
    case unchanged
    /// Stopped at a batch boundary by a stop: what was committed is kept, the file stays in the
    /// spool and is imported again, idempotently, next time.
    case interrupted

    /// The outcome of a parse that ended with a problem (`failed`) or without one, given how
    /// many samples it stored.
    public static func parsed(stored: Int, problem: Bool) -> ImportOutcome {
        problem ? (stored > 0 ? .partial : .failed) : .imported
    }

    /// Whether the file leaves the spool for archive/ (or is deleted).
    var retires: Bool { self == .imported || self == .unchanged }

    /// Whether the file goes to failed/.
    public var quarantines: Bool { self == .partial || self == .failed }

    /// Whether `healthspool import` counts it as a failure (exit status 1).
    public var isFailure: Bool { quarantines }
}
