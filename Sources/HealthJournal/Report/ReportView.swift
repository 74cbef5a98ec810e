import HealthSpoolCore

/// What the web's summary page shows: the report of the period asked for, the note categories
/// (for "since the last appointment" and the questions shown first), and, when the period asked
/// for could not be used, why (the last 30 days are shown instead).
public struct ReportView: Sendable {
    /// How the period was asked for.
    public enum Ask: Sendable {
        /// The 30 days that end today.
        case standard
        /// The `days` days that end today (1…3660).
        case days(Int)
        /// From the day of the latest note in a category to today.
        case since(category: String)
        /// Typed dates (`YYYY-MM-DD`; either may be missing).
        case dates(from: String?, to: String?)
    }

    public var report: VisitReport
    public var categories: [String]
    /// Why the period asked for is not the one shown.
    public var problem: String?
    /// The category whose notes come first.
    public var questions: String?
}

extension VisitReports {
    /// The report of the period `ask` names as of `now`, with the notes of `questions` first.
    public func view(_ ask: ReportView.Ask, questions: String?, now: Timestamp) throws -> ReportView {
        var problem: String?
        var period = defaultPeriod(now: now)
        do {
            switch ask {
            case .standard: break
            case .days(let days):
                period = (CivilDate(daysSinceEpoch: period.to.daysSinceEpoch - Int64(days) + 1), period.to)
            case .since(let category):
                if let day = try lastNoteDay(category: category) {
                    period = try self.period(from: day.description, to: nil, now: now)
                } else {
                    problem = "There is no note in the category \u{201C}\(category)\u{201D}: showing the last 30 days."
                }
            case let .dates(from, to):
                period = try self.period(from: from, to: to, now: now)
            }
        } catch {
            problem = "\(error)"
        }
        let questions = questions.flatMap { $0.isEmpty ? nil : $0 }
        return ReportView(report: try report(from: period.from, to: period.to, now: now, questions: questions),
                          categories: try journal.noteCategories().map(\.0), problem: problem, questions: questions)
    }
}
