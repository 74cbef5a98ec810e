import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
import Logging
import Testing
@testable import HealthSpoolWeb

/// `/deletions` (issue 43): what a newer full export showed deleted on the phone, and Put back.
@Suite struct DeletionsRouteTests {
    /// An Apple Health export made at `date` holding heart rates at the minutes of `minutes`.
    static func export(date: String, minutes: [Int]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"\(date)\"/>\n"
        for m in minutes {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let t = "2026-01-01 \(two(8 + m / 60)):\(two(m % 60)):00 +0000"
            xml += " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"\(t)\" endDate=\"\(t)\" value=\"\(60 + m % 30)\"/>\n"
        }
        return xml + "</HealthData>\n"
    }

    /// The home with two full exports imported, the second without the minute 7 reading.
    func imported(_ web: WebFixture) throws {
        let configuration = try web.configuration()
        let importer = DirectImport(store: try .connect(to: configuration), settings: configuration.settings,
                                    controlSocket: configuration.controlSocket, logger: Logger(label: "test"))
        for (name, date, minutes) in [("a.xml", "2026-01-02 09:00:00 +0000", Array(0..<200)),
                                      ("b.xml", "2026-01-09 09:00:00 +0000", Array(0..<200).filter { $0 != 7 })] {
            let path = web.dir + "/" + name
            try FileSystem.writeAtomically(path, Array(Self.export(date: date, minutes: minutes).utf8))
            #expect(importer.importFile(path: path, name: name).outcome == .imported)
        }
    }

    @Test func thePageListsTheDeletionAndPutBackRestoresItOnceWithTheTokensChecked() async throws {
        let web = try WebFixture()
        try imported(web)
        let session = try web.session()
        try await web.app.test(.router) { client in
            #expect(try await client.execute(uri: "/deletions", method: .get).status == .unauthorized)
            let page = try await client.execute(uri: "/deletions", method: .get, headers: WebFixture.headers(session)).text
            #expect(page.contains("<h2 id=\"del-h\">Deleted on the phone</h2>"))
            #expect(page.contains("<td>Heart rate</td>") && page.contains("<td>Deleted</td>"))
            let id = try #require(page.split(separator: "name=\"id\" value=\"").dropFirst().first?.prefix(36))

            try await WebFixture.expectRefused(client, "/deletions/restore", session, "id=\(id)")
            #expect(!(try await client.execute(uri: "/deletions", method: .get, headers: WebFixture.headers(session)).text.contains("<td>Put back</td>")))

            let r = try await WebFixture.post(client, "/deletions/restore", session, "id=\(id)")
            #expect(r.status == .seeOther)
            #expect(web.said(r, session) == "/deletions?ok=Put%20back.%20It%20is%20sent%20again.")
            let after = try await client.execute(uri: "/deletions", method: .get, headers: WebFixture.headers(session)).text
            #expect(after.contains("<td>Put back</td>") && !after.contains("name=\"id\" value=\"\(id)\""))
            let again = try await WebFixture.post(client, "/deletions/restore", session, "")
            #expect(web.said(again, session) == "/deletions?error=Nothing%20to%20put%20back.")
        }
    }
}
