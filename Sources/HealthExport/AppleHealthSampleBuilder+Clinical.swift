import HealthSpoolCore

/// `ClinicalRecord` (what export.xml says about a `clinical-records/*.json` file, read after the
/// XML by `ExportParts`), `Audiogram` (one `audiogram` sample: its `SensitivityPoint`s per ear)
/// and `VisionPrescription` (one `visionPrescription` sample: each eye's lens). These elements
/// are rare (a handful an export), so their attributes are read by name, not by the record
/// path's byte matching.
extension AppleHealthSampleBuilder {
    /// An `Audiogram` whose end tag is still to come.
    struct PendingAudiogram {
        var start: Timestamp
        var end: Timestamp
        var source: SampleSource
        var points = JSONList()
        var pointCount = 0
        var line: Int
        var refused: InvalidField?
    }

    /// A `VisionPrescription` whose end tag is still to come.
    struct PendingVision {
        var start: Timestamp
        var source: SampleSource
        var metadata: [String: String]
        var contacts: Bool
        var refused: InvalidField?
    }

    /// The current tag's attributes by name (decoded), the first of each name.
    func attributesByName() -> [String: (index: Int, value: String)] {
        var out: [String: (Int, String)] = [:]
        for i in 0..<scanner.attributeCount {
            let name = String(decoding: scanner.attributeName(i), as: UTF8.self)
            if out[name] == nil { out[name] = (i, string(i)) }
        }
        return out
    }

    /// The source named by `sourceName`, `sourceVersion` and `device`, else "Apple Health".
    func namedSource(_ a: [String: (index: Int, value: String)]) -> SampleSource {
        let name = a["sourceName"]?.value ?? ""
        return SampleSource(name: name.isEmpty ? "Apple Health" : name, version: a["sourceVersion"]?.value.nonEmpty,
                            device: a["device"]?.value.nonEmpty)
    }

    // MARK: - ClinicalRecord

    func clinicalRecord() {
        let a = attributesByName()
        if let bad = invalidField { return refuse("ClinicalRecord", bad) }
        guard let path = a["resourceFilePath"]?.value, !path.isEmpty else {
            problem("ClinicalRecord without a resourceFilePath; its resource cannot be found")
            return
        }
        var link = ClinicalRecordLink()
        link.recordType = a["type"]?.value ?? ""
        link.identifier = a["identifier"]?.value ?? ""
        link.sourceName = a["sourceName"]?.value ?? ""
        link.sourceURL = a["sourceURL"]?.value ?? ""
        link.fhirVersion = a["fhirVersion"]?.value ?? ""
        if let received = a["receivedDate"] { link.receivedDate = date(received.index, "receivedDate") }
        guard partLinks.clinicalRecords.count < ExportPartLinks.maxClinicalRecords else {
            return problem("more than \(ExportPartLinks.maxClinicalRecords) ClinicalRecord elements; '\(path)' is read without what export.xml says of it")
        }
        partLinks.clinicalRecords[ExportPartLinks.fileName(path)] = link
    }

    // MARK: - Audiogram

    func startAudiogram() {
        audiogram = nil
        let a = attributesByName()
        guard let s = a["startDate"], let start = date(s.index, "startDate") else {
            if a["startDate"] == nil { problem("Audiogram without a startDate") }
            return
        }
        var end = start
        if let e = a["endDate"], let t = date(e.index, "endDate"), t >= start { end = t }
        audiogram = PendingAudiogram(start: start, end: end, source: namedSource(a), line: scanner.tagLine, refused: invalidField)
    }

