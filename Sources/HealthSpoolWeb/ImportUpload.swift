import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
#if canImport(Glibc)
import Glibc
#endif

/// Import by dropping a file on the page: the upload is streamed into the spool under a name
/// starting with `.` (which the watcher ignores), synced, then renamed to its own name, so the
/// daemon sees the file only when it is complete. The importer does the rest, as for a file
/// saved to the folder; `status(of:)` follows it.
enum ImportUpload {
    /// The name a file is stored under: its last path component, characters other than
    /// letters, digits, space and `._()-` replaced by `_`, no leading dot, at most 120 bytes.
    static func storedName(_ raw: String) -> String {
        let base = raw.split(separator: "/").last.map(String.init) ?? ""
        var out = ""
        for c in base.unicodeScalars {
            let ok = (c.value < 128 && (isAlnum(c) || " ._()-".unicodeScalars.contains(c)))
            out.unicodeScalars.append(ok ? c : "_")
        }
        while out.hasPrefix(".") || out.hasPrefix(" ") { out.removeFirst() }
        if out.utf8.count > 120 { out = String(out.suffix(120)) }
        return out.isEmpty ? "upload" : out
    }

    /// A name not yet used in the spool: `name`, else `name-2`, `name-3` … before the extension.
    static func freeName(_ name: String, in dir: String) -> String {
        guard FileSystem.exists(dir + "/" + name) else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name, ext = dot.map { String(name[$0...]) } ?? ""
        var n = 2
        while FileSystem.exists(dir + "/\(stem)-\(n)\(ext)") { n += 1 }
        return "\(stem)-\(n)\(ext)"
    }

    /// Why an upload was refused, with the HTTP status to answer.
    struct Refusal: Error {
        var status: HTTPResponse.Status
        var message: String
    }

    /// Streams `request`'s body into `spoolDir`; returns the name the file was given.
    static func receive(_ request: Request, name raw: String, spoolDir: String, maxBytes: Int64) async throws -> String {
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > maxBytes {
            throw Refusal(status: .contentTooLarge, message: tooLarge(maxBytes))
        }
        try FileSystem.makeDirectory(spoolDir)
        let name = storedName(raw)
        let temp = spoolDir + "/.upload-\(getpid())-\(UInt64.random(in: 0...UInt64.max))-" + name
        guard let fd = try? SafeWrite.createNew(temp, mode: 0o600) else {
            throw Refusal(status: .internalServerError, message: "cannot write in the spool folder \(spoolDir): \(String(cString: strerror(errno)))")
        }
        var written: Int64 = 0
        do {
            defer { close(fd) }
            for try await buffer in request.body {
                written += Int64(buffer.readableBytes)
                if written > maxBytes { throw Refusal(status: .contentTooLarge, message: tooLarge(maxBytes)) }
                try buffer.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            throw Refusal(status: .internalServerError, message: "writing \(temp) failed at byte \(written): \(String(cString: strerror(errno)))")
                        }
                        offset += n
                    }
                }
            }
            guard written > 0 else { throw Refusal(status: .badRequest, message: "the file \(name) is empty: nothing was imported") }
            guard fsync(fd) == 0 else {
                throw Refusal(status: .internalServerError, message: "saving \(temp) failed: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temp)
            throw error
        }
        let final = freeName(name, in: spoolDir)
        guard rename(temp, spoolDir + "/" + final) == 0 else {
            let e = String(cString: strerror(errno))
            unlink(temp)
            throw Refusal(status: .internalServerError, message: "cannot rename \(temp) to \(final): \(e)")
        }
        FileSystem.syncDirectory(of: spoolDir + "/" + final)
        return final
    }

    static func tooLarge(_ max: Int64) -> String {
        "the file is larger than \(max / (1 << 20)) MiB (web.upload_max_mb); save it to the HealthSpool folder instead, or raise the limit"
    }

    /// Where the import of the spool file `name` is: `waiting` (in the spool), `importing`,
    /// `done` (with the import's figures) or `failed` (with the reason). `store`: the connection
    /// the request borrowed, asked for the recent imports only when the store exists; `liveStatus`:
    /// the daemon's status when it runs in this process (else its status file is read).
    static func status(of name: String, context ctx: Configuration, liveStatus: LiveStatus?,
                       store: (Configuration) throws -> LentStore) throws -> JSONValue {
        let spool = ctx.spool
        var live: JSONValue = .null
        if let liveStatus {
            live = liveStatus.json
        } else if let text = try? FileSystem.readText(ctx.statusFile), let v = try? JSONParser.parse(text) {
            live = v
        }
        if FileSystem.exists(spool.path + "/" + name) {
            let state = live["importing"]?.stringValue.map { $0 == name || $0.hasSuffix("/" + name) } == true ? "importing" : "waiting"
            return .object([("file", .string(name)), ("state", .string(state)),
                            ("text", .string(state == "importing" ? "Reading \(name)…" : "\(name) is waiting to be read…"))])
        }
        if FileSystem.exists(ctx.storePath), let record = try store(ctx).imports(limit: 50)
            .first(where: { $0.file == name || $0.file.hasSuffix("/" + name) }) {
            let ok = record.outcome != "failed"
            var text = ok ? "Imported \(name): \(record.new) new, \(record.duplicates) already known, \(record.revised) revised, \(record.skipped) skipped."
                : "\(name) could not be imported: \(record.reason ?? "no reason was recorded")."
            if ok, record.new > 0 { text += " See them under Days." }
            return .object([("file", .string(name)), ("state", .string(ok ? "done" : "failed")), ("text", .string(text)),
                            ("new", .number(Double(record.new))), ("duplicates", .number(Double(record.duplicates))),
                            ("revised", .number(Double(record.revised))), ("skipped", .number(Double(record.skipped))),
                            ("reason", record.reason.map(JSONValue.string) ?? .null)])
        }
        if FileSystem.exists(spool.failed + "/" + name) {
            let reason = (try? FileSystem.readText(spool.failed + "/" + name + ".reason")) ?? nil
            return .object([("file", .string(name)), ("state", .string("failed")),
                            ("text", .string("\(name) could not be imported: \(reason?.trimmingSpaces ?? "it was moved to \(spool.failed)")"))])
        }
        return .object([("file", .string(name)), ("state", .string("waiting")), ("text", .string("\(name) is waiting to be read…"))])
    }
}

extension ImportUpload {
    static func isAlnum(_ c: Unicode.Scalar) -> Bool {
        (c >= "0" && c <= "9") || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z")
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    var text: String {
        var w = JSONWriter()
        w.value(self)
        return w.text
    }
}
