/// One fuzzed entry point: its name on the command line and what it does with an input. A
/// target checks properties, not only "no crash": a property that fails calls `propertyFailed`,
/// which libFuzzer reports as a crash with the input that caused it.
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    static let all: [FuzzTarget] = [
        ZipTarget.target, AppleXMLTarget.target, ExportTarget.target, ExportPartTargets.gpx, ExportPartTargets.ecg,
        ExportPartTargets.clinicalRecord,
        AutoExportTargets.json, AutoExportTargets.csv, NativeTargets.native, NativeTargets.csv,
        ScalarTargets.timestamp, ScalarTargets.decimal, ConfigTarget.target, ControlTarget.target, GatewayTarget.target, HTTPHeadTarget.target,
        WebTarget.target,
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Stops the run: a property did not hold for this input.
func propertyFailed(_ message: @autoclosure () -> String) -> Never {
    fatalError("property failed: " + message())
}
