import HealthSpoolCore

extension VisitReport {
    /// The JSON form (`healthspool report --json`): the same figures as the HTML, empty
    /// sections as empty arrays or null. Means are rounded to one decimal place, as shown.
    public var json: JSONValue {
        func n(_ v: Int) -> JSONValue { .number(Double(v)) }
        func d(_ v: Double?) -> JSONValue { v.map { .number(Self.rounded($0)) } ?? .null }
        func date(_ c: CivilDate) -> JSONValue { .string(c.description) }
        func scores(_ s: ScoreFigures) -> JSONValue {
            .object([("name", .string(s.name)), ("entries", n(s.entries)), ("days", n(s.days)), ("total", n(s.total)),
                     ("highest", n(s.highest)),
                     ("worstDays", .array(s.worstDays.map { .object([("date", date($0.day)), ("score", n($0.score))]) })),
                     ("daily", .array(s.daily.map(n))),
                     ("partsOfDay", .object(s.parts.map { ($0.part.rawValue, n($0.count)) }))])
        }
        func adherence(_ a: AdherenceCount) -> [(String, JSONValue)] {
            [("due", n(a.due)), ("onTime", n(a.onTime)), ("late", n(a.late)), ("missed", n(a.missed))]
        }
        var members: [(String, JSONValue)] = [("from", date(from)), ("to", date(to)), ("days", n(days.count)),
                                               ("made", .string(made.iso8601Local))]
        if let name { members.append(("name", .string(name))) }
        members.append(("symptoms", .array(symptoms.map { c in
            .object([("category", scores(c.category)), ("symptoms", .array(c.symptoms.map(scores)))])
        })))
        members.append(("factors", factors.map { f in
            .object([
                ("aggravating", .array(f.aggravating.map { .object([("name", .string($0.name)), ("count", n($0.count))]) })),
                ("relieving", .array(f.relieving.map { .object([("name", .string($0.name)), ("count", n($0.count))]) })),
                ("highDays", n(f.highDays)), ("otherDays", n(f.otherDays)),
                ("lifestyle", .array(f.lifestyle.map {
                    .object([("factor", .string($0.factor)), ("highDays", n($0.highDays)), ("otherDays", n($0.otherDays))])
                })),
            ])
        } ?? .null))
        members.append(("medications", .array(medications.map { m in
            .object([("name", .string(m.name)), ("dose", .string(m.dose)), ("directions", .string(m.directions)),
                     ("prescriber", .string(m.prescriber)), ("taken", n(m.taken)),
                     ("adherence", m.adherence.map { .object(adherence($0)) } ?? .null),
                     ("weeks", .array(m.weeks.map { .object([("week", date($0.week))] + adherence($0.count)) }))])
        })))
        members.append(("measurements", .array(measurements.map { m in
            .object([("kind", .string(m.kind)), ("title", .string(m.title)), ("unit", .string(m.unit)), ("count", n(m.count)),
                     ("readings", .array(m.readings.map { r in
                         .object([("time", .string(r.at.iso8601Local)), ("value", d(r.value))] + (r.second.map { [("second", d($0))] } ?? []))
                     })),
                     ("daily", .array(m.daily.map { r in
                         .object([("date", date(r.day)), ("count", n(r.count)), ("low", d(r.low)), ("mean", d(r.mean)), ("high", d(r.high))]
                                 + (r.second.map { [("second", .object([("low", d($0.low)), ("mean", d($0.mean)), ("high", d($0.high))]))] } ?? []))
                     }))])
        })))
        members.append(("activity", activity.map { a in
            .object([("meanSteps", d(a.meanSteps)), ("meanAsleepMinutes", d(a.meanAsleepMinutes)), ("meanInBedMinutes", d(a.meanInBedMinutes)),
                     ("days", .array(a.days.map { day in
                         .object([("date", date(day.day)), ("steps", d(day.steps)), ("asleepMinutes", d(day.asleepMinutes)),
                                  ("inBedMinutes", d(day.inBedMinutes))])
                     }))])
        } ?? .null))
        members.append(("ecgs", .array(ecgs.map { e in
            .object([("start", .string(e.start.iso8601Local)), ("classification", .string(e.classificationText)),
                     ("classificationCode", .string(e.classification.rawValue)), ("plainWords", .string(e.classification.plainWords)),
                     ("averageHeartRate", d(e.averageHeartRate)), ("symptoms", e.symptoms.map(JSONValue.string) ?? .null)])
        })))
        members.append(("healthRecords", .object(healthRecords.listsJSON)))
        members.append(("labTrends", .array(healthRecords.labs.map(\.json))))
        members.append(("heartRateNotifications", .array(heartRateNotifications.map { n in
            .object([("start", .string(n.start.iso8601Local)), ("kind", .string(n.kind)), ("text", .string(n.sentence))])
        })))
        members.append(("notes", .array(notes.map { g in
            .object([("category", .string(g.category)), ("questions", .bool(g.questions)),
                     ("notes", .array(g.notes.map { .object([("time", .string($0.created.iso8601Local)), ("text", .string($0.text)),
                                                             ("audio", .bool($0.hasAudio))]) }))])
        })))
        return .object(members)
    }

    /// One decimal place: what the report shows.
    static func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
