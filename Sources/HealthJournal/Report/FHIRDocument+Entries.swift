import HealthSpoolCore

extension FHIRDocument {
    /// FHIR's statistic codes, for a day's lowest and highest readings.
    static let statisticSystem = "http://terminology.hl7.org/CodeSystem/observation-statistics"
    /// healthspool's extension of a MedicationStatement: the doses due by its reminders and how
    /// they were taken (R4's MedicationStatement has no element of its own for adherence).
    public static let adherenceExtension = "urn:healthspool:fhir:extension:adherence"

    var subject: FHIRObservation.Subject { .patient(patientID) }

    /// The concept a measurement kind is sent with (glucose in the person's chosen unit).
    func concept(kind: String) -> FHIRMapping.Concept {
        if kind == "bloodPressure" { return FHIRMapping.bloodPressurePanel }
        if kind == "bloodGlucose", report.glucoseUnit == .mmolPerL { return FHIRMapping.glucoseMolar }
        return FHIRMapping.concept(for: kind)
    }

    /// `resourceType` … `subject` of an Observation of `c`.
    func head(_ id: SampleID, _ c: FHIRMapping.Concept) -> [(String, JSONValue)] {
        [("resourceType", .string("Observation")), ("id", .string(id.description)), ("status", .string("final")),
         ("category", .array([FHIRJSON.category(c.category)])), ("code", FHIRJSON.code(c)), ("subject", subject.json)]
    }

    /// A day's bounds in the journal's zone.
    func dayPeriod(_ day: CivilDate) -> JSONValue {
        let b = LocalDay.bounds(of: day, in: zone)
        return FHIRJSON.period(LocalDay.timestamp(b.lowerBound, in: zone), LocalDay.timestamp(b.upperBound - 1, in: zone))
    }

    /// A measurement's readings, one Observation each (its sample's id), or past the summary's
    /// limit one per day (mean, with the lowest and highest as components).
    func measurementObservations(_ m: MeasurementFigures) -> [(SampleID, JSONValue)] {
        let c = concept(kind: m.kind)
        let bp = m.kind == "bloodPressure"
        let systolic = FHIRMapping.concept(for: "bloodPressureSystolic"), diastolic = FHIRMapping.concept(for: "bloodPressureDiastolic")
        func component(_ c: FHIRMapping.Concept, _ v: Double) -> JSONValue {
            .object([("code", FHIRJSON.code(c)), ("valueQuantity", FHIRJSON.quantity(v, ucum: c.unit))])
        }
        var out: [(SampleID, JSONValue)] = []
        for r in m.readings {
            let id = r.id ?? FHIRIdentity.id("observation:\(m.kind):\(r.at.millis)")
            var o = head(id, c)
            o.append(("effectiveDateTime", FHIRJSON.dateTime(r.at)))
            if bp {
                var parts = [component(systolic, r.value)]
                if let d = r.second { parts.append(component(diastolic, d)) }
                o.append(("component", .array(parts)))
            } else {
                o.append(("valueQuantity", FHIRJSON.quantity(r.value * c.factor, ucum: c.unit)))
            }
            out.append((id, .object(o)))
        }
        for d in m.daily {
            let id = FHIRIdentity.id("observation:\(m.kind):\(d.day)")
            var o = head(id, c)
            o.append(("effectivePeriod", dayPeriod(d.day)))
            if bp {
                var parts = [component(systolic, d.mean)]
                if let s = d.second { parts.append(component(diastolic, s.mean)) }
                o.append(("component", .array(parts)))
            } else {
                func statistic(_ code: String, _ display: String, _ v: Double) -> JSONValue {
                    .object([("code", FHIRJSON.concept([FHIRJSON.coding(Self.statisticSystem, code, display)])),
                             ("valueQuantity", FHIRJSON.quantity(v * c.factor, ucum: c.unit))])
                }
                o.append(("valueQuantity", FHIRJSON.quantity(d.mean * c.factor, ucum: c.unit)))
                o.append(("component", .array([statistic("minimum", "Minimum", d.low), statistic("maximum", "Maximum", d.high)])))
            }
            o.append(("note", .array([.object([("text", .string("Mean of \(d.count) readings that day."))])])))
            out.append((id, .object(o)))
        }
        return out
    }

