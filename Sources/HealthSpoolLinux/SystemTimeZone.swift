import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// The machine's time zone (`TZ`, else /etc/localtime) as the journal's `OffsetRules`: the offset
/// the C library reports for an instant, DST included.
public struct SystemTimeZone: OffsetRules {
    public init() {}

    public func offset(atUTCMillis millis: Int64) -> Int32 {
        var t = time_t(Timestamp.floorDivide(millis, 1000).0)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int32(parts.tm_gmtoff)
    }
}
