/// Parses decimal numbers from bytes without building a `String`.
///
/// Numbers of up to 15 significant digits with a small exponent (all that exports contain) are
/// converted exactly with one correctly rounded multiplication or division; anything else goes
/// through the standard library (the C library's `strtod`, correctly rounded): up to 19
/// significant digits as mantissa and exponent, and past 19 digits with every digit written out,
/// because the digits past the 19th can decide the rounding (`8.000000000000000838e23`).
/// `shift` moves the decimal point (2 turns a fraction into a
/// percentage without the rounding noise of multiplying by 100).
enum DecimalParser {
    private static let powers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { a, _ in a * 10 } }

    static func parse(_ b: UnsafeRawBufferPointer, shift: Int = 0) -> Double? {
        var i = 0
        var n = b.count
        while i < n, b[i] == 0x20 { i += 1 }
        while n > i, b[n - 1] == 0x20 { n -= 1 }
        guard i < n else { return nil }
        var negative = false
        if b[i] == 0x2D { negative = true; i += 1 } else if b[i] == 0x2B { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = shift
        var sawDigit = false
        var exact = true
        let start = i
        while i < n, b[i] >= 0x30, b[i] <= 0x39 {
            sawDigit = true
            if mantissa == 0 && b[i] == 0x30 { i += 1; continue }
            if digits < 19 { mantissa = mantissa * 10 + UInt64(b[i] - 0x30); digits += 1 } else { exponent += 1; exact = false }
            i += 1
        }
        if i < n, b[i] == 0x2E {
            i += 1
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                sawDigit = true
                if mantissa == 0 && b[i] == 0x30 { exponent -= 1; i += 1; continue }
                if digits < 19 { mantissa = mantissa * 10 + UInt64(b[i] - 0x30); digits += 1; exponent -= 1 } else { exact = false }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < n, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            var eNegative = false
            if i < n, b[i] == 0x2D { eNegative = true; i += 1 } else if i < n, b[i] == 0x2B { i += 1 }
            var e = 0
            var sawExponentDigit = false
            while i < n, b[i] >= 0x30, b[i] <= 0x39 { e = min(e * 10 + Int(b[i] - 0x30), 100_000); i += 1; sawExponentDigit = true }
            guard sawExponentDigit else { return nil }
            exponent += eNegative ? -e : e
        }
        guard i == n else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0 }
        var value: Double
        if exact, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            value = Double(mantissa)
            if exponent < 0 { value /= powers[-exponent] } else { value *= powers[exponent] }
        } else if !exact {
            guard let v = Double(allDigits(b, from: start, exponent: exponent, kept: digits)) else { return nil }
            value = v
        } else {
            guard let v = Double(String(mantissa) + "e" + String(exponent) ) else { return nil }
            value = v
        }
        return negative ? -value : value
    }

    /// The number at `b[from...]` (past its sign) as `digits e exponent` with every significant
    /// digit, for when more than 19 were read. `exponent` is the parser's (shift and `e` included),
    /// which scales the first `kept` digits; the dropped ones are the places below them.
    private static func allDigits(_ b: UnsafeRawBufferPointer, from start: Int, exponent: Int, kept: Int) -> String {
        var text: [UInt8] = []
        var i = start
        var leading = true
        while i < b.count {
            let c = b[i]
            if c == 0x2E { i += 1; continue }
            guard c >= 0x30, c <= 0x39 else { break }
            if leading && c == 0x30 { i += 1; continue }
            leading = false
            text.append(c)
            i += 1
        }
        // The parser's exponent scales the first `kept` digits; the dropped ones are lower places.
        let dropped = text.count - kept
        return String(decoding: text, as: UTF8.self) + "e" + String(exponent - dropped)
    }
}
