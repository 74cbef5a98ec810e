import Hummingbird

/// An `application/x-www-form-urlencoded` body (or query), decoded.
struct Form: Sendable {
    private(set) var pairs: [(String, String)] = []
    /// For a page's query: the message the server holds for the page (`SessionMemory.held`, named by
    /// the `notice` field), never read from the query's text.
    var notice: SessionMemory.Held?

    init(_ text: String) {
        for part in text.split(separator: "&") {
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((Self.decode(kv[0]), kv.count > 1 ? Self.decode(kv[1]) : ""))
        }
    }

    /// The first value of a field.
    subscript(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    /// The form as a `Decodable` value (a form's `Fields`), by Hummingbird's
    /// `URLEncodedFormDecoder`: a field's absence is a nil optional. A field sent twice counts
    /// with its first value, as `self[name]` reads it (the decoder alone refuses such a form),
    /// except a list of `ListFields` (ticked boxes), which keeps every value in order.
    func decode<Fields: Decodable>(_ type: Fields.Type) throws -> Fields {
        let lists = (type as? any ListFields.Type)?.lists ?? []
        var seen = Set<String>()
        let sent = pairs.filter { lists.contains($0.0) || seen.insert($0.0).inserted }
        let text = sent.map { Page.percentEncode($0.0) + (lists.contains($0.0) ? "[]" : "") + "=" + Page.percentEncode($0.1) }
            .joined(separator: "&")
        return try URLEncodedFormDecoder().decode(type, from: text)
    }

    /// Every value of a field.
    func all(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    static func decode(_ s: Substring) -> String {
        var out: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let c = u.popFirst() {
            if c == UInt8(ascii: "+") { out.append(0x20) }
            else if c == UInt8(ascii: "%"), u.count >= 2, let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16) {
                out.append(v); u = u.dropFirst(2)
            } else { out.append(c) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
