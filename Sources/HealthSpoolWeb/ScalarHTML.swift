import HealthJournal
import Mustache

/// The doctor's summary's escaping (`{{% CONTENT_TYPE: SCALAR_HTML}}` in its templates): the
/// project's own HTML escape, one Unicode scalar at a time. swift-mustache's HTML escape looks
/// characters up whole, so a quote or a `<` followed by a combining mark (`"\u{301}`) is one
/// character it does not know and is written as it is: it could end an attribute. The summary
/// shows what a person typed and what their providers sent; it was escaped this way before its
/// sections became templates, and stays so.
struct ScalarHTML: MustacheContentType {
    static let name = "SCALAR_HTML"

    func escapeText(_ text: String) -> String { HTMLText.escape(text) }
}
