/// How numbers are written for people, in the user's locale: a thousands separator and a
/// decimal mark ("1,085.5" in English, "1.085,5" in German). The one formatter of figures the
/// web pages and `healthspool day` share (issue 28, "Numbers for people").
public struct NumberStyle: Sendable, Equatable {
    public var grouping: String
    public var decimal: String

    public init(grouping: String = ",", decimal: String = ".") {
        self.grouping = grouping
        self.decimal = decimal
    }

    /// English: "1,085.5"; also the C/POSIX locale's.
    public static let english = NumberStyle()

    /// The style of a POSIX locale name (`de_DE.UTF-8`, `en_GB`, `C`): its language decides.
    /// Unknown languages are written as English.
    public init(locale: String?) {
        let language = (locale ?? "").prefix { $0 != "_" && $0 != "." && $0 != "@" }.lowercased()
        switch language {
        case "de", "da", "nl", "id", "it", "es", "pt", "tr", "el", "sl", "hr", "sr", "ro":
            self.init(grouping: ".", decimal: ",")
        case "fr", "nb", "nn", "no", "sv", "fi", "cs", "sk", "pl", "ru", "uk", "hu", "et", "lt", "lv", "bg":
            self.init(grouping: "\u{00A0}", decimal: ",")
        default:
            self = .english
        }
    }

    /// The style of the environment's locale for numbers: `LC_ALL`, else `LC_NUMERIC`, else `LANG`.
    public init(environment: [String: String]) {
        let name = [environment["LC_ALL"], environment["LC_NUMERIC"], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
        self.init(locale: name)
    }

    /// A count, rounded to a whole number and grouped: 1084.68 → "1,085".
    public func count(_ v: Double) -> String {
        guard v.isFinite else { return "—" }
        return group(String(Int(v.rounded())))
    }

    /// `v` with at most `digits` decimals, trailing zeros dropped, the whole part grouped:
    /// 1234.50 → "1,234.5", 43.0 → "43".
    public func number(_ v: Double, digits: Int) -> String {
        guard v.isFinite else { return "—" }
        let s = DecimalText.trimmed(v, digits: digits)
        let parts = s.split(separator: ".", maxSplits: 1)
        let whole = group(String(parts[0]))
        return parts.count == 2 ? whole + decimal + parts[1] : whole
    }

    /// `v` with exactly `digits` decimals: 3.2 → "3.20".
    public func fixed(_ v: Double, digits: Int) -> String {
        guard v.isFinite else { return "—" }
        let s = DecimalText.fixed(v, digits: digits)
        let parts = s.split(separator: ".", maxSplits: 1)
        let whole = group(String(parts[0]))
        return parts.count == 2 ? whole + decimal + parts[1] : whole
    }

    /// "-12345" → "-12,345".
    func group(_ digits: String) -> String {
        let negative = digits.hasPrefix("-")
        let body = negative ? String(digits.dropFirst()) : digits
        var out = ""
        for (i, c) in body.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out += String(grouping.reversed()) }
            out.append(c)
        }
        return (negative ? "-" : "") + String(out.reversed())
    }
}
