import HealthExport
import HealthSpoolCore

/// The check a pushed body passes before it is written into the spool: Health Auto Export JSON
/// that the importer's own parser reads without a fatal error. Samples are counted, not kept.
public enum IngestPayload {
    /// Nil when `body` would import; else the reason it would not (for the 400 answer).
    public static func problem(_ body: [UInt8]) -> String? {
        let head = Array(body.prefix(8192))
        guard ExportFormat.detect(head: head, name: "push.json") == .autoExportJSON else {
            let start = head.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first
            if start != UInt8(ascii: "{") && start != UInt8(ascii: "[") { return "the body is not JSON; set the automation's Export Format to JSON" }
            return "the body is not Health Auto Export JSON ({\"data\": {\"metrics\": [...]}})"
        }
        do {
            _ = try AutoExportParser.parseJSON(body, into: CountingSink())
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// Counts what a parse hands over and drops it.
final class CountingSink: SampleSink {
    var count = 0
    func accept(_ sample: consuming Sample) throws { count += 1 }
    func accept(batch: [Sample]) throws { count += batch.count }
    func profile(_ attributes: [(String, String)]) {}
    func progress(bytesRead: Int64) {}
}
