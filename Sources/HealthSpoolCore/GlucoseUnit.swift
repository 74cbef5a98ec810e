/// The unit blood glucose is typed and shown in (`journal.glucose_unit`); the store keeps it in
/// mg/dL (`UnitConversion`'s canonical unit), and every reading also shows the other unit.
public enum GlucoseUnit: String, CaseIterable, Sendable {
    case mmolPerL = "mmol/L"
    case mgPerDL = "mg/dL"

    /// The other unit, shown beside.
    public var other: GlucoseUnit { self == .mmolPerL ? .mgPerDL : .mmolPerL }

    /// `mgPerDL` (the stored value) in this unit.
    public func value(fromMgPerDL v: Double) -> Double {
        self == .mgPerDL ? v : UnitConversion.convert(v, from: "mg/dL", to: "mmol/L") ?? v / 18.0182
    }

    /// A value in this unit as people write it (in `style`): mmol/L with one decimal, mg/dL whole.
    public func text(fromMgPerDL v: Double, style: NumberStyle = .english) -> String {
        let x = value(fromMgPerDL: v)
        return (self == .mgPerDL ? style.count(x) : style.fixed(x, digits: 1)) + " " + rawValue
    }
}

/// Numbers written for people, without `String(format:)`.
public enum DecimalText {
    /// `v` with exactly `digits` decimals (`5.40`, `-0.5`).
    public static func fixed(_ v: Double, digits: Int) -> String {
        if digits <= 0 { return String(Int(v.rounded())) }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let r = Int((v * Double(scale)).rounded())
        let frac = String(abs(r) % scale)
        return (r < 0 && r / scale == 0 ? "-" : "") + String(r / scale) + "." + String(repeating: "0", count: digits - frac.count) + frac
    }

    /// `v` with at most `digits` decimals, trailing zeros dropped (`72.5`, `72`).
    public static func trimmed(_ v: Double, digits: Int) -> String {
        var s = fixed(v, digits: digits)
        guard s.contains(".") else { return s }
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
