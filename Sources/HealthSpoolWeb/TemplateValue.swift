import Mustache

/// A view model as the templates read it: its stored properties by name, read once.
///
/// swift-mustache finds `{{name}}` in a struct through `Mirror`, listing every field of every
/// value on the context stack for each name it looks up (`Mirror.getValue(forKey:)` filters the
/// whole `children`). A summary's chart writes each point's `x` and `y` and looks `open` and
/// `spaced` up through the point, its series and the chart: 84 % of `/report`'s time went there
/// (BENCHMARKS.md, "Every page after issue 41"). Wrapped, a value lists its fields once, on its
/// first lookup, and answers each name from a dictionary; its fields are wrapped the same way
/// when they are structs, classes or enums, arrays element by element.
///
/// The meaning stays the template's: a nil optional is absent (the name falls through to an
/// outer view model, as with `Mirror`), and a value written as text (`{{.}}`) is written as
/// `String(describing:)` of the value itself; a type with a text form of its own
/// (`CustomStringConvertible`, as `ChartNumber`) is left as it is.
final class TemplateValue: MustacheParent, CustomStringConvertible {
    private let value: Any
    private let reader: Reader
    private var fields: [String: Any]?

    private init(_ value: Any, _ reader: Reader) {
        self.value = value
        self.reader = reader
    }

    /// `model` as the templates read it, for one rendering (see `Reader`).
    static func wrap(_ model: Any) -> Any {
        Reader().wrap(model)
    }

    func child(named name: String) -> Any? {
        if let fields { return fields[name] }
        var read: [String: Any] = [:]
        for child in Mirror(reflecting: value).children {
            // The first of a label, as `Mirror.getValue(forKey:)` takes it.
            guard let label = child.label, read[label] == nil else { continue }
            var field = child.value
            if reader.kind(of: field) == .optional {
                // An optional's content; none is absent, as swift-mustache unwraps a field.
                guard let content = Mirror(reflecting: field).children.first?.value else { continue }
                field = content
            }
            read[label] = reader.wrap(field)
        }
        fields = read
        return read[name]
    }

    var description: String { String(describing: value) }

    /// How one rendering wraps values: what to do with a value depends on its type alone, so
    /// each type is looked at once (dynamic casts and `Mirror` are what cost).
    final class Reader {
        enum Kind { case asIs, array, optional, wrapped }
        private var kinds: [ObjectIdentifier: Kind] = [:]

        /// An array's elements wrapped; a struct, class or enum without a text form of its own
        /// wrapped; anything else (text, numbers, Booleans, lambdas, swift-mustache's own kinds,
        /// an optional) as it is.
        func wrap(_ value: Any) -> Any {
            switch kind(of: value) {
            case .asIs, .optional: value
            case .array: (value as! [Any]).map(wrap)
            case .wrapped: TemplateValue(value, self)
            }
        }

        func kind(of value: Any) -> Kind {
            let type = ObjectIdentifier(Swift.type(of: value))
            if let known = kinds[type] { return known }
            // An optional first, by its type: a cast of an optional value looks at its content.
            if Swift.type(of: value) is any OptionalType.Type {
                kinds[type] = .optional
                return .optional
            }
            let kind: Kind =
                switch value {
                case is String, is Bool, is Int, is Double, is MustacheLambda, is MustacheParent, is MustacheCustomRepresentation: .asIs
                case is [Any]: .array
                case is CustomStringConvertible: .asIs
                default:
                    switch Mirror(reflecting: value).displayStyle {
                    case .struct?, .class?, .enum?: .wrapped
                    default: .asIs
                    }
                }
            kinds[type] = kind
            return kind
        }
    }
}

/// `Optional`, whatever it holds: `TemplateValue.Reader` tells it by its type.
private protocol OptionalType {}
extension Optional: OptionalType {}
