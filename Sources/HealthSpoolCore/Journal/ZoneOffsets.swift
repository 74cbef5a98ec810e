/// A tz database zone (`ZoneRules`, which reads instants in seconds) as `OffsetRules` (which
/// reads them in milliseconds), so the day rules (`LocalDay`) use the zone reminders ring in.
public struct ZoneOffsets: OffsetRules {
    public let zone: ZoneRules
    public init(_ zone: ZoneRules) { self.zone = zone }
    public func offset(atUTC millis: Int64) -> Int32 { zone.offset(atUTC: Timestamp.floorDivide(millis, 1000).0) }
}
