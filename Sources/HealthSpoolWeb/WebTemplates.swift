import Mustache

/// The page templates (`Templates/*.mustache`, embedded at build time), parsed and checked once
/// when the web interface starts (`WebRoutes.init` loads `embedded`): a template the code names
/// (`WebTemplate`) without its file, a file that does not parse or a `{{>part}}` that names no
/// template fails the start with a `WebTemplateError`, not a request.
///
/// `{{x}}` writes text HTML-escaped; `{{{x}}}` (no escaping) is used only for the summary file's
/// CSS (`ReportFile`). A name is looked up the
/// whole context stack, and a nil optional counts as absent: it falls through to an outer view
/// model's field of the same name, so optional fields get names the outer ones do not use.
struct WebTemplates: Sendable {
    let library: MustacheLibrary

    /// The templates of `files` (name without `.mustache` → text), each parsed, checked as above.
    init(files: [String: String]) throws(WebTemplateError) {
        for template in WebTemplate.allCases where files[template.rawValue] == nil {
            throw .missing(template.rawValue)
        }
        // Before the templates are parsed: the summary's templates name it.
        MustacheContentTypes.register(ScalarHTML(), named: ScalarHTML.name)
        var library = MustacheLibrary()
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            do { try library.register(Self.scalarEscaping + text, named: name) } catch { throw .unparsable(name, "\(error)") }
        }
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            if let part = Self.parts(of: text).first(where: { files[$0] == nil }) {
                throw .unknownPart(template: name, part: part)
            }
        }
        self.library = library
    }

    /// Put before every template: `{{x}}` escapes with `ScalarHTML` (the project's escape, one
    /// Unicode scalar at a time), not swift-mustache's own, which looks characters up whole and
    /// lets a quote or `<` followed by a combining mark (`"\u{301}`) through unescaped: a symptom
    /// or note so named could end an attribute. A line of its own, which the parser drops whole
    /// (a standalone tag), so the template's first line keeps its meaning: it writes nothing.
    static let scalarEscaping = "{{% CONTENT_TYPE: \(ScalarHTML.name)}}\n"

    /// The names a template includes (`{{>name}}`) or extends (`{{<name}}`).
    static func parts(of text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            guard let sigil = rest.first, sigil == ">" || sigil == "<", let close = rest.range(of: "}}") else { continue }
            names.append(rest[rest.index(after: rest.startIndex)..<close.lowerBound].trimmingCharacters(in: " "))
            rest = rest[close.upperBound...]
        }
        return names
    }

    /// `model` rendered by `template` (its fields read once each: `TemplateValue`).
    func render(_ model: Any, _ template: WebTemplate) -> String {
        // Cannot fail: `init` checked that every `WebTemplate` was registered.
        guard let html = library.render(TemplateValue.wrap(model), withTemplate: template.rawValue) else { preconditionFailure("no template \(template.rawValue)") }
        return html
    }

    /// The embedded templates, loaded once; the web interface's start reads it first.
    static let embedded: Result<WebTemplates, WebTemplateError> = Result { () throws(WebTemplateError) in
        try WebTemplates(files: WebFiles.templates)
    }

    /// `model` rendered by the embedded `template` (loaded at start: see `embedded`).
    static func render(_ model: Any, _ template: WebTemplate) -> String {
        switch embedded {
        case .success(let templates): templates.render(model, template)
        case .failure(let error): preconditionFailure("\(error)")
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

/// What the templates' forms read from the context: `{{csrf}}`, and `{{once}}`, a fresh
/// one-time token (`SessionMemory.issue`) each time a template writes it.
struct KeyFields {
    let csrf: String
    let once: MustacheLambda

    init(_ keys: FormKeys) {
        csrf = keys.csrf
        once = MustacheLambda { keys.issue() }
    }
}
