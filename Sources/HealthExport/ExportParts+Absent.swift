import HealthSpoolCore

extension ExportParts {
    /// At most this many absent files are named in the note (the rest counted).
    static let namedAbsent = 5

    /// Notes the `ClinicalRecord` elements of export.xml whose `resourceFilePath` names a file
    /// the zip does not hold (a copy cut short, a folder left out when re-zipping): their records
    /// cannot be imported, and the person is told which, instead of their silently missing.
    static func noteAbsentClinicalRecords(_ members: [ZipMember], links: ExportPartLinks, report: inout ParseReport) {
        guard !links.clinicalRecords.isEmpty else { return }
        var absent = Set(links.clinicalRecords.keys)
        for m in members where !m.isDirectory { absent.remove(ExportPartLinks.fileName(m.name)) }
        guard !absent.isEmpty else { return }
        let names = absent.sorted()
        let shown = names.prefix(namedAbsent).map { "'\($0)'" }.joined(separator: ", ")
        let more = names.count > namedAbsent ? " and \(names.count - namedAbsent) more" : ""
        let what = names.count == 1 ? "1 ClinicalRecord names a file" : "\(names.count) ClinicalRecords name files"
        report.note(ParseProblem(message: "\(what) the zip does not hold (\(shown)\(more)): not imported; export again from the iPhone to get them"))
    }
}
