import ArgumentParser
import HealthSpoolCore

/// The message for a command line whose subcommand is mistyped (`healthspool stauts`):
/// "Unknown command" with the closest command, as ArgumentParser does for a mistyped option.
enum SubcommandTypo {
    /// The message, or nil when the arguments hold no unknown word where a subcommand is expected.
    static func message(for arguments: [String], root: ParsableCommand.Type) -> String? {
        var command = root
        var path = [name(of: root)]
        for argument in arguments {
            if argument.hasPrefix("-") { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { names(of: $0).contains(argument) }) {
                command = next
                path.append(name(of: next))
                continue
            }
            let candidates = subcommands.flatMap(names(of:)) + ["help"]
            let suggestion = NameSuggestion.closest(to: argument, among: candidates)
            // Under a default subcommand, an unknown word may be that subcommand's argument.
            if command.configuration.defaultSubcommand != nil, suggestion == nil { return nil }
            let hint = suggestion.map { " Did you mean '\($0)'?" } ?? ""
            let list = subcommands.map(name(of:)).joined(separator: ", ")
            return "Error: Unknown command '\(argument)' for '\(path.joined(separator: " "))'.\(hint)\nCommands: \(list).\nSee '\(path.joined(separator: " ")) --help'."
        }
        return nil
    }

    static func name(of command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }

    static func names(of command: ParsableCommand.Type) -> [String] {
        [name(of: command)] + command.configuration.aliases
    }
}
