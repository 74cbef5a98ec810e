@testable import HealthSpoolWeb
import Testing

/// The templates are resolved once, when the web starts (`WebTemplates`): a missing, broken or
/// misnamed template fails the start, naming it, instead of a request.
@Suite struct WebTemplatesTests {
    @Test func theEmbeddedTemplatesLoadAndAreExactlyTheNamedOnes() throws {
        _ = try WebTemplates.embedded.get()
        #expect(Set(WebFiles.templates.keys) == Set(WebTemplate.allCases.map(\.rawValue)))
    }

    /// swift-mustache's own escape looks characters up whole: a quote with a combining mark
    /// after it is another character, and it was written as it is, ending the attribute.
    @Test func aQuoteOrBracketWithACombiningMarkIsEscapedOnEveryPage() {
        let mark = "\u{301}"   // a combining acute accent
        let html = WebTemplates.render(["title": "t", "text": "<" + mark + "b>", "style": "/s.css",
                                        "back": ["href": "/x\"" + mark + " onmouseover=alert(1) a=\"", "label": "back"]], .plain)
        let raw = "\"" + mark + " onmouseover", escapedHref = "/x&quot;" + mark + " onmouseover=alert(1) a=&quot;"
        let escapedText = "&lt;" + mark + "b&gt;"
        #expect(!html.contains(raw))
        #expect(html.contains(escapedHref))
        #expect(html.contains(escapedText))
        // A form field's value (a symptom or note as typed, shown again): the same escape.
        let field = WebTemplates.render(["id": "f", "label": "Note", "name": "note", "value": "a\"" + mark + " autofocus onfocus=x"], .field)
        let escapedValue = "value=\"a&quot;" + mark + " autofocus onfocus=x\""
        #expect(field.contains(escapedValue))
    }

    @Test(arguments: [WebTemplate.home, .layout, .formKeys, .report])
    func aLibraryMissingOneTemplateFailsToLoadNamingIt(_ missing: WebTemplate) {
        var files = WebFiles.templates
        files[missing.rawValue] = nil
        #expect(throws: WebTemplateError.missing(missing.rawValue)) { try WebTemplates(files: files) }
        #expect(WebTemplateError.missing(missing.rawValue).description.contains("\(missing.rawValue).mustache"))
    }

    @Test func theErrorOfAMissingTemplateNamesItsFile() throws {
        var files = WebFiles.templates
        files["sync"] = nil
        let error = #expect(throws: WebTemplateError.self) { try WebTemplates(files: files) }
        #expect(error?.description == "web template sync.mustache is missing from the build")
    }

    @Test func aTemplateThatIncludesAMisspelledPartFailsToLoadNamingBoth() {
        var files = WebFiles.templates
        files["notes"] = "{{<layout}}{{$main}}{{>form-kesy}}{{/main}}{{/layout}}"
        #expect(throws: WebTemplateError.unknownPart(template: "notes", part: "form-kesy")) { try WebTemplates(files: files) }
    }

    @Test func aTemplateThatDoesNotParseFailsToLoadNamingIt() {
        var files = WebFiles.templates
        files["notes"] = "{{#open}}never closed"
        let error = #expect(throws: WebTemplateError.self) { try WebTemplates(files: files) }
        guard case .unparsable("notes", _)? = error else { Issue.record("not unparsable(notes): \(String(describing: error))"); return }
    }

    @Test func thePartsOfATemplateAreItsIncludesAndItsParent() {
        #expect(WebTemplates.parts(of: "{{<layout}}{{$main}}{{> field}}{{{raw}}}{{x}}{{>notice}}{{/main}}{{/layout}}")
            == ["layout", "field", "notice"])
    }
}