    /// Steps per day and sleep (asleep, in bed) per night, each with its period.
    func activityObservations() -> [(SampleID, JSONValue)] {
        guard let a = report.activity else { return [] }
        var out: [(SampleID, JSONValue)] = []
        func add(_ name: String, _ c: FHIRMapping.Concept, _ day: ActivityDay, _ value: Double, _ period: JSONValue) {
            let id = FHIRIdentity.id("observation:\(name):\(day.day)")
            var o = head(id, c)
            o.append(("effectivePeriod", period))
            o.append(("valueQuantity", FHIRJSON.quantity(value * c.factor, ucum: c.unit, unitText: c.unit == "{steps}" ? "steps" : nil)))
            out.append((id, .object(o)))
        }
        for d in a.days {
            if let s = d.steps { add("stepsPerDay", FHIRMapping.stepsPerDay, d, s, dayPeriod(d.day)) }
            let night = d.night.map { FHIRJSON.period(LocalDay.timestamp($0.lowerBound, in: zone), LocalDay.timestamp($0.upperBound, in: zone)) }
                ?? dayPeriod(d.day)
            if let m = d.asleepMinutes { add("sleepPerNight", FHIRMapping.sleepPerNight, d, m, night) }
            if let m = d.inBedMinutes { add("inBedPerNight", FHIRMapping.inBedPerNight, d, m, night) }
        }
        return out
    }

    /// A symptom entry, by its own id.
    func symptomObservation(_ e: SymptomEntry) -> JSONValue {
        FHIRObservation.symptom(id: e.id, name: e.symptom, category: e.category, severity: e.severity, at: e.at,
                                relievedBy: e.relievedBy, aggravatedBy: e.aggravatedBy, note: e.note, subject: subject)
    }

    /// A medication of the journal over the period, with the doses logged and its adherence.
    func medicationStatement(_ m: MedicationFigures) -> (SampleID, JSONValue) {
        let id = FHIRIdentity.id("medication:\(patientKey):\(m.id)")
        var o: [(String, JSONValue)] = [
            ("resourceType", .string("MedicationStatement")), ("id", .string(id.description)),
        ]
        var ext: [JSONValue] = [.object([("url", .string("taken")), ("valueInteger", .number(Double(m.taken)))])]
        if let a = m.adherence {
            for (k, v) in [("due", a.due), ("onTime", a.onTime), ("late", a.late), ("missed", a.missed)] {
                ext.append(.object([("url", .string(k)), ("valueInteger", .number(Double(v)))]))
            }
        }
        o.append(("extension", .array([.object([("url", .string(Self.adherenceExtension)), ("extension", .array(ext))])])))
        o += [("status", .string("active")), ("medicationCodeableConcept", FHIRJSON.concept([], text: m.name)),
              ("subject", subject.json), ("effectivePeriod", .object([("start", .string(report.from.description)),
                                                                      ("end", .string(report.to.description))])),
              ("dateAsserted", FHIRJSON.dateTime(report.made)), ("informationSource", FHIRJSON.reference(patientID))]
        var notes = ["\(m.taken) dose\(m.taken == 1 ? "" : "s") logged in the period" + adherenceText(m) + "."]
        if !m.prescriber.isEmpty { notes.append("Prescribed by " + m.prescriber + ".") }
        o.append(("note", .array(notes.map { .object([("text", .string($0))]) })))
        let dosage = [m.dose, m.directions].filter { !$0.isEmpty }.joined(separator: ", ")
        if !dosage.isEmpty { o.append(("dosage", .array([.object([("text", .string(dosage))])]))) }
        return (id, .object(o))
    }

    /// `; 40 due: 35 on time, 3 late, 2 missed`, or "" without reminders.
    func adherenceText(_ m: MedicationFigures) -> String {
        guard let a = m.adherence else { return "" }
        return "; \(a.due) due by its reminders: \(a.onTime) on time, \(a.late) late, \(a.missed) missed"
    }
}

extension VisitReports {
    /// The FHIR document of `from`–`to` made at `now` (`FHIRDocument`); `patientKey` names the
    /// person in the ids (`Configuration.fhirPatientKey`).
    public func fhirDocument(from: CivilDate, to: CivilDate, now: Timestamp, patientKey: String) throws -> FHIRDocument {
        let report = try report(from: from, to: to, now: now)
        let others = try measurementFigures(from: from, to: to, kinds: Self.otherVitalKinds)
        return FHIRDocument(report: report, otherVitals: others, patientKey: patientKey, zone: zone)
    }
}
