import Testing
@testable import HealthExport

@Suite("Format detection for Health Auto Export and its neighbours")
struct AutoExportFormatTests {
    func detect(_ text: String, name: String = "export") -> ExportFormat? {
        ExportFormat.detect(head: Array(text.utf8), name: name)
    }

    @Test(arguments: [
        #"{"data":{"metrics":[{"name":"step_count"}]}}"#,
        "{\n  \"data\" : {\n    \"metrics\" : [\n",          // iOS pretty-printer spacing
        "\u{FEFF}{ \"data\": { \"workouts\": [] } }",
        #"{"data": {"stateOfMind": []}}"#,
        #"{"metrics": [], "workouts": []}"#,
    ])
    func autoExportJSONIsRecognized(_ text: String) {
        #expect(detect(text) == .autoExportJSON)
    }

    @Test(arguments: [
        #"{"samples": [{"type": "heartRate", "value": 60, "startDate": "2026-01-01T10:00:00Z"}]}"#,
        #"{"type":"heartRate","value":60,"startDate":"2026-01-01T10:00:00Z","metadata":{"metrics":"x","workouts":"y"}}"# + "\n{\"type\":\"stepCount\"}",
        #"[{"type": "stepCount"}]"#,
        #"{"data": [1, 2]}"#,
    ])
    func nativeJSONStaysNative(_ text: String) {
        #expect(detect(text) == .nativeJSON)
    }

    @Test(arguments: [
        ("Date/Time,Active Energy (kJ),Step Count (count)\n", ExportFormat.autoExportCSV),
        ("Date,Step Count (count)\n", .autoExportCSV),
        ("\"Date\",\"Step Count (count)\"\r\n", .autoExportCSV),
        ("Workout Type,Start,End,Duration\n", .autoExportCSV),
        ("type,value,unit,start,end,source\n", .csv),
        ("value,type,start\n", .csv),
        ("\"Type\",\"Value\",\"Start\"\n", .csv),
    ])
    func csvHeadersAreRecognized(_ text: String, _ format: ExportFormat) {
        #expect(detect(text) == format)
    }

    @Test func somethingElseIsNotRecognized() {
        #expect(detect("hello,world\n1,2\n") == nil)
    }
}
