import HealthJournal
import HealthSpoolCore
import HealthSpoolStore

/// A figure at a glance (issue 40): how it compares with the person's own usual (`Usual`, the
/// median of their last 30 days), as Today and the measurements page show it — an arrow and
/// words, so nothing relies on colour, and the usual itself.
public struct Glance: Sendable, Equatable {
    /// `about`, `higher` or `lower` (a class for the page's style).
    public var direction: String
    /// "→", "↑", "↓".
    public var arrow: String
    /// "higher than usual".
    public var words: String
    /// "usual 6,200".
    public var usual: String

    public init(_ u: Usual, usual: String, words: String? = nil) {
        direction = u.direction.rawValue
        arrow = u.arrow
        self.words = words ?? u.words
        self.usual = usual
    }

    /// How far from the median is still "about your usual", per figure (a fraction of it):
    /// steps vary a lot from day to day, weight and blood oxygen very little.
    public static let bands: [String: Double] = ["steps": 0.15, "sleep": 0.1, "heart-rate": 0.05, "heartRate": 0.05, "blood-pressure": 0.05,
                                                 "oxygen": 0.01, "glucose": 0.1, "weight": 0.01]
}

extension HomeToday {
    /// The day figures' glances (steps, sleep, heart rate): today's rollup against those of the
    /// `Usual.days` days before it. Today's steps are the day so far, so they are said against a
    /// usual whole day.
    func dayGlances(today: CivilDate) throws -> [String: Glance] {
        let t = today.daysSinceEpoch
        let names = ["stepCount": "steps", DayRollup.sleep: "sleep", "heartRate": "heart-rate"]
        var earlier: [String: [Double]] = [:], now: [String: Double] = [:]
        for r in try store.rollups(fromDay: t - Int64(Usual.days), toDay: t, figures: Array(names.keys)) {
            guard let id = names[r.figure], r.count > 0 || r.figure != "heartRate" else { continue }
            let v = r.figure == "heartRate" ? r.value / Double(r.count) : r.value
            if r.day == t { now[id] = v } else { earlier[id, default: []].append(v) }
        }
        var out: [String: Glance] = [:]
        for (id, value) in now {
            guard let u = Usual.compare(value, with: earlier[id] ?? [], band: Glance.bands[id] ?? 0.1) else { continue }
            switch id {
            case "steps":
                let words = ["about": "about a usual day", "higher": "more than a usual day", "lower": "fewer than a usual day so far"]
                out[id] = Glance(u, usual: "usual day \(style.count(u.median))", words: words[u.direction.rawValue])
            case "sleep": out[id] = Glance(u, usual: "usual " + DayText.minutes(u.median))
            default: out[id] = Glance(u, usual: "usual average \(style.count(u.median)) bpm")
            }
        }
        return out
    }
}

extension MeasurementsView {
    /// The latest reading of `kind` against the readings of the `Usual.days` days before it
    /// (blood pressure by its top number; the usual said as both numbers).
    public func glance(of kind: MeasurementKind, style: NumberStyle) -> Glance? {
        let all = days.flatMap(\.readings).filter { $0.kind == kind }.sorted { $0.at.millis > $1.at.millis }
        guard let latest = all.first else { return nil }
        let since = latest.date.daysSinceEpoch - Int64(Usual.days)
        let earlier = all.dropFirst().filter { $0.date.daysSinceEpoch >= since }
        let id = HomeToday.figureIDs[kind] ?? kind.rawValue
        guard let u = Usual.compare(latest.value, with: earlier.map(\.value), band: Glance.bands[id] ?? 0.1) else { return nil }
        let diastolic = Usual.median(earlier.compactMap(\.diastolic))
        let usual = HealthJournal.words(kind, value: u.median, diastolic: diastolic, style: style, glucoseUnit: glucoseUnit)
        return Glance(u, usual: "usual " + usual, words: kind == .bloodPressure ? "top number " + u.words : nil)
    }
}
