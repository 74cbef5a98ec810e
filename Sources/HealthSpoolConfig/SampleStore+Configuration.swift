import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

extension SampleStore {
    /// Opens a connection to `configuration`'s store, creating the state directory (0700) and
    /// the store file (0600) when needed, its day rollups drawn in the configuration's zone with
    /// its source priority (a store opened bare draws them in UTC, and every read in another
    /// zone then rebuilds them all). The one place a configuration becomes a connection: the
    /// daemon's parts that hold one for their life, the `App`'s `StorePool`, each CLI command.
    public static func connect(to configuration: Configuration, busyTimeout: Duration? = nil) throws -> SampleStore {
        try FileSystem.makeDirectory(configuration.stateDir, mode: 0o700)
        // Made 0600 without opening the store's own name: a descriptor of it closed here, while
        // another connection of this process has it open (the daemon's parts open theirs at
        // the same time at its start), would drop SQLite's locks (`SafeWrite.createEmpty`).
        if !FileSystem.exists(configuration.storePath) { try SafeWrite.createEmpty(configuration.storePath, mode: 0o600) }
        let store = try SampleStore(path: configuration.storePath, busyTimeout: busyTimeout)
        store.rollupPolicy = RollupPolicy(zone: configuration.zone, priority: configuration.settings.sourcePriority)
        return store
    }
}
