import HealthSpoolLinux
#if canImport(Glibc)
import Glibc
#endif
@testable import HealthExport
import HealthSpoolCore

/// `dump-zip FILE…`: one JSON line a file with what the zip reader made of it (member name,
/// local header offset, size and SHA-256 of its bytes, whether the central directory was used),
/// or its error. `Fuzz/zip-crosscheck.py` compares these with Python's zipfile.
enum ZipDump {
    static func run(_ paths: [String]) -> Int32 {
        for path in paths {
            guard let bytes = readFile(path) else { StandardError.write("cannot read \(path)\n"); return 1 }
            let source = MemoryByteSource(bytes)
            var content: [UInt8] = []
            let outcome = ZipOutcome(source, reads: nil) { content.append(contentsOf: $0) }
            var w = JSONWriter()
            w.raw("{\"file\":"); w.string(path)
            if let error = outcome.error {
                w.raw(",\"ok\":false,\"error\":"); w.string(error)
            } else {
                let usedDirectory = (try? ZipArchive.centralDirectory(source)) != nil
                let digest = SHA256.hash(content)
                w.raw(",\"ok\":true,\"member\":"); w.string(outcome.member ?? "")
                w.raw(",\"offset\":"); w.number(outcome.offset ?? -1)
                w.raw(",\"size\":"); w.number(outcome.size)
                w.raw(",\"centralDirectory\":"); w.raw(usedDirectory ? "true" : "false")
                w.raw(",\"sha256\":"); w.string(digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined())
            }
            w.raw("}")
            print(w.text)
        }
        return 0
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}
