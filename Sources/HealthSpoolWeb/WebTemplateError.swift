/// Why the web's templates cannot be loaded (`WebTemplates`): the web interface does not start,
/// and the log and `healthspool status` say which template and why.
enum WebTemplateError: Error, Equatable, CustomStringConvertible {
    /// A template the code renders (`WebTemplate`) has no file `Templates/<name>.mustache`.
    case missing(String)
    /// A template file that does not parse: its name and the parser's reason.
    case unparsable(String, String)
    /// A template that includes (`{{>name}}`) or extends (`{{<name}}`) one that does not exist.
    case unknownPart(template: String, part: String)

    var description: String {
        switch self {
        case let .missing(name): "web template \(name).mustache is missing from the build"
        case let .unparsable(name, reason): "web template \(name).mustache does not parse: \(reason)"
        case let .unknownPart(template, part): "web template \(template).mustache uses \(part).mustache, which does not exist"
        }
    }
}
