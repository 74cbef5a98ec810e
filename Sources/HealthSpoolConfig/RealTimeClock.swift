import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// The machine's real-time clock, read where the time is not passed in: a CLI command's "now",
/// the production `WallServiceClock`. Services and use cases take the time or a clock instead.
public enum RealTimeClock {
    /// Now, with the machine's UTC offset at this instant.
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = time_t(ts.tv_sec)
        var local = tm()
        localtime_r(&t, &local)
        return Timestamp(millis: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000, utcOffsetSeconds: Int32(local.tm_gmtoff))
    }
}

extension Configuration {
    /// Now, from the real-time clock (`RealTimeClock.now()`), for the web layer's `DaemonClock`.
    public static func now() -> Timestamp { RealTimeClock.now() }
}
