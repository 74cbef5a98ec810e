import HealthSpoolConfig
import HealthSpoolCore

/// Why the ingest endpoint could not start or could not keep a body; each names the file or
/// setting involved and what to do.
public enum IngestError: Error, CustomStringConvertible, Sendable {
    /// A file (token, certificate, key, spool file) that could not be read or written.
    case file(String, String)
    /// A setting that cannot be used as given.
    case setting(String, String)
    /// The listening socket could not be made.
    case listen(String, String)
    /// The address's port is taken by another program; `holder` is its uid when the kernel says.
    case portTaken(ListenAddress, holder: UInt32?)

    /// Whether trying again later can help (the port or the address may become free).
    public var isRetryable: Bool {
        switch self {
        case .listen, .portTaken: true
        case .file, .setting: false
        }
    }

    /// The uid of the program holding the port, when that is the problem and it is known.
    public var holder: UInt32? {
        if case .portTaken(_, let uid) = self { return uid }
        return nil
    }

    /// What keeps the endpoint from serving, in a person's words, without the advice.
    public var problem: String {
        switch self {
        case .portTaken(let listen, let uid): return IngestStatus.takenProblem(listen, holder: uid)
        case .listen(let address, let reason): return "cannot listen on \(address): \(reason)"
        default: return description
        }
    }

    public var description: String {
        switch self {
        case .file(let path, let reason): "\(path): \(reason)"
        case .setting(let key, let reason): "\(key): \(reason)"
        case .listen(let address, let reason): "cannot listen on \(address): \(reason); set ingest.listen to an address of this machine and a free port"
        case .portTaken: "\(problem); stop that program or set ingest.listen to a free port"
        }
    }
}

/// The NUL-terminated text a C call wrote into `buffer`.
func cText(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
