import Foundation
import PackagePlugin

/// Embeds the web interface's templates and style sheets and scripts in the binary: every file
/// of the target's `Templates/` and `Assets/` folders becomes a string in a generated Swift file
/// (`WebFiles.swift`, by `embed-web-files`). The .deb ships one binary, with no files beside it,
/// and `Bundle.module` would need full Foundation in the web module.
@main
struct EmbedWebFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        var inputs: [URL] = []
        for folder in ["Templates", "Assets"] {
            let dir = target.directoryURL.appending(path: folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") }.sorted()
            inputs += names.map { dir.appending(path: $0) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebFiles.swift")
        return [.buildCommand(displayName: "Embedding \(inputs.count) web files in \(target.name)",
                              executable: try context.tool(named: "embed-web-files").url,
                              arguments: [output.path] + inputs.map(\.path),
                              inputFiles: inputs, outputFiles: [output])]
    }
}
