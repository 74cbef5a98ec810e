import HealthSpoolCore

extension AutoExportParser {
    static let csvFormat = "Health Auto Export CSV"

    /// A metric column of the header: `Heart Rate [Min] (count/min)` → metric `heart_rate`,
    /// part `min`, unit `count/min`.
    struct CSVColumn {
        let index: Int
        let metric: String
        let part: String?
        let unit: String

        /// Splits a header cell. The unit is everything inside the first ` (` … last `)`, so
        /// `VO2 Max (ml/(kg·min))` keeps its unit whole.
        init(index: Int, header: String) {
            self.index = index
            var name = Substring(header)
            var unit = ""
            if name.hasSuffix(")"), let open = name.indices.first(where: { name[$0] == " " && name[name.index(after: $0)...].hasPrefix("(") }) {
                let unitStart = name.index(open, offsetBy: 2)
                unit = String(name[unitStart..<name.index(before: name.endIndex)])
                name = name[..<open]
            }
            var part: String?
            if let open = name.firstIndex(of: "["), let close = name.lastIndex(of: "]"), open < close {
                part = AutoExportNames.snakeCase(String(name[name.index(after: open)..<close]))
                name = name[..<open]
            }
            self.metric = AutoExportNames.snakeCase(String(name))
            self.part = part
            self.unit = unit
        }
    }

    /// CSV part names → the member names of the equivalent JSON point.
    static let csvParts: [String: String] = [
        "min": "Min", "avg": "Avg", "max": "Max", "systolic": "systolic", "diastolic": "diastolic",
        "total": "totalSleep", "asleep": "asleep", "in_bed": "inBed", "core": "core", "deep": "deep", "rem": "rem", "awake": "awake",
    ]

    /// Parses Health Auto Export CSV: a `Date` (or `Date/Time`, or `Start`/`End`) column and
    /// one column per metric with its unit in the header; or HAE's workouts CSV (a
    /// `Workout Type` column). Each row becomes the JSON point it stands for and is read by
    /// the same code as the JSON export, so both map alike.
    public static func parseCSV(_ bytes: [UInt8], into sink: SampleSink) throws -> ParseReport {
        var reader = CSVReader(bytes)
        guard let header = reader.next()?.map({ $0.trimmingCharacters() }) else {
            throw ImportError.malformed(format: csvFormat, line: 1, offset: nil, reason: "the file is empty")
        }
        let headerInvalid = reader.invalidField
        let lower = header.map { $0.lowercased() }
        func column(_ names: String...) -> Int? { lower.firstIndex { names.contains($0) } }
        guard let dateCol = column("date/time", "date", "start", "startdate", "start date") else {
            throw ImportError.malformed(format: csvFormat, line: 1, offset: nil,
                                        reason: "the header has no Date, Date/Time or Start column (expected Health Auto Export's header, e.g. Date/Time,Step Count (count),Active Energy (kJ))")
        }
        let endCol = column("end", "enddate", "end date")
        let sourceCol = column("source")
        // A workouts CSV names each row's workout in `Workout Type` (older) or `Type` (with
        // `Start`, `End` and `Duration` columns); any other CSV is one of metrics.
        let workoutCol = column("workout type", "workout")
            ?? (column("duration") != nil && endCol != nil ? column("type") : nil)
        var builder = AutoExportSampleBuilder(sink: sink)
        if let bad = headerInvalid {
            builder.report.note(ParseProblem(offset: Int64(bad.offset), line: 1,
                                             message: "column \(bad.column + 1) refused: its header is not valid UTF-8 (byte \(bad.offset)); the file is damaged there"))
        }

        // Rows are read first: the aggregation period is inferred from all of their dates.
        var rows: [(line: Int, start: Timestamp, fields: [String])] = []
        var firstBadDate: (line: Int, text: String)?
        while let row = reader.next() {
            if let bad = reader.invalidField {
                let name = bad.column < header.count ? header[bad.column] : "\(bad.column + 1)"
                builder.report.note(ParseProblem(offset: Int64(bad.offset), line: reader.line,
                                                 message: "row refused: column \(name) is not valid UTF-8 (byte \(bad.offset)); the file is damaged there"))
                continue
            }
            let text = dateCol < row.count ? row[dateCol].trimmingCharacters() : ""
            guard let t = TimestampParser.parse(text) else {
                if firstBadDate == nil { firstBadDate = (reader.line, text) }
                builder.note("'\(text)' in column \(header[dateCol]) is not a date (expected e.g. 2024-09-28 16:51:59 or 2024-09-28 4:51:59 pm)", line: reader.line)
                continue
            }
            rows.append((reader.line, t, row))
        }
        if rows.isEmpty, let bad = firstBadDate {
            throw ImportError.malformed(format: csvFormat, line: bad.line, offset: nil,
                                        reason: "no row has a date healthspool reads ('\(bad.text)'); set the export's date format to yyyy-MM-dd HH:mm:ss")
        }

        if let workoutCol {
            for row in rows {
                let point = workoutPoint(row.fields, header: header, nameCol: workoutCol, startCol: dateCol, endCol: endCol, sourceCol: sourceCol)
                do { try readWorkout(point, into: &builder) }
                catch let r as AutoExportSampleBuilder.Rejection { builder.note("workout: \(r.reason)", line: row.line) }
            }
            return builder.report
        }

        let skip: Set<Int> = Set([dateCol, endCol, sourceCol, headerInvalid?.column].compactMap { $0 })
        var groups: [(metric: String, columns: [CSVColumn])] = []
        for (i, h) in header.enumerated() where !skip.contains(i) && !h.isEmpty {
            let c = CSVColumn(index: i, header: h)
            // A cut-up cell (`[Min] (count/min)`, `%`) names no metric: it would make a sample
            // without a type.
            guard !c.metric.isEmpty else {
                builder.report.note(ParseProblem(line: 1, message: "column \(i + 1) ('\(h)') refused: its header names no metric; the header is damaged there"))
                continue
            }
            let known = c.part.map { csvParts[$0] != nil } ?? true
            let key = known ? c.metric : c.metric + "_" + (c.part ?? "")
            if let g = groups.firstIndex(where: { $0.metric == key }) { groups[g].columns.append(c) }
            else { groups.append((key, [c])) }
        }
        let period = endCol == nil ? AggregationPeriod.common(rows.map(\.start)) : nil
        for row in rows {
            func cell(_ i: Int?) -> String? {
                guard let i, i < row.fields.count else { return nil }
                let s = row.fields[i].trimmingCharacters()
                return s.isEmpty ? nil : s
            }
            for group in groups {
                var members: [(String, JSONValue)] = []
                for c in group.columns {
                    guard let text = cell(c.index) else { continue }
                    guard let v = csvNumber(text) else {
                        builder.note("'\(text)' in column \(header[c.index]) is not a number", line: row.line)
                        continue
                    }
                    members.append((c.part.flatMap { csvParts[$0] } ?? "qty", .number(v)))
                }
                if members.isEmpty { continue }
                members.append(("date", .string(cell(dateCol)!)))
                if let end = cell(endCol) {
                    members.append(("startDate", .string(cell(dateCol)!)))
                    members.append(("endDate", .string(end)))
                }
                members.append(("units", .string(group.columns[0].unit)))
                if let s = cell(sourceCol) { members.append(("source", .string(s))) }
                let point = JSONValue.object(members)
                let type = AutoExportNames.type(for: group.metric)
                do {
                    if type == "sleepAnalysis" {
                        try readSleepNight(point, unit: group.columns[0].unit.isEmpty ? "hr" : group.columns[0].unit, into: &builder)
                    } else {
                        try readPoint(point, type: type, units: group.columns[0].unit, period: period, into: &builder)
                    }
                } catch let r as AutoExportSampleBuilder.Rejection {
                    builder.note("\(group.metric): \(r.reason)", line: row.line)
                }
            }
        }
        return builder.report
    }

