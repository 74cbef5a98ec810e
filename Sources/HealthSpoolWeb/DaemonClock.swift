import HealthSpoolConfig
import HealthSpoolDaemon
import HealthSpoolCore

/// The wall clock, as the daemon reads it.
enum DaemonClock {
    static func now() -> Timestamp { Configuration.now() }
}
