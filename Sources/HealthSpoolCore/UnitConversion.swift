/// Converts values between the units exports are written in and the registry's canonical units.
public enum UnitConversion {
    /// A linear conversion: canonical = value * factor + offset.
    struct Linear { let factor: Double; let offset: Double }

    /// Aliases seen in exports, mapped to one spelling.
    static let aliases: [String: String] = [
        "count/min": "count/min", "bpm": "count/min", "/min": "count/min", "beats/min": "count/min",
        "breaths/min": "count/min", "count": "count", "steps": "count", "": "count",
        "kcal": "kcal", "cal": "kcal", "Cal": "kcal", "kJ": "kJ", "kj": "kJ",
        "kg": "kg", "lb": "lb", "lbs": "lb", "g": "g", "mg": "mg", "mcg": "mcg", "µg": "mcg", "ug": "mcg", "oz": "oz", "st": "st",
        "km": "km", "m": "m", "mi": "mi", "cm": "cm", "in": "in", "ft": "ft", "yd": "yd",
        "degC": "degC", "°C": "degC", "C": "degC", "degF": "degF", "°F": "degF", "F": "degF",
        "mg/dL": "mg/dL", "mg/dl": "mg/dL", "mmol/L": "mmol/L", "mmol/l": "mmol/L",
        "mL": "mL", "ml": "mL", "L": "L", "l": "L", "fl_oz_us": "fl_oz_us", "fl oz": "fl_oz_us", "fl_oz_imp": "fl_oz_imp", "cup_us": "cup_us",
        "min": "min", "s": "s", "sec": "s", "hr": "h", "h": "h", "ms": "ms",
        "%": "%", "percent": "%", "mmHg": "mmHg", "ml/(kg·min)": "mL/(kg*min)", "ml/(kg*min)": "mL/(kg*min)",
        "mL/min·kg": "mL/(kg*min)", "mL/(kg*min)": "mL/(kg*min)", "mL/(kg·min)": "mL/(kg*min)",
        "dBASPL": "dBASPL", "dB": "dBASPL", "dBA": "dBASPL", "dB(A)": "dBASPL",
        // Spellings Health Auto Export and phone locales write.
        "count/s": "count/s", "ºC": "degC", "ºF": "degF", "℃": "degC", "℉": "degF",
        "ml/kg/min": "mL/(kg*min)", "mL/kg/min": "mL/(kg*min)",
        "hours": "h", "hour": "h", "hrs": "h", "minutes": "min", "mins": "min", "seconds": "s",
        "mm": "mm", "cup": "cup_us", "floz": "fl_oz_us", "fl_oz": "fl_oz_us", "oz_us": "fl_oz_us",
    ]

    /// (from, to) → conversion.
    static let table: [String: Linear] = {
        var t: [String: Linear] = [:]
        func add(_ from: String, _ to: String, _ f: Double, _ o: Double = 0) {
            t[from + "→" + to] = Linear(factor: f, offset: o)
            t[to + "→" + from] = Linear(factor: 1 / f, offset: -o / f)
        }
        add("kJ", "kcal", 1 / 4.184)
        add("lb", "kg", 0.45359237); add("g", "kg", 0.001); add("oz", "kg", 0.028349523125); add("st", "kg", 6.35029318)
        add("mg", "g", 0.001); add("mcg", "g", 0.000001); add("g", "mg", 1000); add("mcg", "mg", 0.001); add("mg", "mcg", 1000)
        add("m", "km", 0.001); add("mi", "km", 1.609344); add("yd", "km", 0.0009144); add("ft", "km", 0.0003048)
        add("in", "cm", 2.54); add("m", "cm", 100); add("ft", "cm", 30.48)
        add("degF", "degC", 5.0 / 9.0, -32.0 * 5.0 / 9.0)
        add("mmol/L", "mg/dL", 18.0182)
        add("L", "mL", 1000); add("fl_oz_us", "mL", 29.5735295625); add("fl_oz_imp", "mL", 28.4130625); add("cup_us", "mL", 236.5882365)
        add("s", "min", 1.0 / 60); add("h", "min", 60); add("ms", "min", 1.0 / 60_000)
        add("s", "ms", 1000); add("mm", "cm", 0.1); add("km", "cm", 100_000); add("mi", "cm", 160_934.4)
        add("count/s", "count/min", 60)
        return t
    }()

    /// The one spelling used for `unit`, or the unit as given when unknown.
    public static func normalize(_ unit: String) -> String { aliases[unit] ?? aliases[unit.trimmingSpaces] ?? unit }

    /// `value` in `from` expressed in `to`, or nil when no conversion is known.
    public static func convert(_ value: Double, from: String, to: String) -> Double? {
        let f = normalize(from), t = normalize(to)
        if f == t { return value }
        // Apple writes the molar mass it used into the unit (`mmol<180.15588…>/L` for glucose):
        // that mass converts, not a generic factor. mg/dL = mmol/L × g/mol ÷ 10.
        if let mass = molarMass(f) {
            let perLitre = t == "mmol/L" ? value : t == "mg/dL" ? value * mass / 10 : nil
            return perLitre.map { rounded($0, significantDigits: 12) }
        }
        guard let c = table[f + "→" + t] else { return nil }
        return rounded(value * c.factor + c.offset, significantDigits: 12)
    }

    /// The molar mass (g/mol) in a unit written `mmol<mass>/L`, else nil.
    static func molarMass(_ unit: String) -> Double? {
        guard unit.hasPrefix("mmol<"), unit.hasSuffix(">/L") else { return nil }
        let text = unit.dropFirst(5).dropLast(3)
        guard let mass = Double(text), mass.isFinite, mass > 0 else { return nil }
        return mass
    }

    /// `v` rounded to `digits` significant digits: a conversion's binary noise
    /// (418.4 kJ → 99.99999999999999 kcal) goes, every real digit of a measurement stays.
    public static func rounded(_ v: Double, significantDigits digits: Int) -> Double {
        guard v.isFinite, v != 0 else { return v }
        var magnitude = 0
        var a = abs(v)
        while a >= 10 { a /= 10; magnitude += 1 }
        while a < 1 { a *= 10; magnitude -= 1 }
        let exponent = digits - 1 - magnitude
        var scale = 1.0
        for _ in 0..<abs(exponent) { scale *= 10 }
        let r = exponent >= 0 ? (v * scale).rounded() / scale : (v / scale).rounded() * scale
        return r.isFinite ? r : v
    }

    /// Converts `value` to the canonical unit of `type`. Returns (value, unit, original unit if
    /// it differed). Types outside the registry, or units with no known conversion, keep theirs.
    public static func toCanonical(_ value: Double, unit: String, type: String) -> (Double, String, String?) {
        guard let canonical = DataType.lookup(type)?.unit else { return (value, normalize(unit), nil) }
        let u = normalize(unit)
        if u == canonical || unit.isEmpty { return (value, canonical, nil) }
        if let v = convert(value, from: u, to: canonical) { return (v, canonical, unit) }
        return (value, u, nil)
    }
}
