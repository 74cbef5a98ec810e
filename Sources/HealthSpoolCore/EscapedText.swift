/// Text made safe for one log line or one line of a file: control characters are written as
/// escapes (`\n`, `\t`, `\r`, `\u{1B}`, …) and bytes that are not valid UTF-8 as `\xFF`, so a
/// file name can neither split a line nor forge the next one.
public enum EscapedText {
    /// `text` with its control characters (C0, DEL, C1, and the line/paragraph separators) escaped.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// Raw bytes (a file name as the kernel gives it) as text: valid UTF-8 decoded and escaped
    /// like `escape(_:)`, every other byte as `\xHH`.
    public static func escape(bytes: some Collection<UInt8>) -> String {
        var out = ""
        decode(bytes, scalar: { append($0, to: &out) }, invalid: { out += "\\x" + hex($0) })
        return out
    }

    /// Walks `bytes` as UTF-8: each valid scalar to `scalar`, each byte that is not part of a
    /// valid sequence to `invalid`.
    public static func decode(_ bytes: some Collection<UInt8>, scalar: (Unicode.Scalar) -> Void, invalid: (UInt8) -> Void) {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            var decoder = UTF8()
            var iterator = rest.makeIterator()
            var consumed = rest.startIndex
            var failed = false
            loop: while true {
                switch decoder.decode(&iterator) {
                case let .scalarValue(s):
                    scalar(s)
                    consumed += UTF8.width(s)
                case .emptyInput:
                    break loop
                case .error:
                    failed = true
                    break loop
                }
            }
            guard failed else { return }
            invalid(rest[consumed])
            rest = rest[(consumed + 1)...]
        }
    }

    /// Hex digits of a byte, upper case.
    public static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }

    /// Whether `bytes` are valid UTF-8 with no NUL.
    public static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }

    static func append(_ s: Unicode.Scalar, to out: inout String) {
        guard needsEscape(s) else { out.unicodeScalars.append(s); return }
        switch s {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
        }
    }
}