    /// `<SensitivityPoint frequencyValue="500" frequencyUnit="Hz" leftEarValue="15" leftEarUnit="dBHL" …/>`.
    func sensitivityPoint() {
        guard audiogram != nil else { return }
        let a = attributesByName()
        if audiogram!.refused == nil, let bad = invalidField { audiogram!.refused = bad }
        func number(_ key: String) -> Double? { a[key].flatMap { self.number($0.index) } }
        guard let frequency = number("frequencyValue"), frequency > 0 else {
            return problem("SensitivityPoint without a frequencyValue; skipped")
        }
        let left = number("leftEarValue"), right = number("rightEarValue")
        guard left != nil || right != nil else { return problem("SensitivityPoint at \(frequency) Hz without an ear's value; skipped") }
        audiogram!.pointCount += 1
        guard audiogram!.points.next() else { return }
        var w = audiogram!.points.writer
        audiogram!.points.writer = JSONWriter(capacity: 0)
        w.raw("{\"frequencyHz\":"); w.number(frequency)
        w.raw(",\"left\":"); if let left { w.number(left) } else { w.raw("null") }
        w.raw(",\"right\":"); if let right { w.number(right) } else { w.raw("null") }
        for (key, name) in [("leftEarMasked", "leftMasked"), ("rightEarMasked", "rightMasked")] {
            if let v = a[key]?.value { w.raw(","); w.key(name); w.raw(v == "true" || v == "1" ? "true" : "false") }
        }
        w.raw("}")
        audiogram!.points.writer = w
    }

    func closeAudiogram() throws {
        guard var pending = audiogram else { return }
        audiogram = nil
        if let bad = pending.refused { return refuse("Audiogram", bad, at: pending.line) }
        guard pending.pointCount > 0, let points = pending.points.text() else {
            return report.note(ParseProblem(line: pending.line, message: "Audiogram without SensitivityPoints; skipped"))
        }
        // A real audiogram has 6–11 frequencies; the list keeps at most `JSONList.cap`.
        if pending.pointCount > JSONList.cap {
            report.note(ParseProblem(line: pending.line, message: "Audiogram with \(pending.pointCount) points; the first \(JSONList.cap) are kept"))
        }
        let kept = min(pending.pointCount, JSONList.cap)
        try emit(Sample(type: "audiogram", value: Double(kept), unit: "count", start: pending.start, end: pending.end,
                        source: pending.source, metadata: ["points": points, "unit": "dBHL"]))
    }

    // MARK: - VisionPrescription

    func startVisionPrescription() {
        vision = nil
        let a = attributesByName()
        guard let s = a["dateIssued"] ?? a["startDate"], let start = date(s.index, "dateIssued") else {
            if a["dateIssued"] == nil && a["startDate"] == nil { problem("VisionPrescription without a dateIssued") }
            return
        }
        var metadata: [String: String] = ["dateIssued": start.iso8601Local]
        if let e = a["expirationDate"], let t = date(e.index, "expirationDate") { metadata["expirationDate"] = t.iso8601Local }
        if let brand = a["brand"]?.value, !brand.isEmpty { metadata["brand"] = brand }
        let kind = a["type"]?.value ?? ""
        if !kind.isEmpty { metadata["prescriptionType"] = kind }
        vision = PendingVision(start: start, source: namedSource(a), metadata: metadata,
                               contacts: kind.lowercased().contains("contact"), refused: invalidField)
    }

    /// `<RightEye sphere="-1.25" cylinder="-0.5" axis="90" …/>`: every attribute, as written.
    func visionEye(right: Bool) {
        guard vision != nil else { return }
        var fields: [String: String] = [:]
        for i in 0..<min(scanner.attributeCount, 32) {
            fields[String(decoding: scanner.attributeName(i), as: UTF8.self)] = string(i)
        }
        if vision!.refused == nil, let bad = invalidField { vision!.refused = bad }
        if fields["baseCurve"] != nil || fields["diameter"] != nil { vision!.contacts = true }
        var w = JSONWriter(capacity: 256)
        w.sortedObject(fields)
        vision!.metadata[right ? "rightEye" : "leftEye"] = w.text
    }

    func closeVisionPrescription() throws {
        guard let pending = vision else { return }
        vision = nil
        if let bad = pending.refused { return refuse("VisionPrescription", bad) }
        try emit(Sample(type: "visionPrescription", value: pending.contacts ? 2 : 1, unit: "count", start: pending.start,
                        source: pending.source, metadata: pending.metadata))
    }
}

extension String {
    /// Nil when empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
