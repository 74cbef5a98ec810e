#if canImport(Glibc)
import Glibc
#endif
@testable import HealthSpoolDaemon
import HealthSpoolCore

/// The control socket's request reader: the bytes a client sends, through a real socket pair into
/// `ControlServer.readLine`, then the JSON parser and the fields `handleControl` reads.
/// Properties: the line is the bytes before the first newline (nil past 64 KiB or when empty);
/// a request that parses, written back with `JSONWriter`, parses to the same value.
enum ControlTarget {
    static let target = FuzzTarget(name: "control", summary: "control socket request reader (socket pair, JSON round trip)") { data in
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { propertyFailed("socketpair: errno \(errno)") }
        defer { close(fds[0]) }
        var sent = 0
        while sent < data.count {
            let n = write(fds[1], data.baseAddress! + sent, data.count - sent)
            guard n > 0 else { break }
            sent += n
        }
        close(fds[1])
        let line = ControlServer.readLine(fds[0])
        let bytes = Array(data.prefix(sent))
        let firstLine = Array(bytes.prefix { $0 != 0x0A })
        let expected: [UInt8]? = firstLine.count >= 65536 ? nil : (firstLine.isEmpty && !bytes.starts(with: [0x0A]) ? nil : firstLine)
        if line != expected {
            propertyFailed("control: read \(line.map { "\($0.count) bytes" } ?? "nothing"), expected \(expected.map { "\($0.count) bytes" } ?? "nothing")")
        }
        guard let line, let request = try? JSONParser.parse(line) else { return }
        _ = request["command"]?.stringValue
        _ = request["types"]?.arrayValue?.compactMap(\.stringValue).map(DataType.canonicalName)
        var w = JSONWriter()
        w.value(request)
        guard let back = try? JSONParser.parse(w.bytes), back == request else {
            propertyFailed("control: request \(String(decoding: line.prefix(500), as: UTF8.self)) is written back as \(w.text.prefix(500)), which does not parse to it")
        }
    }
}
