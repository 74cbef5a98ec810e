import HealthSpoolCore

/// A small pull reader for the XML of an export's side files (GPX): start and end tags with
/// their attributes, and the text between tags, with the line each came from.
///
/// It reads a `ByteStream` through a fixed 64 KiB buffer; a tag or a text run longer than
/// `maxItemBytes` is refused as damage, so memory stays flat whatever the file. No DTD is
/// interpreted and no entity is expanded (the files have none; a number never needs one).
final class MarkupReader {
    enum Event: Equatable {
        case open(name: String, attributes: [String: String], empty: Bool)
        case close(name: String)
        case text(String)
        case eof(insideMarkup: Bool)
    }

    /// Something the reader cannot get past (a tag too long to be real).
    struct Damage: Error { let line: Int; let reason: String }

    static let maxItemBytes = 16 << 10
    private let stream: ByteStream
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var pos = 0, end = 0, atEOF = false
    /// The line of the next byte, and of the item last returned.
    private var nextLine = 1
    private(set) var line = 1

    init(_ stream: ByteStream) { self.stream = stream }

    private func byte() throws -> UInt8? {
        if pos == end {
            if atEOF { return nil }
            end = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            pos = 0
            if end == 0 { atEOF = true; return nil }
        }
        let b = buffer[pos]
        pos += 1
        if b == 0x0A { nextLine += 1 }
        return b
    }

    private var pushedBack: UInt8?

    private func nextByte() throws -> UInt8? {
        if let b = pushedBack { pushedBack = nil; return b }
        return try byte()
    }

    /// The next event; local names only (`gpxtpx:speed` is `speed`).
    func next() throws -> Event {
        while true {
            line = nextLine
            guard let b = try nextByte() else { return .eof(insideMarkup: false) }
            if b != 0x3C {
                var text: [UInt8] = [b]
                while let c = try nextByte() {
                    if c == 0x3C { pushedBack = c; break }
                    guard text.count < Self.maxItemBytes else { throw Damage(line: line, reason: "text longer than \(Self.maxItemBytes) bytes") }
                    text.append(c)
                }
                let s = String(decoding: text, as: UTF8.self)
                if s.contains(where: { !$0.isWhitespace }) { return .text(s) }
                continue
            }
            // A tag: read to its '>' outside quotes.
            var tag: [UInt8] = []
            var quote: UInt8 = 0
            var closed = false
            while let c = try nextByte() {
                if quote != 0 { if c == quote { quote = 0 } }
                else if c == 0x22 || c == 0x27 { quote = c }
                else if c == 0x3E {
                    // Comments and CDATA may hold '>': they end with "-->" / "]]>".
                    if tag.starts(with: Array("!--".utf8)), !(tag.count >= 5 && tag.suffix(2).elementsEqual([0x2D, 0x2D])) { tag.append(c); continue }
                    if tag.starts(with: Array("![CDATA[".utf8)), !tag.suffix(2).elementsEqual([0x5D, 0x5D]) { tag.append(c); continue }
                    closed = true
                    break
                }
                guard tag.count < Self.maxItemBytes else { throw Damage(line: line, reason: "a tag longer than \(Self.maxItemBytes) bytes") }
                tag.append(c)
            }
            guard closed else { return .eof(insideMarkup: true) }
            guard let first = tag.first else { continue }
            if first == 0x3F || first == 0x21 { continue }  // <?…?>, <!…>
            if first == 0x2F { return .close(name: Self.localName(tag.dropFirst())) }
            let empty = tag.last == 0x2F
            if empty { tag.removeLast() }
            let (name, attributes) = Self.split(tag)
            return .open(name: name, attributes: attributes, empty: empty)
        }
    }

    static func localName(_ raw: some Collection<UInt8>) -> String {
        var name = String(decoding: raw, as: UTF8.self).trimmingCharacters()
        if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
        return name
    }

    /// The element name and attributes of a start tag's text.
    static func split(_ tag: [UInt8]) -> (String, [String: String]) {
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
        while i < tag.count, !isSpace(tag[i]) { i += 1 }
        let name = localName(tag[0..<i])
        var attributes: [String: String] = [:]
        while i < tag.count {
            while i < tag.count, isSpace(tag[i]) { i += 1 }
            let ns = i
            while i < tag.count, tag[i] != 0x3D, !isSpace(tag[i]) { i += 1 }
            let key = localName(tag[ns..<i])
            while i < tag.count, isSpace(tag[i]) { i += 1 }
            guard i < tag.count, tag[i] == 0x3D else { continue }
            i += 1
            while i < tag.count, isSpace(tag[i]) { i += 1 }
            guard i < tag.count, tag[i] == 0x22 || tag[i] == 0x27 else { continue }
            let q = tag[i]
            i += 1
            let vs = i
            while i < tag.count, tag[i] != q { i += 1 }
            attributes[key] = String(decoding: tag[vs..<min(i, tag.count)], as: UTF8.self)
            i += 1
        }
        return (name, attributes)
    }
}
