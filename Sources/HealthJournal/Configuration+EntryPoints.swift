import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

// The journal's entry points called with the whole configuration (by the tests' fixtures only:
// the pages' requests borrow a `LentStore`); each opens or passes on what the narrower one
// takes. New code calls the narrower one.

extension HealthJournal {
    /// Opens `context`'s store and the journal on it, in `zone` (else the machine's); a write
    /// waits for the daemon's write lock up to `busyTimeout` (a person's wait unless told).
    public convenience init(context: Configuration, zone: ZoneRules? = nil,
                            busyTimeout: Duration? = SampleStore.interactiveBusyTimeout) throws {
        self.init(store: try SampleStore.connect(to: context, busyTimeout: busyTimeout),
                  zone: try zone ?? ZoneInfo.current(environment: context.environment), configuration: context)
    }
}

extension HealthJournal {
    /// Opens `context`'s store (created when needed; a write waits for the daemon's write lock
    /// as long as a person would) and the journal on it in the machine's zone (UTC when it
    /// cannot be read); what it puts in line is announced to a running daemon through its
    /// control socket (`announcing(to:)`).
    public static func open(context: Configuration) throws -> HealthJournal {
        HealthJournal(store: try SampleStore.connect(to: context, busyTimeout: SampleStore.interactiveBusyTimeout),
                      zone: Configuration.readZone(context.environment), configuration: context)
            .announcing(to: context.controlSocket)
    }
}
