import HealthSpoolLock

/// The configuration in effect, shared by the daemon and its web interface: the one read at
/// start, then each reload's (the daemon's, on SIGHUP or a change to a config file, and the web
/// interface's own after one of its settings forms wrote the file, so the page it goes back to
/// shows the change at once). Readers take the value; nothing reads a file to give it.
public final class CurrentConfiguration: Sendable {
    private let held: Lock<Configuration>

    public init(_ configuration: Configuration) { held = Lock(configuration) }

    /// The configuration in effect now.
    public var value: Configuration { held.withLock { $0 } }

    /// A reload's configuration.
    public func set(_ configuration: Configuration) { held.withLock { $0 = configuration } }

    /// Reads the configuration files again (after a settings form wrote one), keeping the spool
    /// and state directories, which only a restart moves (as the daemon's reload does). On an
    /// error the configuration in effect stays.
    public func reread() throws {
        let old = value
        let fresh = try Configuration(environment: old.environment)
        var settings = fresh.settings
        settings.spoolDir = old.settings.spoolDir
        settings.stateDir = old.settings.stateDir
        set(Configuration(paths: fresh.paths, settings: settings, environment: fresh.environment))
    }
}
