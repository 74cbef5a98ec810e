/// Why the ingest endpoint could not start or could not keep a body; each names the file or
/// setting involved and what to do.
public enum IngestError: Error, CustomStringConvertible, Sendable {
    /// A file (token, certificate, key, spool file) that could not be read or written.
    case file(String, String)
    /// A setting that cannot be used as given.
    case setting(String, String)
    /// The listening socket could not be made.
    case listen(String, String)

    public var description: String {
        switch self {
        case .file(let path, let reason): "\(path): \(reason)"
        case .setting(let key, let reason): "\(key): \(reason)"
        case .listen(let address, let reason): "cannot listen on \(address): \(reason); set ingest.listen to an address of this machine and a free port"
        }
    }
}

/// The NUL-terminated text a C call wrote into `buffer`.
func cText(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