    /// A workouts-CSV row as the JSON workout it stands for.
    static func workoutPoint(_ fields: [String], header: [String], nameCol: Int, startCol: Int, endCol: Int?, sourceCol: Int?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for (i, h) in header.enumerated() where i < fields.count {
            let text = fields[i].trimmingCharacters()
            if text.isEmpty { continue }
            switch i {
            case nameCol: members.append(("name", .string(text)))
            case startCol: members.append(("start", .string(text)))
            case endCol: members.append(("end", .string(text)))
            case sourceCol: members.append(("source", .string(text)))
            default:
                let c = CSVColumn(index: i, header: h)
                let key = camelCase(c.metric + (c.part.map { "_" + $0 } ?? ""))
                if key == "duration", let seconds = clockSeconds(text) ?? csvNumber(text) {
                    members.append(("duration", .number(seconds)))
                } else if let v = csvNumber(text), !c.unit.isEmpty {
                    members.append((key, .object([("qty", .number(v)), ("units", .string(c.unit))])))
                } else {
                    members.append((key, csvNumber(text).map(JSONValue.number) ?? .string(text)))
                }
            }
        }
        return .object(members)
    }

    /// A number as a CSV cell holds it; a lone decimal comma (`12,5`) is accepted.
    static func csvNumber(_ text: String) -> Double? {
        if let v = Double(text), v.isFinite { return v }
        if !text.contains("."), text.filter({ $0 == "," }).count == 1 {
            return Double(text.replacingComma()).flatMap { $0.isFinite ? $0 : nil }
        }
        return nil
    }

    /// `1:02:03` or `02:03` → seconds.
    static func clockSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var total = 0.0
        for p in parts {
            guard let v = Double(p) else { return nil }
            total = total * 60 + v
        }
        return total
    }

    /// `active_energy` → `activeEnergy`.
    static func camelCase(_ snake: String) -> String {
        let words = snake.split(separator: "_")
        guard let first = words.first else { return snake }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

extension String {
    fileprivate func replacingComma() -> String {
        String(map { $0 == "," ? "." : $0 })
    }
}
