import HealthSpoolCore

/// A kind of file an Apple Health export.zip holds beside export.xml that healthspool reads,
/// each known by its content (folder and file names are localized). A further kind slots in
/// as one more case: how it is recognized, how large it may be, how it is read.
enum ExportPart: String, CaseIterable {
    /// `workout-routes/route_*.gpx`.
    case workoutRoute = "workout route"
    /// `electrocardiograms/ecg_*.csv`.
    case electrocardiogram = "ECG"
    /// `clinical-records/*.json`: one FHIR resource a file.
    case clinicalRecord = "clinical record"

    /// The kind whose content `head` (a part's first bytes) starts like, if any.
    static func recognize(_ head: ArraySlice<UInt8>) -> ExportPart? {
        allCases.first { $0.recognizes(head) }
    }

    func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        switch self {
        case .workoutRoute: GPXReader.recognizes(head)
        case .electrocardiogram: ECGReader.recognizes(head)
        case .clinicalRecord: ClinicalRecordReader.recognizes(head)
        }
    }

    /// The largest part of this kind read, uncompressed (a longer one is noted and skipped).
    var maxBytes: Int64 {
        switch self {
        // A 24-hour ride at one point a second is ~30 MB of GPX.
        case .workoutRoute: 256 << 20
        case .electrocardiogram: Int64(ECGReader.maxBytes)
        case .clinicalRecord: Int64(ClinicalRecordReader.maxBytes)
        }
    }
}

/// What export.xml says about its side files, for the parts read after it.
struct ExportPartLinks {
    /// The workout each route file belongs to, by file name (`route_2025-06-07_11.59am.gpx`).
    var routes: [String: RouteLink] = [:]
    /// Route files are named in export.xml at most this many times (noted past it).
    static let maxRoutes = 100_000
    /// What export.xml's `ClinicalRecord` elements say about each resource file, by file name.
    var clinicalRecords: [String: ClinicalRecordLink] = [:]
    /// Clinical records are named at most this many times (noted past it).
    static let maxClinicalRecords = 100_000

    static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
