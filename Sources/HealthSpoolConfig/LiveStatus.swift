import HealthSpoolCore
import Synchronization

/// The daemon's status as its status file (`status.json`) holds it, kept in memory for what
/// runs in the daemon's process (the web's home, sending and import pages): they read it here,
/// not the file, which stays for other processes (`healthspool status`). The status board
/// sets it each time it writes the file.
public final class LiveStatus: Sendable {
    private let bytes = Mutex<[UInt8]?>(nil)

    public init() {}

    /// The status as just written.
    public func set(_ json: [UInt8]) { bytes.withLock { $0 = json } }

    /// The status last set, parsed (`.null` before the first).
    public var json: JSONValue {
        guard let bytes = bytes.withLock({ $0 }), let value = try? JSONParser.parse(bytes) else { return .null }
        return value
    }
}
