// Writes the web interface's templates and assets as one Swift file (the EmbedWebFiles plugin
// runs it at build time): `embed-web-files OUTPUT FILE…`. A file in a folder named `Templates`
// becomes `WebFiles.templates[name without .mustache]` (a `report-…` one joined into one line:
// `joinedLines`); any other becomes
// `WebFiles.assets[file name]` with a hash of its content for its address.
#if canImport(Glibc)
import Glibc
#endif

/// The whole file's bytes; stops the build with the path on a failure.
func read(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { fail("cannot open \(path)") }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n == 0 { break }
        bytes += chunk[0..<n]
    }
    if ferror(f) != 0 { fail("cannot read \(path)") }
    return bytes
}

func fail(_ message: String) -> Never {
    let line = Array("embed-web-files: \(message)\n".utf8)
    _ = write(2, line, line.count)
    exit(1)
}

/// The text as a Swift string literal.
func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20: out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// `text` as one line: every newline dropped with the spaces and tabs that follow it (a space
/// wanted between two lines is written at the end of the first or on one line).
func joinedLines(_ text: String) -> String {
    var out = ""
    var skipping = false
    for scalar in text.unicodeScalars {
        if scalar == "\n" { skipping = true; continue }
        if skipping, scalar == " " || scalar == "\t" { continue }
        skipping = false
        out.unicodeScalars.append(scalar)
    }
    return out
}

/// FNV-1a, 64 bits, as 16 hex digits: a new address whenever the content changes (not a
/// security hash; the file is the binary's own).
func contentHash(_ bytes: [UInt8]) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: embed-web-files OUTPUT FILE…") }
var templates: [String] = []
var assets: [String] = []
for path in arguments.dropFirst(2) {
    let parts = path.split(separator: "/")
    let name = String(parts.last ?? "")
    let folder = parts.count >= 2 ? String(parts[parts.count - 2]) : ""
    let bytes = read(path)
    let text = String(decoding: bytes, as: UTF8.self)
    if folder == "Templates" {
        guard name.hasSuffix(".mustache") else { fail("\(path): a template's name ends in .mustache") }
        // The doctor's summary's templates (report-…) are written indented over many lines; its
        // markup is one line (the file has always been): each newline and the indentation after it go.
        let body = name.hasPrefix("report-") ? joinedLines(text) : text
        templates.append("        \(literal(String(name.dropLast(".mustache".count)))): \(literal(body)),")
    } else {
        assets.append("        \(literal(name)): EmbeddedAsset(text: \(literal(text)), hash: \(literal(contentHash(bytes)))),")
    }
}
let source = """
    // Generated at build time by embed-web-files (the EmbedWebFiles plugin) from the target's
    // Templates/ and Assets/ folders. Do not edit: edit those files.

    /// The web interface's files, embedded in the binary.
    enum WebFiles {
        /// The Mustache templates by name (the file name without `.mustache`).
        static let templates: [String: String] = [
    \(templates.isEmpty ? "        :" : templates.joined(separator: "\n"))
        ]
        /// The style sheets and scripts by file name.
        static let assets: [String: EmbeddedAsset] = [
    \(assets.isEmpty ? "        :" : assets.joined(separator: "\n"))
        ]
    }

    """
let output = arguments[1]
guard let f = fopen(output + ".tmp", "wb") else { fail("cannot write \(output)") }
let utf8 = Array(source.utf8)
guard fwrite(utf8, 1, utf8.count, f) == utf8.count, fclose(f) == 0, rename(output + ".tmp", output) == 0 else { fail("cannot write \(output)") }
