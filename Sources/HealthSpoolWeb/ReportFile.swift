import HealthJournal

/// The doctor's summary as the self-contained file `healthspool report --out` writes
/// (`report-file.mustache`): the same sections as the web's `/report` (`report-body` over
/// `ReportSections`), the style sheet (`Assets/report.css`, also `/static/report.css`) and the
/// printed pages' header inline. Public: the CLI writes it.
public struct ReportFile: Sendable {
    let from: String
    let to: String
    /// CSS, inserted unescaped in the `<style>` element: the file, and the header of `ReportPrintHeader`.
    let style: String
    let printHeader: String
    let sections: ReportSections

    /// The summary's style sheet.
    public static var css: String {
        guard let asset = WebFiles.assets["report.css"] else { preconditionFailure("no embedded asset report.css") }
        return asset.text
    }

    /// The whole file of `report`.
    public static func html(_ report: VisitReport) -> String {
        WebTemplates.render(ReportFile(from: report.from.description, to: report.to.description, style: css,
                                       printHeader: ReportPrintHeader.css(report), sections: ReportSections(report)), .reportFile)
    }
}
