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
    /// The item being read, its storage kept from one to the next.
    private var text: [UInt8] = []
    private var tag: [UInt8] = []
    private static let commentStart = Array("!--".utf8), cdataStart = Array("![CDATA[".utf8)

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

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
                // Text, without the whitespace around it; whitespace alone (the indentation
                // between tags) is no event and makes no string.
                text.removeAll(keepingCapacity: true)
                if !Self.isSpace(b) { text.append(b) }
                while let c = try nextByte() {
                    if c == 0x3C { pushedBack = c; break }
                    guard text.count < Self.maxItemBytes else { throw Damage(line: line, reason: "text longer than \(Self.maxItemBytes) bytes") }
                    if !text.isEmpty || !Self.isSpace(c) { text.append(c) }
                }
                while let last = text.last, Self.isSpace(last) { text.removeLast() }
                guard !text.isEmpty else { continue }
                let s = String(decoding: text, as: UTF8.self)
                // Other whitespace (a no-break space, …) alone is no text either, as before.
                if text.contains(where: { $0 >= 0x80 }), !s.contains(where: { !$0.isWhitespace }) { continue }
                return .text(s)
            }
            // A tag: read to its '>' outside quotes.
            tag.removeAll(keepingCapacity: true)
            var quote: UInt8 = 0
            var closed = false
            while let c = try nextByte() {
                if quote != 0 { if c == quote { quote = 0 } }
                else if c == 0x22 || c == 0x27 { quote = c }
                else if c == 0x3E {
                    // Comments and CDATA may hold '>': they end with "-->" / "]]>".
                    if tag.first == 0x21 {
                        if tag.starts(with: Self.commentStart), !(tag.count >= 5 && tag.suffix(2).elementsEqual([0x2D, 0x2D])) { tag.append(c); continue }
                        if tag.starts(with: Self.cdataStart), !tag.suffix(2).elementsEqual([0x5D, 0x5D]) { tag.append(c); continue }
                    }
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
            let (name, attributes) = Self.split(empty ? tag.dropLast() : tag[...])
            return .open(name: name, attributes: attributes, empty: empty)
        }
    }

    /// The name after its prefix (`gpxtpx:speed` is `speed`), without whitespace around it;
    /// read on the bytes (a name's ':' and ASCII whitespace are single bytes in UTF-8).
    static func localName(_ raw: ArraySlice<UInt8>) -> String {
        var lo = raw.startIndex, hi = raw.endIndex
        while lo < hi, isSpace(raw[lo]) { lo += 1 }
        while hi > lo, isSpace(raw[hi - 1]) { hi -= 1 }
        if let colon = raw[lo..<hi].lastIndex(of: 0x3A) { lo = colon + 1 }
        return String(decoding: raw[lo..<hi], as: UTF8.self)
    }

    /// The element name and attributes of a start tag's text.
    static func split(_ tag: ArraySlice<UInt8>) -> (String, [String: String]) {
        var i = tag.startIndex
        while i < tag.endIndex, !isSpace(tag[i]) { i += 1 }
        let name = localName(tag[tag.startIndex..<i])
        var attributes: [String: String] = [:]
        while i < tag.endIndex {
            while i < tag.endIndex, isSpace(tag[i]) { i += 1 }
            let ns = i
            while i < tag.endIndex, tag[i] != 0x3D, !isSpace(tag[i]) { i += 1 }
            let key = localName(tag[ns..<i])
            while i < tag.endIndex, isSpace(tag[i]) { i += 1 }
            guard i < tag.endIndex, tag[i] == 0x3D else { continue }
            i += 1
            while i < tag.endIndex, isSpace(tag[i]) { i += 1 }
            guard i < tag.endIndex, tag[i] == 0x22 || tag[i] == 0x27 else { continue }
            let q = tag[i]
            i += 1
            let vs = i
            while i < tag.endIndex, tag[i] != q { i += 1 }
            attributes[key] = String(decoding: tag[vs..<min(i, tag.endIndex)], as: UTF8.self)
            i += 1
        }
        return (name, attributes)
    }
}
