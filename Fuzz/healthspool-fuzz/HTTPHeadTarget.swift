@testable import HealthSpoolIngest

/// The ingest endpoint's request-head parser and admission decision, on bytes from any client on
/// the LAN. Properties: the end of the head is the first blank line; a head that parses, written
/// back, parses to the same head; a body is read only with the token, within the size limit.
enum HTTPHeadTarget {
    static let token = Array("0123456789abcdef0123456789abcdef".utf8)
    static let maxBody = 4096

    static let target = FuzzTarget(name: "http-head", summary: "ingest endpoint request head (any LAN client)") { data in
        let bytes = Array(data)
        let end = RequestHead.end(in: bytes)
        if let end {
            guard end >= 4, end <= bytes.count, bytes[(end - 4)..<end].elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) else {
                propertyFailed("http-head: end \(end) is not after a blank line")
            }
            if let earlier = RequestHead.end(in: Array(bytes[..<(end - 1)])) { propertyFailed("http-head: an earlier end at \(earlier)") }
        }
        // The incremental search (as the connection reads) finds the same end.
        var searched = 0, found: Int?
        var i = 0
        while found == nil && i < bytes.count {
            i = min(bytes.count, i + 1 + Int(bytes[i] % 7))
            found = RequestHead.end(in: Array(bytes[..<i]), from: max(0, searched - 3))
            searched = i
        }
        if found != end { propertyFailed("http-head: incremental end \(String(describing: found)) != \(String(describing: end))") }

        let head: RequestHead
        do { head = try RequestHead.parse(bytes[..<(end ?? bytes.count)]) } catch { return }
        var text = "\(head.method) \(head.target) \(head.version)\r\n"
        for field in head.fields { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        do {
            let again = try RequestHead.parse(Array(text.utf8))
            if again != head { propertyFailed("http-head: round trip changed the head") }
        } catch { propertyFailed("http-head: the head written back does not parse: \(error)") }

        if case .readBody(let length) = IngestAdmission.decide(head, token: token, maxBodyBytes: maxBody) {
            guard length > 0, length <= maxBody else { propertyFailed("http-head: a body of \(length) bytes admitted") }
            guard IngestAdmission.isAuthorized(head, token: token) else { propertyFailed("http-head: a body admitted without the token") }
        }
    }
}
