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
}
