import HealthSpoolCore

/// Splits RFC 4180 CSV text into rows of fields (quoted fields, doubled quotes, CRLF).
public struct CSVReader: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var i = 0
    /// 1-based line of the row last returned.
    public private(set) var line = 0
    private var nextLine = 1
    /// The first field of the row last returned whose bytes are not UTF-8: its column (0-based)
    /// and the byte offset of the bad byte. The caller refuses the row, naming them.
    public private(set) var invalidField: (column: Int, offset: Int)?

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    /// The next row, skipping empty lines and rows of empty fields.
    public mutating func next() -> [String]? {
        while i < bytes.count {
            line = nextLine
            invalidField = nil
            var fields: [String] = []
            var field: [UInt8] = []
            var fieldStart = i
            /// The field's text; bytes that are not UTF-8 are remembered for the caller.
            func text() -> String {
                if invalidField == nil, let bad = UTF8Validation.firstInvalidByte(field) {
                    invalidField = (fields.count, fieldStart + bad)
                }
                return String(decoding: field, as: UTF8.self)
            }
            var quoted = false
            var endOfRow = false
            while i < bytes.count, !endOfRow {
                let c = bytes[i]
                if quoted {
                    if c == 0x22 {
                        if i + 1 < bytes.count, bytes[i + 1] == 0x22 { field.append(0x22); i += 2; continue }
                        quoted = false
                    } else {
                        if c == 0x0A { nextLine += 1 }
                        field.append(c)
                    }
                    i += 1
                    continue
                }
                switch c {
                case 0x22 where field.isEmpty: quoted = true; fieldStart = i + 1
                case 0x2C: fields.append(text()); field.removeAll(keepingCapacity: true); fieldStart = i + 1
                case 0x0D: break
                case 0x0A: endOfRow = true; nextLine += 1
                default: field.append(c)
                }
                i += 1
            }
            fields.append(text())
            // Empty lines, and the all-empty rows spreadsheets leave (",,,"), carry nothing.
            if fields.allSatisfy({ $0.trimmingCharacters().isEmpty }) { continue }
            return fields
        }
        return nil
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
