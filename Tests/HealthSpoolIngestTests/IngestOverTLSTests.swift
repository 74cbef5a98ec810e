#if canImport(Glibc)
import Glibc
#endif
import CTLSServer
import HealthSpoolCore
import HealthSpoolGateway
import HealthSpoolLinux
import Logging
import Testing
@testable import HealthSpoolIngest

/// The ingest endpoint's TLS server and the gateway's libcurl client, both real, on the loopback:
/// a push that trusts the server's certificate and shows the token lands in the spool; one without
/// the token, or a client that does not trust the certificate, leaves nothing there.
@Suite struct IngestOverTLSTests {
    let dir: String
    let spool: String
    let cert: String
    let key: String
    let port: Int
    let token = Array("a-token-of-the-phone-0123456789".utf8)
    let server: IngestServer

    static let body = #"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[{"date":"2026-11-28 08:00:00 +0000","Avg":61,"Min":61,"Max":61}]}]}}"#

    init() throws {
        var template = Array("/tmp/hs-ingest-tls-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FileError("mkdtemp", "/tmp") }
        dir = String(cString: made)
        spool = dir + "/HealthSpool"
        try FileSystem.makeDirectory(spool, mode: 0o700)
        (cert, key) = try Self.selfSigned(in: dir, san: "IP:127.0.0.1,DNS:localhost")
        port = try Self.freePort()
        let configuration = IngestServer.Configuration(listen: try #require(ListenAddress("127.0.0.1:\(port)")), certPath: cert, keyPath: key,
                                                       token: token, spoolDir: spool, maxBodyBytes: 1 << 20, maxConnections: 4)
        server = try IngestServer(configuration, logger: Logger(label: "ingest-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
    }

    func finish() {
        server.stop(timeoutSeconds: 5)
        try? FileSystem.removeTree(dir)
    }

    /// A self-signed certificate and its key, written into `dir` (the server's own maker).
    static func selfSigned(in dir: String, san: String) throws -> (String, String) {
        var error = [CChar](repeating: 0, count: 512)
        var certPEM = [CChar](repeating: 0, count: 8192), keyPEM = [CChar](repeating: 0, count: 8192)
        var certLength = certPEM.count, keyLength = keyPEM.count
        let rc = hs_tls_make_self_signed(&certPEM, &certLength, &keyPEM, &keyLength, "ingest test", san, 1, &error, error.count)
        #expect(rc == 0, "\(String(cString: error))")
        let cert = dir + "/cert.pem", key = dir + "/key.pem"
        try FileSystem.writeAtomically(cert, certPEM[..<certLength].map { UInt8(bitPattern: $0) }, mode: 0o600)
        try FileSystem.writeAtomically(key, keyPEM[..<keyLength].map { UInt8(bitPattern: $0) }, mode: 0o600)
        return (cert, key)
    }

    /// A port nothing listens on now (bound to 0, read, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        #expect(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    var url: String { "https://127.0.0.1:\(port)\(IngestAdmission.path)" }

    /// The JSON files in the spool (what the watcher would import).
    func spooled() throws -> [String] { try FileSystem.list(spool).filter { $0.hasSuffix(".json") } }

    @Test func aPushWithTheTokenOverTLSLandsInTheSpoolAsSent() throws {
        defer { finish() }
        let client = try HTTPSClient(options: TLSOptions(caFile: cert, timeoutSeconds: 10))
        let answer = try client.post(url: url, body: Array(Self.body.utf8),
                                     headers: ["Authorization: Bearer " + String(decoding: token, as: UTF8.self), "Content-Type: application/json"])
        #expect(answer.status == 200, "\(answer.bodyText)")
        #expect(answer.bodyText.contains("\"accepted\""))
        let files = try spooled()
        #expect(files.count == 1)
        if let name = files.first {
            #expect(String(decoding: try FileSystem.read(spool + "/" + name), as: UTF8.self) == Self.body)
        }
    }

    @Test func aPushWithoutTheTokenIs401AndLeavesNothing() throws {
        defer { finish() }
        let client = try HTTPSClient(options: TLSOptions(caFile: cert, timeoutSeconds: 10))
        let wrong = try client.post(url: url, body: Array(Self.body.utf8), headers: ["Authorization: Bearer not-the-token"])
        #expect(wrong.status == 401)
        let none = try client.post(url: url, body: Array(Self.body.utf8), headers: [])
        #expect(none.status == 401)
        #expect(try FileSystem.list(spool).isEmpty, "not even a hidden file")
    }

    @Test func aBodyThatWouldNotImportIs400AndLeavesNothing() throws {
        defer { finish() }
        let client = try HTTPSClient(options: TLSOptions(caFile: cert, timeoutSeconds: 10))
        let answer = try client.post(url: url, body: Array("name,value\n".utf8),
                                     headers: ["X-API-Key: " + String(decoding: token, as: UTF8.self)])
        #expect(answer.status == 400)
        #expect(answer.bodyText.contains("not JSON"))
        #expect(try FileSystem.list(spool).isEmpty)
    }

    @Test func aClientThatDoesNotTrustTheCertificateSendsNothing() throws {
        defer { finish() }
        let other = dir + "/other"
        try FileSystem.makeDirectory(other, mode: 0o700)
        let (otherCert, _) = try Self.selfSigned(in: other, san: "IP:127.0.0.1")
        let client = try HTTPSClient(options: TLSOptions(caFile: otherCert, timeoutSeconds: 10))
        #expect(throws: GatewayError.self) {
            _ = try client.post(url: url, body: Array(Self.body.utf8),
                                headers: ["Authorization: Bearer " + String(decoding: token, as: UTF8.self)])
        }
        #expect(try FileSystem.list(spool).isEmpty)
    }
}
