#if canImport(Glibc)
import Glibc
#endif
import CTLSServer
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux

/// The certificate the ingest endpoint presents: the one given (`ingest.cert_file` and
/// `ingest.key_file`), or the daemon's own, made once (EC P-256, self-signed, both files 0600
/// in the state directory) and kept, so its fingerprint stays what the phone pinned.
public enum IngestCertificate {
    /// Days the own certificate is valid: Apple's limit for TLS server certificates (825).
    public static let validityDays = 825

    /// The certificate and key paths, after making the own certificate when it is missing.
    /// Returns whether it was made now.
    @discardableResult
    public static func ensure(configuration: Configuration) throws(IngestError) -> Bool {
        let cert = configuration.ingestCertPath, key = configuration.ingestKeyPath
        if !configuration.ingestUsesOwnCertificate {
            guard configuration.settings.ingestKeyFile != nil else {
                throw .setting("ingest.key_file", "ingest.cert_file is set but ingest.key_file is not; set both, or neither to use the daemon's own certificate")
            }
            for path in [cert, key] where !FileSystem.exists(path) { throw .file(path, "does not exist") }
            return false
        }
        if FileSystem.exists(cert) && FileSystem.exists(key) { return false }
        do { try FileSystem.makeDirectory(configuration.stateDir, mode: 0o700) } catch { throw .file(configuration.stateDir, "\(error)") }
        let host = hostName()
        var san = ["DNS:localhost", "DNS:\(host)", "DNS:\(host).local"]
        if let listen = configuration.settings.ingestListen, listen.host != "0.0.0.0", listen.host != "::" { san.insert("IP:\(listen.host)", at: 0) }
        var error = [CChar](repeating: 0, count: 512)
        var certPEM = [UInt8](repeating: 0, count: 8192), keyPEM = [UInt8](repeating: 0, count: 8192)
        var certLength = certPEM.count, keyLength = keyPEM.count
        let rc = certPEM.withUnsafeMutableBytes { c in
            keyPEM.withUnsafeMutableBytes { k in
                hs_tls_make_self_signed(c.baseAddress!.assumingMemoryBound(to: CChar.self), &certLength,
                                        k.baseAddress!.assumingMemoryBound(to: CChar.self), &keyLength,
                                        "healthspool on \(host)", san.joined(separator: ","), Int32(validityDays), &error, error.count)
            }
        }
        guard rc == 0 else { throw .file(cert, cText(error)) }
        // The key first: a certificate without its key is never left behind.
        do { try FileSystem.writeAtomically(key, Array(keyPEM[..<keyLength]), mode: 0o600) } catch { throw .file(key, "cannot write it: \(error)") }
        do { try FileSystem.writeAtomically(cert, Array(certPEM[..<certLength]), mode: 0o600) } catch { throw .file(cert, "cannot write it: \(error)") }
        return true
    }

    /// This machine's host name.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(cString: buffer)
        return name.isEmpty ? "localhost" : name
    }
}
