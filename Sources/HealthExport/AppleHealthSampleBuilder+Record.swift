import HealthSpoolCore

/// `Record`: quantity and category samples, their `MetadataEntry` children and HRV beat lists.
extension AppleHealthSampleBuilder {

    func startRecord() throws {
        var type = -1, unit = -1, value = -1, sourceName = -1, sourceVersion = -1, device = -1
        var creation = -1, startDate = -1, endDate = -1, average = -1
        var extra: [Int] = []
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            switch n.count {
            case 4 where equal(n, "type"): type = i
            case 4 where equal(n, "unit"): unit = i
            case 5 where equal(n, "value"): value = i
            case 6 where equal(n, "device"): device = i
            case 6 where equal(n, "source"): sourceName = i      // iOS 8/9
            case 7 where equal(n, "endDate"): endDate = i
            case 7 where equal(n, "average"): average = i           // early iOS: min/max/average, no value
            case 9 where equal(n, "startDate"): startDate = i
            case 10 where equal(n, "sourceName"): sourceName = i
            case 12 where equal(n, "creationDate"): creation = i
            case 13 where equal(n, "sourceVersion"): sourceVersion = i
            default: extra.append(i)                              // iOS 8 wrote metadata as attributes
            }
        }
        record = nil
        guard type >= 0, scanner.rawValue(type).count > 0 else { problem("Record without a type"); return }
        var badType = false
        let kind = kinds.value(for: scanner.rawValue(type)) { raw in
            guard isUTF8(raw, attribute: type) else {
                badType = true
                return AppleHealthRecordKind(hkIdentifier: String(decoding: raw, as: UTF8.self))
            }
            let id = String(decoding: raw, as: UTF8.self)
            if let k = kindsByIdentifier[id] { return k }
            let k = AppleHealthRecordKind(hkIdentifier: id)
            kindsByIdentifier[id] = k
            return k
        }
        if badType { kinds.forgetLast() }
        guard startDate >= 0, let start = date(startDate, "startDate") else {
            if startDate < 0 { problem("\(kind.hkIdentifier) record without a startDate") }
            return
        }
        var end = start
        if endDate >= 0 {
            guard let e = date(endDate, "endDate") else { return }
            guard e >= start else {
                problem("\(kind.hkIdentifier) record refused: endDate '\(string(endDate))' is before startDate '\(string(startDate))'")
                return
            }
            end = e
        }
        noteOffset(of: start)
        // creationDate (when the phone wrote the sample) is left out: not part of the measurement,
        // and it would cost a string per record in the store and on the wire.
        _ = creation
        var metadata: [String: String] = [:]
        for i in extra {
            metadata[String(decoding: scanner.attributeName(i), as: UTF8.self)] = string(i)
        }
        let source = SampleSource(
            name: sourceName >= 0 ? interned(sourceName, &sourceNames) : "",
            version: sourceVersion >= 0 ? interned(sourceVersion, &sourceVersions) : nil,
            device: device >= 0 ? interned(device, &devices) : nil)
        if sourceName < 0 { problem("\(kind.hkIdentifier) record without a sourceName; kept with an empty source") }

