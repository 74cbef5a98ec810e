/// The global `-q`/`--quiet` and `-v`/`--verbose` options every command takes: `-v` logs at
/// debug level, `-q` only errors.
public enum CommandLineVerbosity: Sendable, Equatable {
    case normal
    case quiet
    case verbose

    /// The log level for a command whose own level is `level`: debug when verbose, error when quiet.
    public func logLevel(default level: String) -> String {
        switch self {
        case .normal: level
        case .quiet: "error"
        case .verbose: "debug"
        }
    }

    public var isQuiet: Bool { self == .quiet }

    /// The arguments without `-q`, `--quiet`, `-v` and `--verbose` (anywhere before a `--`),
    /// and the verbosity they ask for (the last one given wins). Option values are left alone:
    /// an argument right after `--set` and the like is a value, not a flag.
    public static func extract(from arguments: [String], optionsTakingValues: Set<String> = []) -> (arguments: [String], verbosity: CommandLineVerbosity) {
        var out: [String] = []
        var verbosity = CommandLineVerbosity.normal
        var index = 0
        while index < arguments.count {
            let a = arguments[index]
            if a == "--" { out += arguments[index...]; break }
            if optionsTakingValues.contains(a), index + 1 < arguments.count {
                out += [a, arguments[index + 1]]
                index += 2
                continue
            }
            switch a {
            case "-q", "--quiet": verbosity = .quiet
            case "-v", "--verbose": verbosity = .verbose
            default: out.append(a)
            }
            index += 1
        }
        return (out, verbosity)
    }
}
