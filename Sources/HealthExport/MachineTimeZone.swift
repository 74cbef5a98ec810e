#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The importing machine's time zone: the last resort for a date that carries no zone.
enum MachineTimeZone {
    /// The UTC offset (seconds) in effect at noon of the local day `days` since 1970-01-01.
    static func offset(onLocalDay days: Int64) -> Int32 {
        var t = time_t(days * 86_400 + 43_200)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        // Noon UTC is within a few hours of local noon: a second pass at the local noon found.
        t = time_t(days * 86_400 + 43_200 - Int64(parts.tm_gmtoff))
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int32(parts.tm_gmtoff)
    }
}
