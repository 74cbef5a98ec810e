import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Logging

/// Delivers due reminders: a journal entry (event "reminder") for each, and a desktop
/// notification when a session bus with a notification daemon is there. Without one it says
/// so once and goes on with the journal; it connects again at the next reminder, so
/// notifications resume when a desktop session starts.
///
/// The user's answers come back on `responses`: "Taken" on a medication reminder is a
/// `.doseTaken` (also written to the journal, event "dose") for the caller to record.
/// It knows nothing of how reminders are scheduled: the caller says which one is due.
///
/// It runs on the executor it is given (the journal scheduler's thread in the daemon), and
/// connecting and notifying keep to it: a reminder is shown while the cooperative pool is full.
public actor ReminderDelivery {
    /// What happened to one reminder's notification.
    public enum Outcome: Sendable, Equatable {
        /// Shown, with the notification daemon's id.
        case shown(id: UInt32)
        /// Written to the journal only, for this reason.
        case journalOnly(NotificationError)
    }

    /// What the user did with a reminder's notification.
    public enum Response: Sendable, Equatable {
        /// "Taken" was pressed on a medication reminder.
        case doseTaken(ReminderNotice, at: Timestamp)
        /// Another button (or a click on the notification: "default").
        case action(ReminderNotice, key: String)
        /// The notification went away without an answer (expired, dismissed…).
        case closed(ReminderNotice, reason: NotificationEvent.CloseReason)
    }

    /// The user's answers, in order. Finishes after `close()`. One consumer.
    public nonisolated let responses: AsyncStream<Response>
    private let responseSink: AsyncStream<Response>.Continuation
    private let connect: nonisolated(nonsending) @Sendable () async throws -> DesktopNotifier
    private nonisolated let executor: ThreadExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let logger: Logger
    private let now: @Sendable () -> Timestamp
    private var notifier: DesktopNotifier?
    private var listener: Task<Void, Never>?
    /// Notifications shown and not yet closed, by id; the oldest are forgotten past `postedLimit`.
    private var posted: [(id: UInt32, reminder: ReminderNotice)] = []
    private let postedLimit = 256
    /// The last reason no notification could be shown, so it is logged once, not per reminder.
    private var unavailable: NotificationError?

    /// Delivers to the session bus the environment names (`DesktopNotifier.connect(environment:)`).
    public init(environment: [String: String], logger: Logger, timeout: Duration = .seconds(5),
                now: @escaping @Sendable () -> Timestamp = RealTimeClock.now, executor: ThreadExecutor) {
        self.init(logger: logger, now: now, executor: executor) { try await DesktopNotifier.connect(environment: environment, timeout: timeout) }
    }

    /// Delivers through the notifiers `connect` makes (called again after the bus went away).
    public init(logger: Logger, now: @escaping @Sendable () -> Timestamp, executor: ThreadExecutor,
                connect: nonisolated(nonsending) @escaping @Sendable () async throws -> DesktopNotifier) {
        self.connect = connect
        self.executor = executor
        self.logger = logger
        self.now = now
        (responses, responseSink) = AsyncStream<Response>.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Shows `reminder` on the desktop if it can, and writes its journal entry either way.
    @discardableResult
    public func deliver(_ reminder: ReminderNotice) async -> Outcome {
        let outcome = await show(reminder.notification)
        var metadata: Logger.Metadata = ["event": "reminder", "reminder.name": "\(reminder.name)", "reminder.time": "\(reminder.time)"]
        if let medication = reminder.medication {
            metadata["reminder.medication"] = "\(medication.name)"
            if let dose = medication.dose { metadata["reminder.dose"] = "\(dose)" }
        }
        switch outcome {
        case .shown(let id):
            remember(id, reminder)
            metadata["notification.id"] = "\(id)"
            logger.notice("reminder \(reminder.name) (\(reminder.time)): shown on the desktop", metadata: metadata)
        case .journalOnly(let error):
            metadata["notification"] = "not shown"
            logger.notice("reminder \(reminder.name) (\(reminder.time)): not shown on the desktop (\(error.shortReason))", metadata: metadata)
        }
        return outcome
    }

    /// Shows a notice that is no reminder (a source that went quiet, issue 43) on the desktop
    /// if it can, through the same connection; logged either way.
    @discardableResult
    public func announce(_ request: NotificationRequest, event: String) async -> Outcome {
        let outcome = await show(request)
        switch outcome {
        case .shown(let id):
            logger.notice("\(request.body): shown on the desktop", metadata: ["event": "\(event)", "notification.id": "\(id)"])
        case .journalOnly(let error):
            logger.notice("\(request.body) (not shown on the desktop: \(error.shortReason))", metadata: ["event": "\(event)", "notification": "not shown"])
        }
        return outcome
    }

    /// Closes the session bus connection and finishes `responses`.
    public func close() {
        notifier?.close()
        notifier = nil
        listener = nil
        responseSink.finish()
    }

    /// Posts one notification, connecting (again) when needed; one retry on a new connection
    /// when the old one broke.
    private func show(_ request: NotificationRequest) async -> Outcome {
        for attempt in 0..<2 {
            do {
                let notifier = try await connected()
                let id = try await notifier.notify(request)
                if let was = unavailable {
                    unavailable = nil
                    logger.notice("desktop notifications work again (after: \(was.shortReason))",
                                  metadata: ["event": "notification", "bus.address": "\(notifier.address)"])
                }
                return .shown(id: id)
            } catch {
                let failure = error as? NotificationError ?? .connectionLost(reason: "\(error)")
                if failure.isRetryable && attempt == 0 {
                    drop()
                    continue
                }
                if case .noSessionBus = failure { drop() }
                if unavailable != failure {
                    logger.warning("\(failure)", metadata: ["event": "notification", "notification.error": "\(failure.shortReason)"])
                }
                unavailable = failure
                return .journalOnly(failure)
            }
        }
        return .journalOnly(.closed)
    }

    private func connected() async throws -> DesktopNotifier {
        if let notifier, notifier.isConnected { return notifier }
        drop()
        let made = try await connect()
        notifier = made
        // On this executor too: a "Taken" pressed reaches the scheduler without the pool.
        listener = Task(executorPreference: executor) { [weak self] in
            for await event in made.events { await self?.handle(event) }
        }
        return made
    }

    private func drop() {
        notifier?.close()
        notifier = nil
        listener = nil
    }

    private func remember(_ id: UInt32, _ reminder: ReminderNotice) {
        posted.removeAll { $0.id == id }
        posted.append((id, reminder))
        if posted.count > postedLimit { posted.removeFirst(posted.count - postedLimit) }
    }

    /// One signal from the notification daemon: only the notifications shown here count.
    func handle(_ event: NotificationEvent) {
        guard let index = posted.firstIndex(where: { $0.id == event.id }) else { return }
        let reminder = posted[index].reminder
        switch event {
        case .actionInvoked(_, let key):
            posted.remove(at: index)
            if key == ReminderNotice.takeAction, let medication = reminder.medication {
                let at = now()
                var metadata: Logger.Metadata = ["event": "dose", "reminder.name": "\(reminder.name)",
                                                 "dose.medication": "\(medication.name)", "dose.taken": "\(at.iso8601Local)"]
                if let dose = medication.dose { metadata["dose.amount"] = "\(dose)" }
                logger.notice("dose of \(medication.name) taken at \(at.iso8601Local), from the reminder \(reminder.name)", metadata: metadata)
                responseSink.yield(.doseTaken(reminder, at: at))
            } else {
                responseSink.yield(.action(reminder, key: key))
            }
        case .closed(_, let reason):
            posted.remove(at: index)
            responseSink.yield(.closed(reminder, reason: reason))
        }
    }
}

extension NotificationError {
    /// A few words for a journal field.
    var shortReason: String {
        switch self {
        case .noSessionBus: "no session bus"
        case .noNotificationDaemon: "no notification daemon"
        case .timedOut: "timed out"
        case .connectionLost: "connection lost"
        case .refused(let name, _): "refused: \(name)"
        case .closed: "closed"
        }
    }
}
