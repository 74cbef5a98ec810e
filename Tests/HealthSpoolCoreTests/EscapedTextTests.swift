import Testing
@testable import HealthSpoolCore

/// File names shown in logs: a control character or an invalid byte cannot split a line.
@Suite struct EscapedTextTests {
    @Test func controlCharactersAreEscapedAndPlainTextIsUntouched() {
        #expect(EscapedText.escape("a\nb.json") == "a\\nb.json")
        #expect(EscapedText.escape("t\tr\r\u{1B}[31m\u{85}") == "t\\tr\\r\\u{1B}[31m\\u{85}")
        #expect(EscapedText.escape("café ❤️.json") == "café ❤️.json")
    }

    @Test func invalidUTF8BytesAreShownAsHexAndValidOnesDecoded() {
        #expect(EscapedText.escape(bytes: Array("caf".utf8) + [0xE9] + Array(".json".utf8)) == "caf\\xE9.json")
        #expect(EscapedText.escape(bytes: [0xFF, 0x0A, 0xC3, 0xA9]) == "\\xFF\\né")
        #expect(!EscapedText.isValidUTF8([0x61, 0xFF]) && EscapedText.isValidUTF8(Array("é".utf8)))
    }
}
