import Mustache
import Testing
@testable import HealthSpoolWeb

/// `TemplateValue` reads a view model's fields once; a template must write the same text as
/// swift-mustache writes from the view model itself.
@Suite struct TemplateValueTests {
    struct Label: CustomStringConvertible {
        let text: String
        var description: String { "«\(text)»" }
    }

    enum Mood { case calm, restless }

    struct Point {
        let x: Double
        let y: Int
        let note: String?
    }

    struct Series {
        let open: Bool
        let points: [Point]
        let note: String
        let label: Label
        let mood: Mood
        let gloss: String?
        let tags: [String]
    }

    struct Page {
        let title: String
        let series: [Series]
        let missing: [Point]
        let gloss: String
    }

    static let template = """
        <h1>{{title}}</h1>{{#series}}<g class="{{mood}}" data-label="{{label}}">\
        {{#points}}<c x="{{x}}" y="{{y}}" open="{{#open}}yes{{/open}}{{^open}}no{{/open}}" note="{{note}}"/>{{/points}}\
        {{#gloss}}<i>{{.}}</i>{{/gloss}}{{^gloss}}none{{/gloss}}{{#tags}}[{{.}}]{{/tags}}{{^tags}}no tags{{/tags}}</g>{{/series}}\
        {{^missing}}<p>nothing missing</p>{{/missing}}<p>{{gloss}}</p>
        """

    static let page = Page(
        title: "A & <b>",
        series: [
            Series(
                open: true, points: [Point(x: 1.5, y: 2, note: nil), Point(x: 3, y: 4, note: "own \"note\"")], note: "the series' note",
                label: Label(text: "steps"), mood: .calm, gloss: nil, tags: ["a", "b"]),
            Series(open: false, points: [], note: "second", label: Label(text: "sleep"), mood: .restless, gloss: "a gloss", tags: []),
        ],
        missing: [], gloss: "the page's gloss")

    @Test func aViewModelRendersAsSwiftMustacheRendersItWithoutTheWrapper() throws {
        var library = MustacheLibrary()
        try library.register(Self.template, named: "t")
        let plain = try #require(library.render(Self.page, withTemplate: "t"))
        let wrapped = try #require(library.render(TemplateValue.wrap(Self.page), withTemplate: "t"))
        #expect(wrapped == plain)
        // What the template says: a nil optional falls through to the outer value's field of the
        // same name (the first point's note is the series' note); a text form of its own is kept.
        #expect(plain.contains("<c x=\"1.5\" y=\"2\" open=\"yes\" note=\"the series&#39; note\"/>"))
        #expect(plain.contains("data-label=\"«steps»\""))
        #expect(plain.contains("class=\"calm\""))
        #expect(plain.contains("<i>a gloss</i>"))
        #expect(plain.contains("<i>the page&#39;s gloss</i>[a][b]"))
    }

    @Test func aNilOptionalFirstMetDoesNotHideALaterValueOfTheSameType() throws {
        // The wrapper remembers what each type is; an optional's content is read per value.
        struct Row { let gloss: String? }
        struct Rows { let rows: [Row] }
        var library = MustacheLibrary()
        try library.register("{{#rows}}<{{#gloss}}{{.}}{{/gloss}}>{{/rows}}", named: "t")
        let model = Rows(rows: [Row(gloss: nil), Row(gloss: "x"), Row(gloss: nil)])
        #expect(library.render(TemplateValue.wrap(model), withTemplate: "t") == "<><x><>")
        #expect(library.render(model, withTemplate: "t") == "<><x><>")
    }
}
