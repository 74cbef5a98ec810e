import CSystemd
#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore
import Logging

/// A swift-log handler that writes structured journal entries through `sd_journal_sendv`
/// when stderr is connected to the journal, and readable lines on stderr otherwise.
///
/// Metadata keys become journal fields: `event` → `HEALTHSPOOL_EVENT`, `type` →
/// `HEALTHSPOOL_TYPE`, `file` → `HEALTHSPOOL_FILE`, `count` → `HEALTHSPOOL_COUNT`,
/// `http.status` → `HEALTHSPOOL_HTTP_STATUS`, and so on.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let useJournal: Bool

    public init(label: String, level: Logger.Level = .info, useJournal: Bool = JournalLogHandler.stderrIsJournal) {
        self.label = label
        self.logLevel = level
        self.useJournal = useJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Whether stderr is a journal stream (`$JOURNAL_STREAM` names its device and inode).
    public static var stderrIsJournal: Bool {
        guard let js = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = js.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The journal field name for a metadata key.
    public static func fieldName(_ key: String) -> String {
        "HEALTHSPOOL_" + String(key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    public func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?,
                    source: String, file: String, function: String, line: UInt) {
        var all = metadata
        if let extra { all.merge(extra) { $1 } }
        if useJournal {
            Self.send(Self.journalFields(level: level, message: message, metadata: all))
        } else {
            hs_write_stderr(Self.stderrLine(pid: getpid(), level: level, message: message, metadata: all))
        }
    }

    /// The journal fields of one entry. The message and every value are escaped
    /// (`EscapedText`): a control character in a file name cannot split an entry.
    public static func journalFields(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) -> [String] {
        var fields = ["MESSAGE=\(EscapedText.escape("\(message)"))", "PRIORITY=\(priority(level))", "SYSLOG_IDENTIFIER=healthspool"]
        for (k, v) in metadata.sorted(by: { $0.key < $1.key }) { fields.append("\(fieldName(k))=\(EscapedText.escape("\(v)"))") }
        return fields
    }

    /// One stderr line, ending in exactly one newline: the message and every value escaped.
    public static func stderrLine(pid: Int32, level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) -> String {
        var line = "healthspool[\(pid)] \(level): \(EscapedText.escape("\(message)"))"
        for (k, v) in metadata.sorted(by: { $0.key < $1.key }) { line += " \(EscapedText.escape(k))=\(EscapedText.escape("\(v)"))" }
        return line + "\n"
    }

    static func send(_ fields: [String]) {
        var joined: [UInt8] = []
        var ranges: [(Int, Int)] = []
        for f in fields {
            ranges.append((joined.count, f.utf8.count))
            joined.append(contentsOf: f.utf8)
        }
        joined.withUnsafeBytes { raw in
            var iov = ranges.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + $0.0), iov_len: $0.1) }
            _ = sd_journal_sendv(&iov, Int32(iov.count))
        }
    }
}
