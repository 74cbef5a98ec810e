import HealthSpoolCore

/// CSV for hand-made data: a header naming the columns `type,value,unit,start,end,source` (unit,
/// end and source optional, any order), then one sample a row.
public enum PlainCSVParser {
    public static func parse(_ bytes: [UInt8], into sink: SampleSink) throws -> ParseReport {
        var report = ParseReport()
        var reader = CSVReader(bytes)
        guard let header = reader.next() else { throw ImportError.malformed(format: "CSV", line: 1, offset: nil, reason: "empty file") }
        let columns = header.map { $0.trimmingCharacters().lowercased() }
        func col(_ names: String...) -> Int? { names.lazy.compactMap { columns.firstIndex(of: $0) }.first }
        guard let typeCol = col("type"), let valueCol = col("value"), let startCol = col("start", "startdate", "start_date") else {
            throw ImportError.malformed(format: "CSV", line: 1, offset: nil, reason: "header must name at least type, value and start columns (type,value,unit,start,end,source)")
        }
        let unitCol = col("unit"), endCol = col("end", "enddate", "end_date"), sourceCol = col("source")
        while let row = reader.next() {
            if let bad = reader.invalidField {
                let name = bad.column < header.count ? header[bad.column] : "\(bad.column + 1)"
                report.note(ParseProblem(offset: Int64(bad.offset), line: reader.line,
                                         message: "row refused: column \(name) is not valid UTF-8 (byte \(bad.offset)); the file is damaged there"))
                continue
            }
            func field(_ c: Int?) -> String? {
                guard let c, c < row.count else { return nil }
                let f = row[c].trimmingCharacters()
                return f.isEmpty ? nil : f
            }
            var object: [(String, JSONValue)] = []
            if let t = field(typeCol) { object.append(("type", .string(t))) }
            if let v = field(valueCol) { object.append(("value", .string(v))) }
            if let u = field(unitCol) { object.append(("unit", .string(u))) }
            if let s = field(startCol) { object.append(("startDate", .string(s))) }
            if let e = field(endCol) { object.append(("endDate", .string(e))) }
            object.append(("source", .string(field(sourceCol) ?? "csv")))
            do {
                try sink.accept(try NativeParser.sample(from: .object(object)))
                report.samples += 1
            } catch let e as NativeParser.SampleFieldError {
                report.note(ParseProblem(line: reader.line, message: e.reason.replacingQuotedNames()))
            }
        }
        return report
    }
}

extension String {
    /// Field names in CSV terms for CSV error messages.
    func replacingQuotedNames() -> String {
        var s = self
        for (a, b) in [("\"startDate\"", "start"), ("\"endDate\"", "end"), ("\"type\"", "type"), ("\"value\"", "value")] {
            s = s.split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
        }
        return s
    }
}
