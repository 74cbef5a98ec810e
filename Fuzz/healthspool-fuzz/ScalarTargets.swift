@testable import HealthExport
import HealthSpoolCore

/// The timestamp and decimal parsers, byte for byte.
enum ScalarTargets {
    /// Properties: the String and byte entry points agree; a parsed time written back as RFC 3339
    /// (local with its offset, and UTC) parses to the same instant and offset.
    static let timestamp = FuzzTarget(name: "timestamp", summary: "timestamp parser (String vs bytes, RFC 3339 round trip)") { data in
        let fromBytes = TimestampParser.parse(data)
        let fromText = TimestampParser.parse(String(decoding: data, as: UTF8.self))
        if let utf8 = String(validating: data, as: UTF8.self),
           fromText?.millis != fromBytes?.millis || fromText?.utcOffsetSeconds != fromBytes?.utcOffsetSeconds {
            propertyFailed("timestamp: '\(utf8)' parses to \(String(describing: fromBytes)) as bytes, \(String(describing: fromText)) as text")
        }
        guard let t = fromBytes else { return }
        for text in [t.iso8601Local, t.iso8601UTC] {
            guard let back = TimestampParser.parse(text), back.millis == t.millis,
                  back.utcOffsetSeconds == (text == t.iso8601UTC ? 0 : t.utcOffsetSeconds) else {
                propertyFailed("timestamp: \(t.millis) ms (offset \(t.utcOffsetSeconds) s) from '\(String(decoding: data, as: UTF8.self))' "
                               + "is written '\(text)', which parses to \(String(describing: TimestampParser.parse(text)))")
            }
        }
    }

    /// Property: whatever the decimal parser accepts, the standard library reads to the same double.
    static let decimal = FuzzTarget(name: "decimal", summary: "decimal parser (against the standard library)") { data in
        guard let v = DecimalParser.parse(data) else { return }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: " ")
        guard let expected = Double(text) else { propertyFailed("decimal: '\(text)' parses to \(v), the standard library rejects it") }
        if v.bitPattern != expected.bitPattern, !(v == 0 && expected == 0) {
            propertyFailed("decimal: '\(text)' parses to \(v), the standard library reads \(expected)")
        }
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
