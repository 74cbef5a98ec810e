import Testing
import HealthSpoolCore
@testable import HealthSpoolLinux

/// gpsd's JSON reports: only TPV reports with a 2D or 3D fix are positions.
@Suite struct GpsFixTests {
    @Test func a3DFixIsReadWithAltitudeTimeAndError() throws {
        let line = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-28T10:00:05.000Z","ept":0.005,"lat":52.516,"lon":13.3777,"altHAE":80.9,"eph":4.5}"#
        let fix = try #require(GpsFix(gpsdLine: line))
        #expect(fix.latitude == 52.516 && fix.longitude == 13.3777 && fix.mode == 3)
        #expect(fix.altitude == 80.9 && fix.horizontalError == 4.5 && fix.device == "/dev/ttyUSB0")
        #expect(fix.time?.iso8601UTC == "2026-03-28T10:00:05.000Z")
    }

    @Test func noFixAndOtherReportsAreNotPositions() {
        #expect(GpsFix(gpsdLine: #"{"class":"TPV","mode":1}"#) == nil)
        #expect(GpsFix(gpsdLine: #"{"class":"TPV","mode":0,"lat":1,"lon":2}"#) == nil)
        #expect(GpsFix(gpsdLine: #"{"class":"VERSION","release":"3.22"}"#) == nil)
        #expect(GpsFix(gpsdLine: #"{"class":"SKY","satellites":[]}"#) == nil)
        #expect(GpsFix(gpsdLine: #"{"class":"TPV","mode":2,"lat":123,"lon":2}"#) == nil)
        #expect(GpsFix(gpsdLine: "not json \"TPV\"") == nil)
    }

    @Test func a2DFixHasNoAltitude() throws {
        let fix = try #require(GpsFix(gpsdLine: #"{"class":"TPV","mode":2,"lat":-33.86,"lon":151.21,"alt":12}"#))
        #expect(fix.altitude == nil && fix.mode == 2)
    }

    @Test func positionsStayLocalUnlessEnabledByName() throws {
        var s = Settings()
        #expect(s.isEnabled("location") && !s.isSent("location"))
        #expect(s.isSent("heartRate"))
        s.enabledTypes = ["location"]
        #expect(s.isSent("location"))
        s.disabledTypes = ["location"]
        #expect(!s.isSent("location"))
    }

    @Test func anUnreachableGpsdIsNamed() {
        #expect(throws: GpsdError.self) { try GpsdConnection(address: "127.0.0.1:1", timeoutMillis: 500) }
        #expect(throws: GpsdError.badAddress("nohost")) { try GpsdConnection(address: "nohost", timeoutMillis: 500) }
    }
}
