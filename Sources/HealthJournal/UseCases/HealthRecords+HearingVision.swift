import HealthSpoolCore
import HealthSpoolStore

/// The hearing tests (stored `audiogram` samples) and vision prescriptions (stored
/// `visionPrescription` samples) an Apple Health export brought, newest first, as the records
/// page (`/records`) and `healthspool records` show them: an audiogram as its thresholds per
/// frequency and ear, a prescription as each eye's lens, one row per quantity.
extension HealthRecords {
    /// One hearing test: the quietest tone heard at each frequency, per ear, in dB HL.
    public struct Audiogram: Sendable {
        /// One frequency tested; an ear not tested there is nil.
        public struct Point: Sendable {
            public var frequencyHz: Double
            public var left: Double?
            public var right: Double?

            /// `250 Hz`, `1 kHz`, `1.5 kHz`.
            public var frequencyText: String {
                frequencyHz >= 1000 ? HealthRecords.plain(frequencyHz / 1000) + " kHz" : HealthRecords.plain(frequencyHz) + " Hz"
            }
        }

        public var date: Timestamp
        /// The app that ran the test (`Mimi Hearing`).
        public var source: String
        /// In the order written (by frequency in a real export).
        public var points: [Point]
    }

    /// One prescription for glasses or contact lenses.
    public struct Prescription: Sendable {
        /// One quantity for both eyes, as a table row: `Sphere`, `-1.25 D`, `-1.5 D`.
        public struct Row: Sendable {
            /// The attribute's name as the export writes it (`sphere`).
            public var name: String
            /// In plain words (`Sphere`, `Distance PD`).
            public var label: String
            /// The value with its unit (`-1.25 D`, `90°`); nil when that eye has none.
            public var right: String?
            public var left: String?
        }

        public var issued: Timestamp
        /// `YYYY-MM-DD`, when the prescription says.
        public var expires: String?
        /// Contact lenses (else glasses).
        public var contacts: Bool
        public var brand: String?
        public var source: String
        /// Each eye's attributes as written (`sphere` → `-1.25`, `sphereUnit` → `D`).
        public var rightEye: [String: String]
        public var leftEye: [String: String]

        /// `Glasses` or `Contact lenses`.
        public var kindText: String { contacts ? "Contact lenses" : "Glasses" }

        /// The eyes' quantities, the usual ones in a prescription's order, any others after them.
        public var rows: [Row] {
            let names = Set(rightEye.keys).union(leftEye.keys).filter { !$0.hasSuffix("Unit") }
            let known = HealthRecords.lensOrder.map(\.name).filter(names.contains)
            return (known + names.subtracting(known).sorted()).map { n in
                Row(name: n, label: HealthRecords.lensLabel(n), right: Self.cell(rightEye, n), left: Self.cell(leftEye, n))
            }
        }

        static func cell(_ eye: [String: String], _ name: String) -> String? {
            guard let v = eye[name], !v.isEmpty else { return nil }
            switch eye[name + "Unit"] ?? "" {
            case "": return v
            case "deg", "°": return v + "°"
            case let unit: return v + " " + unit
            }
        }
    }

    /// The lens quantities in a prescription's usual order, with their names in plain words
    /// (HealthKit's long names too).
    static let lensOrder: [(name: String, label: String)] = [
        ("sphere", "Sphere"), ("cylinder", "Cylinder"), ("axis", "Axis"), ("add", "Add"), ("addPower", "Add"),
        ("prismAmount", "Prism"), ("prismAngle", "Prism angle"), ("vertex", "Vertex distance"), ("vertexDistance", "Vertex distance"),
        ("farPD", "Distance PD"), ("farPupillaryDistance", "Distance PD"), ("nearPD", "Near PD"), ("nearPupillaryDistance", "Near PD"),
        ("baseCurve", "Base curve"), ("diameter", "Diameter"),
    ]

    /// `name` in plain words: a known one's label, else its camel case as words (`prismBase` → `Prism base`).
    static func lensLabel(_ name: String) -> String {
        if let known = lensOrder.first(where: { $0.name == name }) { return known.label }
        var words = ""
        for c in name { words += c.isUppercase && !words.isEmpty ? " " + c.lowercased() : String(c) }
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// `10`, `12.5`: a number without a needless `.0`.
    static func plain(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// Reads the stored audiograms and prescriptions into `self`, newest first; an audiogram whose
    /// points cannot be read is left out.
    mutating func readHearingAndVision(_ store: SampleStore) throws {
        for s in try store.recordings(type: "audiogram", from: Int64.min / 2, to: Int64.max / 2).reversed() {
            guard let list = (try? JSONParser.parse(s.metadata["points"] ?? ""))?.arrayValue else { continue }
            let points = list.compactMap { p in
                p["frequencyHz"]?.doubleValue.map { Audiogram.Point(frequencyHz: $0, left: p["left"]?.doubleValue, right: p["right"]?.doubleValue) }
            }
            if !points.isEmpty { audiograms.append(Audiogram(date: s.start, source: s.source, points: points)) }
        }
        for s in try store.recordings(type: "visionPrescription", from: Int64.min / 2, to: Int64.max / 2).reversed() {
            func eye(_ key: String) -> [String: String] {
                var out: [String: String] = [:]
                for (k, v) in (try? JSONParser.parse(s.metadata[key] ?? ""))?.objectValue ?? [] {
                    out[k] = v.stringValue ?? v.doubleValue.map(Self.plain)
                }
                return out
            }
            prescriptions.append(Prescription(issued: s.start, expires: s.metadata["expirationDate"].map { String($0.prefix(10)) },
                                              contacts: s.value == 2, brand: s.metadata["brand"], source: s.source,
                                              rightEye: eye("rightEye"), leftEye: eye("leftEye")))
        }
    }

    /// At least one audiogram or prescription is stored.
    public var hasHearingOrVision: Bool { !audiograms.isEmpty || !prescriptions.isEmpty }
}
