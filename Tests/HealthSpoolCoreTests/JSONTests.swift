import Testing
@testable import HealthSpoolCore

@Suite struct JSONTests {
    @Test func parsesNestedDocumentsWithEscapesAndSurrogatePairs() throws {
        let v = try JSONParser.parse(#"{"a":[1,2.5,-3e2,true,false,null],"s":"q\"\\\/\n\u00e9\ud83d\ude00"}"#)
        #expect(v["a"] == .array([.number(1), .number(2.5), .number(-300), .bool(true), .bool(false), .null]))
        #expect(v["s"]?.stringValue == "q\"\\/\né😀")
    }

    @Test(arguments: ["{", "[1,]", #"{"a" 1}"#, "tru", "[1] x", "\"\u{01}\"", "01x"])
    func rejectsInvalidDocumentsWithAnOffset(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func refusesNestingBeyondTheLimit() {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test func writerOutputParsesBackToTheSameValue() throws {
        let v: JSONValue = .object([("k", .string("a\"b\\c\u{7}\n")), ("n", .number(1.5)), ("i", .number(3)), ("z", .array([.null]))])
        var w = JSONWriter()
        w.value(v)
        #expect(try JSONParser.parse(w.bytes) == v)
        #expect(w.text.contains(#""i":3"#))
    }

    @Test func timestampsAndNumbersWrittenAsBytesMatchTheirStringForms() {
        // A spread of instants (before 1970, around leap days, years 1 and 9999) and offsets
        // (negative, half and quarter hours), written one after another as the encoder does.
        var w = JSONWriter()
        var expected = ""
        var millis: Int64 = -62_135_596_800_000   // 0001-01-01
        let offsets: [Int32] = [0, 3600, -12_600, 19_800, 20_700, -36_000, 50_400]
        var n = 0
        while millis < 253_402_300_799_000 {   // 9999-12-31
            let t = Timestamp(millis: millis, utcOffsetSeconds: offsets[n % offsets.count])
            w.timestamp(t, utc: n % 3 == 0); w.raw(",")
            expected += "\"\(n % 3 == 0 ? t.iso8601UTC : t.iso8601Local)\","
            millis += 86_399_999 * Int64(1 + n % 400) + Int64(n % 1000)
            n += 1
        }
        for v: Int64 in [0, 7, -7, 10, 99, 100, 1_000_000_007, .max, .min] {
            w.number(v); w.raw(",")
            expected += "\(v),"
        }
        #expect(w.text == expected)
    }

    /// Fuzz finding (native, hae-json, control, gateway targets): a high surrogate escape followed by
    /// an escape that is not a low surrogate overflowed the scalar arithmetic and crashed the
    /// process (a hostile gateway body or control request could do that). Minimised input below.
    @Test func aHighSurrogateWithoutItsLowHalfIsAReplacementCharacter() throws {
        #expect(try JSONParser.parse(#""\ud84d\u1e30""#) == .string("\u{FFFD}\u{1E30}"))
        #expect(try JSONParser.parse(#""\ud83d\ud83d\ude00x""#) == .string("\u{FFFD}\u{1F600}x"))
        #expect(try JSONParser.parse(#""\udc00\ud83d""#) == .string("\u{FFFD}\u{FFFD}"))
        let fuzzed: [UInt8] = Array(#"{"typ\ud84d\u1e308de"#.utf8) + [0, 0, 0] + Array("bnRat".utf8) + [0xFF, 0xFF, 0x03, 0x94]
            + Array(#"e1:00", "so"#.utf8) + [0x09, 0x8B] + Array("cOpt308}".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(fuzzed) }
    }

    /// Fuzz finding K1 (control target, its inputs): a number past a Double's range read as
    /// infinity, which `JSONWriter` wrote back as null. It is refused where it stands, naming it.
    @Test(arguments: ["1e637", "71e3071", "-1e309", #"{"command":"sync","n":1e637}"#])
    func aNumberTooLargeForADoubleIsRefused(_ text: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            let e = error as? JSONSyntaxError
            return e?.reason.contains("too large") == true && e?.offset == (text.hasPrefix("{") ? 22 : 0)
        }
    }

    /// The largest finite numbers, and numbers too small for a Double (they read as zero), still parse
    /// and are written back to the same value.
    @Test(arguments: ["1.7976931348623157e308", "-1.7976931348623157e308", "1e-400"])
    func numbersAtTheEdgesOfTheRangeRoundTrip(_ text: String) throws {
        let v = try JSONParser.parse(text)
        var w = JSONWriter()
        w.value(v)
        #expect(try JSONParser.parse(w.bytes) == v)
    }
}
