import Mustache

/// The page templates (`Templates/*.mustache`, embedded at build time), parsed once. `{{x}}`
/// writes text HTML-escaped; `{{{x}}}` (no escaping) is used only for the summary file's CSS
/// (`ReportFile`). A name is
/// looked up the whole context stack, and a nil optional counts as absent: it falls through to
/// an outer view model's field of the same name, so optional fields get names the outer ones do
/// not use.
enum WebTemplates {
    static let library: MustacheLibrary = {
        // Before the templates are parsed: the summary's templates name it.
        MustacheContentTypes.register(ScalarHTML(), named: ScalarHTML.name)
        var library = MustacheLibrary()
        for (name, text) in WebFiles.templates {
            do { try library.register(text, named: name) } catch { preconditionFailure("template \(name) does not parse: \(error)") }
        }
        return library
    }()

    /// `model` rendered by the template `name`.
    static func render(_ model: Any, _ name: String) -> String {
        guard let html = library.render(model, withTemplate: name) else { preconditionFailure("no template \(name)") }
        return html
    }
}

/// What the templates' forms read from the context: `{{csrf}}`, and `{{once}}`, a fresh
/// one-time token (`FormTokens`) each time a template writes it.
struct KeyFields {
    let csrf: String
    let once: MustacheLambda

    init(_ keys: FormKeys) {
        csrf = keys.csrf
        once = MustacheLambda { keys.issue() }
    }
}
