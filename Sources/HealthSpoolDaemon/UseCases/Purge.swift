import HealthSpoolConfig
import HealthSpoolLinux

/// Removing the local data — the store, its state, the runtime directory and the lock flag, and
/// with the spool option the spool's archive/ and failed/ — only while no daemon runs. The use
/// case behind `healthspool purge`.
public struct Purge: Sendable {
    /// What would be removed, in order.
    public let targets: [String]

    /// The purge of `configuration`'s places; throws when a daemon runs (it holds the store open).
    public init(configuration: Configuration, includingSpool: Bool) throws {
        if let pid = ProcessLock.holder(of: configuration.pidFile) {
            throw PurgeRefused(pid: pid)
        }
        var targets = [configuration.stateDir, configuration.runtimeDir]
        if includingSpool { targets += [configuration.spool.archive, configuration.spool.failed] }
        self.targets = targets
    }

    /// Removes every target.
    public func run() throws {
        for t in targets { try FileSystem.removeTree(t) }
    }
}

/// A purge asked for while the daemon runs.
public struct PurgeRefused: Error, CustomStringConvertible {
    public let pid: Int32
    public var description: String {
        "the daemon is running (pid \(pid)); stop it first: systemctl --user stop healthspool"
    }
}
