import HealthSpoolCore

/// Reads Apple Health's `clinical-records/*.json`: one FHIR resource a file (DSTU2 or R4), as
/// a provider sent it to the phone. The resource is kept byte for byte; only its type, id,
/// date, a display name and a status are read out of it, for the lists the person sees.
enum ClinicalRecordReader {
    /// A real resource is a few KB (a DiagnosticReport with its narrative tens of KB): a file
    /// over 1 MiB is noted and skipped.
    static let maxBytes = 1 << 20

    /// Whether a side file's first bytes look like a FHIR resource: a JSON object with a
    /// `resourceType` member near its start.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        var i = head.startIndex
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i += 3 }
        while i < head.endIndex, head[i] == 0x20 || head[i] == 0x0A || head[i] == 0x0D || head[i] == 0x09 { i += 1 }
        guard i < head.endIndex, head[i] == 0x7B else { return false }
        return head.firstRange(of: Array("\"resourceType\"".utf8)) != nil
    }

    /// Reads one resource from `bytes` (the part `name`); nil when it holds none (noted).
    static func read(_ bytes: [UInt8], name: String, link: ClinicalRecordLink, report: inout ParseReport) -> Sample? {
        func note(_ message: String) { report.note(ParseProblem(message: "part '\(name)': \(message); the record is skipped")) }
        if let bad = UTF8Validation.firstInvalidByte(bytes) { note("byte \(bad) is not UTF-8 (FHIR JSON is UTF-8)"); return nil }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes) } catch {
            note("not JSON: \(error)")
            return nil
        }
        guard let resourceType = json["resourceType"]?.stringValue, !resourceType.isEmpty, resourceType.count <= 64 else {
            note("no resourceType")
            return nil
        }
        let fields = ClinicalRecordFields(json, resourceType: resourceType)
        guard let start = fields.date ?? link.receivedDate else {
            note("no date in the \(resourceType) and no receivedDate in export.xml")
            return nil
        }
        var metadata: [String: String] = [
            "resource": String(decoding: bytes, as: UTF8.self),
            "resourceType": resourceType,
            "fhirVersion": link.fhirVersion.isEmpty ? "unknown" : link.fhirVersion,
            "file": name,
            "dateFrom": fields.date == nil ? "receivedDate" : fields.dateField,
        ]
        if let id = fields.id { metadata["resourceId"] = id }
        if !fields.display.isEmpty { metadata["display"] = String(fields.display.prefix(200)) }
        if let status = fields.status { metadata["status"] = String(status.prefix(64)) }
        if !link.recordType.isEmpty { metadata["recordType"] = link.recordType }
        if !link.identifier.isEmpty { metadata["identifier"] = link.identifier }
        if !link.sourceURL.isEmpty { metadata["sourceURL"] = link.sourceURL }
        if let received = link.receivedDate { metadata["receivedDate"] = received.iso8601Local }
        let source = SampleSource(name: link.sourceName.isEmpty ? "Apple Health" : link.sourceName)
        // The resource's own id names it at its provider; without one, Apple's identifier; without
        // that, the file's name.
        let key = resourceType + "/" + (fields.id ?? (link.identifier.isEmpty ? ExportPartLinks.fileName(name) : link.identifier))
            + (link.sourceURL.isEmpty ? "" : "@" + link.sourceURL)
        return Sample(keyed: key, type: "clinicalRecord", value: 1, unit: "count", start: start, source: source, metadata: metadata)
    }
}
