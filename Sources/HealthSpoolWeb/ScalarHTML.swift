import HealthJournal
import Mustache

/// Every template's escaping (`WebTemplates.scalarEscaping` is put before each; the summary's
/// templates name it themselves too): the project's own HTML escape, one Unicode scalar at a
/// time. swift-mustache's HTML escape looks characters up whole, so a quote or a `<` followed by a
/// combining mark (`"\u{301}`) is one character it does not know and is written as it is: it
/// could end an attribute. The pages show what a person typed and what their providers sent.
struct ScalarHTML: MustacheContentType {
    static let name = "SCALAR_HTML"

    func escapeText(_ text: String) -> String { HTMLText.escape(text) }
}