        var sampleType = kind.name
        var sampleValue: Double
        var sampleUnit: String
        var categoryValue: String?
        if kind.flavor == .quantity {
            let plan = kind.units.value(for: unit >= 0 ? scanner.rawValue(unit) : UnsafeRawBufferPointer(start: nil, count: 0)) { _ in
                kind.plan(for: unit >= 0 ? string(unit) : "")
            }
            sampleType = plan.type
            sampleUnit = plan.unit
            // Early iOS wrote heart rate (and other discrete types) as min/max/average with a
            // recordCount and no value: the average is the value, the rest stays in metadata.
            let summarized = value < 0 && average >= 0
            if summarized { value = average }
            guard value >= 0 else { problem("\(kind.hkIdentifier) record without a value"); return }
            switch plan.mode {
            case .refused:
                problem("\(kind.hkIdentifier) record refused: unit '\(plan.written)' cannot be converted to \(kind.name)'s unit \(kind.canonicalUnit ?? "")")
                return
            case .identity, .unconvertible:
                guard let v = number(value) else {
                    // A category-like value on a type the registry lists as a quantity.
                    let text = interned(value, &categoryValues)
                    guard text.hasPrefix("HK") else { problem("\(kind.hkIdentifier) value '\(text)' is not a number"); return }
                    categoryValue = text
                    sampleValue = 1
                    break
                }
                sampleValue = v
            case .percent:
                guard let v = number(value) else { problem("\(kind.hkIdentifier) value '\(string(value))' is not a number"); return }
                // A fraction (Apple's export) becomes 0–100; a value above 1 already is a percentage.
                // The value as written is kept, as for every conversion.
                sampleValue = v <= 1 ? (number(value, shift: 2) ?? v * 100) : v
                if sampleValue != v || plan.written != "%" {
                    metadata["originalUnit"] = plan.written.isEmpty ? "%" : plan.written
                    metadata["originalValue"] = SampleIdentity.canonicalNumber(v)
                }
            case .convert:
                guard let v = number(value) else { problem("\(kind.hkIdentifier) value '\(string(value))' is not a number"); return }
                sampleValue = Self.tidy(UnitConversion.toCanonical(v, unit: plan.written, type: kind.name).0)
                metadata["originalUnit"] = plan.written
                metadata["originalValue"] = SampleIdentity.canonicalNumber(v)
            }
            if plan.renamed { metadata["originalUnit"] = plan.written }
            if summarized { summarizedRange(kind: kind, plan: plan, into: &metadata) }
        } else {
            // No value attribute (old exports) is HealthKit's value 0: for sleep, *in bed*.
            let raw = value >= 0 ? interned(value, &categoryValues) : "0"
            let minutes = Double(end.millis - start.millis) / 60_000
            switch kind.flavor {
            case .sleep:
                let stage = Self.sleepStage(raw)
                if stage == "HKCategoryValueSleepAnalysisInBed" { sampleType = "timeInBed" }
                metadata["sleepStage"] = stage
                sampleValue = minutes
                sampleUnit = "min"
            case .mindful:
                if !raw.isEmpty { categoryValue = raw }
                sampleValue = minutes
                sampleUnit = "min"
            case .standHour:
                categoryValue = raw
                sampleValue = raw.hasSuffix("Idle") || raw == "1" ? 0 : 1
                sampleUnit = kind.canonicalUnit ?? "count"
            default:
                if !raw.isEmpty { categoryValue = raw }
                // Symptoms: the severity as HealthKit numbers it; other categories: 1.
                sampleValue = raw.hasPrefix("HKCategoryValueSeverity") ? Self.severity(raw) : 1
                sampleUnit = kind.canonicalUnit ?? "count"
            }
        }
        if let categoryValue { metadata["categoryValue"] = categoryValue }
        if let bad = invalidField { return refuse(kind.hkIdentifier + " record", bad) }
        record = PendingRecord(type: sampleType, value: sampleValue, unit: sampleUnit, start: start, end: end,
                               source: source, metadata: metadata, line: scanner.tagLine,
                               correlationMember: kind.isCorrelationMember && sampleType == kind.name)
    }

    /// Remembers the UTC offset of `start`'s local day (the first one seen for that day). Two
    /// comparisons when the record falls on the day noted last, as consecutive records do.
    @inline(__always) func noteOffset(of start: Timestamp) {
        let d = notedDay
        if start.millis >= d.from, start.millis < d.to, start.utcOffsetSeconds == d.offset { return }
        let offset = start.utcOffsetSeconds
        let day = Timestamp.floorDivide(start.millis / 1000 + Int64(offset), 86_400).0
        if offsetsByDay[day] == nil { offsetsByDay[day] = offset }
        let from = (day * 86_400 - Int64(offset)) * 1000
        notedDay = (from, from + 86_400_000, offset)
    }

    /// `min` and `max` of an early-iOS summarized record, in the sample's unit (they were kept
    /// as written with the other attributes).
    func summarizedRange(kind: AppleHealthRecordKind, plan: AppleHealthRecordKind.UnitPlan, into metadata: inout [String: String]) {
        for key in ["min", "max"] {
            guard let text = metadata[key], let v = Double(text), v.isFinite else { continue }
            switch plan.mode {
            case .convert:
                metadata[key] = SampleIdentity.canonicalNumber(Self.tidy(UnitConversion.toCanonical(v, unit: plan.written, type: kind.name).0))
            case .percent where v <= 1:
                metadata[key] = SampleIdentity.canonicalNumber(Self.tidy(v * 100))
            default: break
            }
        }
    }

    /// A converted value rounded to 12 significant digits, so that 418.4 kJ is 100 kcal and not
    /// 99.99999999999999 (the factor's rounding noise would otherwise show in payloads).
    static func tidy(_ v: Double) -> Double {
        guard v != 0, v.isFinite else { return v }
        let magnitude = v.log10Floor
        let digits = 11 - magnitude
        guard digits > -300, digits < 300 else { return v }
        if digits >= 0 {
            let scale = Self.powerOfTen(digits)
            let r = (v * scale).rounded() / scale
            return r.isFinite ? r : v
        }
        let scale = Self.powerOfTen(-digits)
        return (v / scale).rounded() * scale
    }

    static func powerOfTen(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// `HKCategoryValueSeverity…` as HealthKit's number (0 unspecified … 4 severe).
    static func severity(_ raw: String) -> Double {
        switch raw {
        case "HKCategoryValueSeverityNotPresent": 1
        case "HKCategoryValueSeverityMild": 2
        case "HKCategoryValueSeverityModerate": 3
        case "HKCategoryValueSeveritySevere": 4
        default: 0
        }
    }

    /// The sleep stage identifier; iOS 8–15 numeric values mapped to today's identifiers.
    static func sleepStage(_ raw: String) -> String {
        switch raw {
        case "0": "HKCategoryValueSleepAnalysisInBed"
        case "1": "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case "2": "HKCategoryValueSleepAnalysisAwake"
        case "3": "HKCategoryValueSleepAnalysisAsleepCore"
        case "4": "HKCategoryValueSleepAnalysisAsleepDeep"
        case "5": "HKCategoryValueSleepAnalysisAsleepREM"
        default: raw
        }
    }

    func closeRecord() throws {
        guard var r = record.take() else { return }
        if let bad = r.refused ?? correlation?.refused { return refuse("\(r.type) record", bad, at: r.line) }
        if var beats = r.beats {
            beats.raw("]")
            r.metadata["instantaneousBeatsPerMinute"] = beats.text
            if r.beatCount > Self.maxBeats { r.metadata["instantaneousBeatsPerMinuteCount"] = String(r.beatCount) }
        }
        if let c = correlation {
            // The correlation's own metadata (device, sequence number, …) on each member;
            // the record's own entries win.
            r.metadata.merge(c.metadata) { own, _ in own }
        }
        let sample = Sample(type: r.type, value: r.value, unit: r.unit, start: r.start, end: r.end,
                            source: r.source, metadata: r.metadata)
        if correlation != nil {
            correlationCopies.supersede(sample.id)
            try emit(sample)
        } else if r.correlationMember, correlationCopies.hold(sample) {
            return
        } else {
            try emit(sample)
        }
    }

    /// Samples held back because a `Correlation` later in the file may repeat them with its
    /// metadata, now handed over (at the end of the file, or when it stops early).
    func finish() throws {
        for sample in correlationCopies.release() { try emit(sample) }
    }

    func metadataEntry(parent: Element?) {
        var key = -1, value = -1
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if equal(n, "key") { key = i } else if equal(n, "value") { value = i }
        }
        guard key >= 0 else { return }
        switch parent {
        case .record:
            guard record != nil else { return }
            guard record!.metadata.count < Self.maxMetadataEntries else { return tooMuchMetadata() }
            record!.metadata[interned(key, &metadataKeys)] = value >= 0 ? string(value) : ""
            if record!.refused == nil, let bad = invalidField { record!.refused = bad }
        case .workout:
            guard workout != nil else { return }
            guard workout!.metadata.count < Self.maxMetadataEntries else { return tooMuchMetadata() }
            workout!.metadata[interned(key, &metadataKeys)] = value >= 0 ? string(value) : ""
            if workout!.refused == nil, let bad = invalidField { workout!.refused = bad }
        case .correlation:
            guard correlation != nil, correlation!.metadata.count < Self.maxMetadataEntries else { return }
            let k = interned(key, &metadataKeys), v = value >= 0 ? string(value) : ""
            if invalidField == nil { correlation!.metadata[k] = v } else { correlation!.refused = invalidField }
        default:
            break
        }
    }

    /// Metadata entries kept per sample (real ones carry a handful): memory stays bounded.
    static let maxMetadataEntries = 256

    func tooMuchMetadata() {
        problem("more than \(Self.maxMetadataEntries) MetadataEntry elements in one \(record != nil ? "Record" : "Workout"); the rest were dropped")
    }

    /// One `InstantaneousBeatsPerMinute` of an HRV record: appended to a compact JSON list.
    func beat() {
        guard record != nil else { return }
        var bpm: String?, time: String?
        for i in 0..<scanner.attributeCount {
            let n = scanner.attributeName(i)
            if equal(n, "bpm") { bpm = string(i) } else if equal(n, "time") { time = string(i) }
        }
        if record!.refused == nil, let bad = invalidField { record!.refused = bad }
        guard record!.beatCount < Self.maxBeats else { record!.beatCount += 1; return }
        var w = record!.beats ?? JSONWriter(capacity: 256)
        record!.beats = nil
        w.raw(record!.beatCount == 0 ? "[{" : ",{")
        if let bpm {
            w.raw("\"bpm\":")
            if let v = Double(bpm), v.isFinite { w.number(v) } else { w.string(bpm) }
        }
        if let time { w.raw(bpm == nil ? "\"time\":" : ",\"time\":"); w.string(time) }
        w.raw("}")
        record!.beats = w
        record!.beatCount += 1
    }

    /// Beats kept per HRV record (real lists hold about a hundred).
    static let maxBeats = 2000
}

extension Double {
    /// ⌊log10(|self|)⌋ for finite non-zero values, without Foundation.
    var log10Floor: Int {
        var a = abs(self)
        var e = 0
        while a >= 10 { a /= 10; e += 1 }
        while a < 1 { a *= 10; e -= 1 }
        return e
    }
}
