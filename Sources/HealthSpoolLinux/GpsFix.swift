import HealthSpoolCore

/// A position gpsd reported: a TPV report with a 2D or 3D fix (mode ≥ 2).
public struct GpsFix: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Altitude in metres (3D fixes), height above the ellipsoid or else above sea level.
    public var altitude: Double?
    /// 2 for a 2D fix, 3 for 3D.
    public var mode: Int
    /// The fix's time as gpsd gives it (UTC), if any.
    public var time: Timestamp?
    /// Estimated horizontal error in metres, if gpsd gives one.
    public var horizontalError: Double?
    /// The GPS device's path.
    public var device: String?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, mode: Int, time: Timestamp? = nil,
                horizontalError: Double? = nil, device: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.mode = mode
        self.time = time
        self.horizontalError = horizontalError
        self.device = device
    }

    /// The fix in one line of gpsd's JSON, or nil when the line is not a TPV report with a fix
    /// (`{"class":"TPV","mode":3,"lat":…,"lon":…}`; VERSION, DEVICES, WATCH, SKY and mode 0/1 TPVs are not).
    public init?(gpsdLine line: String) {
        guard line.contains("\"TPV\""), let v = try? JSONParser.parse(line), v["class"]?.stringValue == "TPV",
              let mode = v["mode"]?.doubleValue, mode >= 2,
              let lat = v["lat"]?.doubleValue, let lon = v["lon"]?.doubleValue,
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        self.init(latitude: lat, longitude: lon, altitude: mode >= 3 ? (v["altHAE"] ?? v["alt"] ?? v["altMSL"])?.doubleValue : nil,
                  mode: Int(mode), time: v["time"]?.stringValue.flatMap { TimestampParser.parse($0, defaultOffsetSeconds: 0) },
                  horizontalError: v["eph"]?.doubleValue, device: v["device"]?.stringValue)
    }
}
