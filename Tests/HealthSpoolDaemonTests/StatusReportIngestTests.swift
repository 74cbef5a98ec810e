import Glibc
import HealthSpoolConfig
import HealthSpoolCore
import Testing
@testable import HealthSpoolDaemon

@Suite struct StatusReportIngestTests {
    static func member(state: String, problem: String? = nil, retry: Int? = nil) -> JSONValue {
        .object([("enabled", .bool(true)), ("url", .string("https://127.0.0.1:8443/ingest")), ("fingerprintSHA256", .string("AB:CD")),
                 ("tokenFile", .string("/t")), ("state", .string(state)), ("problem", problem.map(JSONValue.string) ?? .null),
                 ("retrySeconds", retry.map { .number(Double($0)) } ?? .null)])
    }

    @Test func anEndpointThatDoesNotServeSaysSoWhyAndShowsNoFingerprint() {
        // Issue 39: with the port taken, status printed the URL and fingerprint as if it served.
        let lines = StatusReport.ingestLines(Self.member(state: "unavailable", problem: "port 8443 of 127.0.0.1 is held by user eve (uid 1001)'s program", retry: 60))
        #expect(lines == ["ingest:      not serving (https://127.0.0.1:8443/ingest): port 8443 of 127.0.0.1 is held by user eve (uid 1001)'s program; tried again every 60 s"])
    }

    @Test func aServingEndpointShowsItsAddressAndFingerprint() {
        let lines = StatusReport.ingestLines(Self.member(state: "listening"))
        #expect(lines.count == 2 && lines[0].hasPrefix("ingest:      https://127.0.0.1:8443/ingest") && lines[1].contains("AB:CD"))
    }

    @Test func theStatusFileKeepsTheHolder() throws {
        var template = Array("/tmp/healthspool-ingest-status-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { unlink(IngestStatus.path(runtimeDir: dir)); rmdir(dir) }
        let file = IngestStatus.path(runtimeDir: dir)
        IngestStatus(url: "u", state: .unavailable, problem: "p", holderUID: 0, retrySeconds: 5).write(file: file)
        let read = try #require(IngestStatus.read(file: file))
        #expect(read == IngestStatus(url: "u", state: .unavailable, problem: "p", holderUID: 0, retrySeconds: 5))
        #expect(read.json["holder"]?["user"]?.stringValue == "root")
    }
}
