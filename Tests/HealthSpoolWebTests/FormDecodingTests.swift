@testable import HealthSpoolWeb
import Testing

/// The forms the browser posts are decoded into each form's `Fields` (Hummingbird's
/// `URLEncodedFormDecoder`, `Form.decode`): what the page sent, and nil for what it left out.
@Suite struct FormDecodingTests {
    @Test func aTakenButtonsBodyDecodesIntoTheDoseFields() throws {
        let fields = try Form("csrf=c&once=o&id=12&back=%2F").decode(DoseEdits.Fields.self)
        #expect(fields.id == "12")
        #expect(fields.back == "/")
        #expect(fields.date == nil && fields.time == nil)
    }

    @Test func aSymptomEditDecodesItsTypedTextAsTyped() throws {
        let body = "id=7&back=%2Fday%2F2026-11-26&severity=3&date=2026-11-26&time=9am&when=morning"
            + "&category=Head&relieved=rest%2C+water&aggravated=&note=after+the+walk+%26+lunch"
        let fields = try Form(body).decode(SymptomEdits.Fields.self)
        #expect(fields.id == "7")
        #expect(fields.back == "/day/2026-11-26")
        #expect(fields.severity == "3")
        #expect(fields.time == "9am")
        #expect(fields.relieved == "rest, water")
        #expect(fields.aggravated == "")
        #expect(fields.note == "after the walk & lunch")
    }

    @Test func aFieldSentTwiceCountsWithItsFirstValueAsTheFormReadsIt() throws {
        let form = Form("id=1&back=%2Fjournal&id=2")
        #expect(try form.decode(EntryFields.self).id == form["id"])
        #expect(try form.decode(EntryFields.self).id == "1")
    }

    @Test func aSymptomLoggedDecodesItsFields() throws {
        let fields = try Form("symptom=Head+ache&severity=2&when=&relieved=rest").decode(SymptomPages.Fields.self)
        #expect(fields.symptom == "Head ache")
        #expect(fields.severity == "2")
        #expect(fields.when == "")
        #expect(fields.note == nil)
    }
}
