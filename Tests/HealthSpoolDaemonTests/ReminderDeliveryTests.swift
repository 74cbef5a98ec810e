import Foundation
@testable import HealthJournal
import Logging
import Synchronization
import Testing
import HealthSpoolCore
@testable import HealthSpoolDaemon
import HealthSpoolLinux

/// Log records kept for the test to read.
final class RecordedLog: Sendable {
    let entries = Mutex<[(level: Logger.Level, message: String, event: String?)]>([])
    var logger: Logger {
        Logger(label: "test") { _ in RecordingHandler(log: self) }
    }
    func count(_ level: Logger.Level, event: String) -> Int {
        entries.withLock { $0.filter { $0.level == level && $0.event == event }.count }
    }
}

struct RecordingHandler: LogHandler {
    let log: RecordedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        log.entries.withLock { $0.append((level, "\(message)", metadata?["event"].map { "\($0)" })) }
    }
}

/// ReminderDelivery against a real private session bus (dbus-daemon, and python3-dbusmock's
/// notification daemon): no bus at first, then the bus appears, then the user presses Taken.
@Suite(.serialized) struct ReminderDeliveryTests {
    static let pills = ReminderNotice(name: "Morning pills", time: "08:00", medication: .init(name: "Ibuprofen", dose: "200 mg"))
    static let fixedNow = Timestamp(millis: 1_767_261_600_000)

    @Test func withoutABusItLogsOnceAndGoesOnThenReconnectsWhenTheBusAppears() async throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let log = RecordedLog()
        let delivery = ReminderDelivery(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], logger: log.logger,
                                        timeout: .seconds(3), now: { Self.fixedNow }, executor: try ThreadExecutor(name: "test"))

        for _ in 0..<3 {
            let outcome = await delivery.deliver(Self.pills)
            guard case .journalOnly(.noSessionBus(let address, _)) = outcome else { Issue.record("\(outcome)"); return }
            #expect(address == bus.address)
        }
        #expect(log.count(.warning, event: "notification") == 1)
        #expect(log.count(.notice, event: "reminder") == 3)

        try bus.startBus()
        let noDaemon = await delivery.deliver(Self.pills)
        #expect(noDaemon == .journalOnly(.noNotificationDaemon(address: bus.address)))
        #expect(log.count(.warning, event: "notification") == 2)

        try bus.startNotificationDaemon()
        let shown = await delivery.deliver(Self.pills)
        guard case .shown(let id) = shown else { Issue.record("\(shown)"); return }
        #expect(log.count(.notice, event: "notification") == 1) // "desktop notifications work again"
        #expect(log.count(.notice, event: "reminder") == 5)

        try bus.emitActionInvoked(id: id + 1000, action: "take") // someone else's notification: ignored
        try bus.emitActionInvoked(id: id, action: "take")
        var responses = delivery.responses.makeAsyncIterator()
        let response = await responses.next()
        #expect(response == .doseTaken(Self.pills, at: Self.fixedNow))
        #expect(log.count(.notice, event: "dose") == 1)
        await delivery.close()
    }

    @Test func theBusGoingAwayIsSeenAndANewOneIsUsed() async throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        try bus.startBus()
        try bus.startNotificationDaemon()
        let log = RecordedLog()
        let delivery = ReminderDelivery(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], logger: log.logger,
                                        timeout: .seconds(3), now: { Self.fixedNow }, executor: try ThreadExecutor(name: "test"))
        guard case .shown = await delivery.deliver(Self.pills) else { Issue.record("not shown"); return }

        bus.stopProcesses()
        let gone = await delivery.deliver(Self.pills)
        guard case .journalOnly(.noSessionBus) = gone else { Issue.record("\(gone)"); return }

        // A new session on the same socket path.
        try bus.startBus()
        try bus.startNotificationDaemon()
        let back = await delivery.deliver(Self.pills)
        guard case .shown = back else { Issue.record("\(back)"); return }
        await delivery.close()
    }
}
