import HealthSpoolCore

/// Reads Apple Health's `electrocardiograms/ecg_*.csv`: metadata lines (`Name`, `Date of
/// Birth`, `Recorded Date`, `Classification`, `Symptoms`, `Software Version`, `Device`, `Sample
/// Rate`, `Lead`, `Unit`), then one voltage a line.
///
/// Exports in other languages translate the names (and the classification): a line is known
/// by its English name, else by its place in Apple's order, and the date, sample rate and unit
/// by their values. The name and date of birth are never kept.
enum ECGReader {
    /// A recording's file is far smaller (30 s at 512 Hz is ~110 KB): a larger part is refused.
    static let maxBytes = 4 << 20

    /// Apple's order of the metadata lines.
    enum Field: Int { case name, birth, recorded, classification, symptoms, software, device, sampleRate, lead, unit }
    static let englishNames: [String: Field] = [
        "name": .name, "date of birth": .birth, "recorded date": .recorded, "classification": .classification,
        "symptoms": .symptoms, "software version": .software, "device": .device, "sample rate": .sampleRate,
        "lead": .lead, "unit": .unit,
    ]

    /// Whether a side file's first bytes look like an ECG: a sample-rate line (`512 hertz`,
    /// `512 Hz`) among `name,value` lines.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self).lowercased()
        guard !text.hasPrefix("<"), !text.hasPrefix("{"), !text.hasPrefix("%pdf") else { return false }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).prefix(16).contains { line in
            guard let comma = line.lastIndex(of: ",") else { return false }
            return sampleRate(String(line[line.index(after: comma)...])) != nil
        }
    }

    /// `512 hertz`, `512 Hz`, `512,0 Hz` → 512.
    static func sampleRate(_ value: String) -> Double? {
        let v = value.lowercased().trimmingCharacters().decimalPoint()
        guard v.hasSuffix("hertz") || v.hasSuffix("hz") else { return nil }
        let number = v.prefix { $0.isNumber || $0 == "." }
        guard let r = Double(number), r > 0, r <= 10_000 else { return nil }
        return r
    }

    /// Reads one recording from `bytes` (the part `name`); nil when it holds none (noted).
    static func read(_ bytes: [UInt8], name: String, report: inout ParseReport) -> ECGRecording? {
        func note(_ line: Int?, _ message: String) {
            report.note(ParseProblem(line: line, message: "part '\(name)'\(line.map { ", line \($0)" } ?? ""): \(message)"))
        }
        var reader = CSVReader(bytes)
        var header: [(line: Int, key: String, value: String)] = []
        var voltages: [Double] = []
        var skipped = 0
        while let row = reader.next() {
            let fields = row.map { $0.trimmingCharacters() }
            if fields.count == 1 || (fields.count > 1 && fields.dropFirst().allSatisfy(\.isEmpty) && Double(fields[0].decimalPoint()) != nil) {
                guard let v = Double(fields[0].decimalPoint()), v.isFinite else {
                    if voltages.isEmpty, header.count < 16 { header.append((reader.line, fields[0], "")); continue }
                    skipped += 1
                    if skipped <= 3 { note(reader.line, "'\(fields[0].prefix(40))' is not a voltage; skipped") }
                    continue
                }
                guard voltages.count < ECGVoltages.maxCount else {
                    note(reader.line, "more than \(ECGVoltages.maxCount) voltages; the rest are skipped")
                    break
                }
                voltages.append(v)
            } else if voltages.isEmpty, header.count < 16 {
                header.append((reader.line, fields[0], row[1...].joined(separator: ",").trimmingCharacters()))
            } else {
                skipped += 1
                if skipped <= 3 { note(reader.line, "a line of \(fields.count) fields among the voltages; skipped") }
            }
        }
        // Each field: by its English name, else by its place in Apple's order.
        var values: [Field: (line: Int, value: String)] = [:]
        for (n, h) in header.enumerated() {
            if let f = englishNames[h.key.lowercased()] { values[f] = (h.line, h.value) }
            else if let f = Field(rawValue: n), values[f] == nil { values[f] = (h.line, h.value) }
        }
        // The date and rate by their values when a translation moved them.
        var start = values[.recorded].flatMap { TimestampParser.parse($0.value) }
        if start == nil { start = header.lazy.compactMap { h in h.value.contains(":") ? TimestampParser.parse(h.value) : nil }.first }
        var rate = values[.sampleRate].flatMap { sampleRate($0.value) }
        if rate == nil { rate = header.lazy.compactMap { sampleRate($0.value) }.first }
        guard let start else { note(nil, "no recorded date (a line such as 'Recorded Date,2026-01-14 10:48:13 -0800'); the recording is skipped"); return nil }
        guard let rate else { note(nil, "no sample rate (a line such as 'Sample Rate,512 hertz'); the recording is skipped"); return nil }
        guard voltages.count >= 2 else { note(nil, "no voltages; the recording is skipped"); return nil }
        // Microvolts are stored; a file in millivolts is converted.
        let unit = values[.unit]?.value ?? header.first { $0.value.hasSuffix("V") && $0.value.count <= 3 }?.value ?? "µV"
        if unit.lowercased() == "mv" { voltages = voltages.map { $0 * 1000 } }
        else if unit != "µV", unit != "μV", unit.lowercased() != "uv" {
            note(values[.unit]?.line, "unit '\(unit)' is not µV or mV; the voltages are read as µV")
        }
        let software = values[.software]?.value
        let device = values[.device]?.value
        var rec = ECGRecording(start: start, source: SampleSource(name: "Apple Health", version: software?.isEmpty == false ? software : nil,
                                                                  device: device?.isEmpty == false ? device : nil), file: name)
        rec.classification = values[.classification]?.value ?? ""
        rec.symptoms = values[.symptoms]?.value ?? ""
        rec.lead = values[.lead]?.value ?? ""
        rec.sampleRateHz = rate
        rec.microvolts = voltages
        return rec
    }
}

extension String {
    /// A decimal comma read as a point (`-52,551`, `512,0 Hz` in exports of some languages).
    fileprivate func decimalPoint() -> String { contains(",") ? String(map { $0 == "," ? "." : $0 }) : self }
}
