import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Logging

/// The health journal's clockwork in the daemon: fires due reminders (desktop notification and
/// journal line, through `ReminderDelivery`), logs a dose when "Taken" is pressed, and scores
/// each day that ended at local midnight (and at start for a midnight the daemon missed).
///
/// It wakes at the earlier of the next reminder and the next local midnight (`JournalPlan`),
/// and at least every `recheck` to look again: a change of time zone (`TZ` or /etc/localtime),
/// a suspend or a jump of the wall clock, or a reminder the CLI or the web interface added is
/// then planned anew. Wall time comes from `now`; it waits on `timer`.
///
/// An actor on a thread of its own (`ThreadExecutor`), shared with its `ReminderDelivery`: its
/// store work (SQLite, blocking) runs there, never on the cooperative pool, and its sleeps end
/// there, so a reminder rings at its minute while the pool is full of blocking work. Scores and doses put
/// in line for the gateway are told to `announce`: the daemon's sync coordinator (the pool's `journalWrites`)
/// in the daemon, the control socket otherwise.
public actor JournalScheduler {
    let configuration: Configuration
    let logger: Logger
    let timer: any WakeTimer
    let now: @Sendable () -> Timestamp
    let recheck: Duration
    let delivery: ReminderDelivery
    /// Told the types its writes put in line (the scores, a dose taken from a reminder).
    let announce: @Sendable ([String]) -> Void
    private nonisolated let executor: ThreadExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var journal: HealthJournal?
    private var zone: ZoneRules?
    /// How long after local midnight this night's scores are computed and sent: drawn at random
    /// in the spread window (`sync.spread_seconds`) at start and after each scoring.
    private var scoreDelayMillis: Int64

    /// The store state key of the last day scored (`YYYY-MM-DD`).
    static var scoredThroughKey: String { "journal.scored_through" }

    /// A scheduler running on `executor`, sleeping on `timer` (the executor itself when nil).
    public init(configuration: Configuration, logger: Logger, executor: ThreadExecutor, timer: (any WakeTimer)? = nil,
                recheck: Duration = .seconds(15), now: @escaping @Sendable () -> Timestamp = RealTimeClock.now,
                announce: (@Sendable ([String]) -> Void)? = nil) {
        self.configuration = configuration
        let socket = configuration.controlSocket
        self.announce = announce ?? { ControlClient.observe($0, socket: socket) }
        self.logger = logger
        self.executor = executor
        self.timer = timer ?? executor
        self.now = now
        self.recheck = recheck
        scoreDelayMillis = Self.drawScoreDelay(spreadSeconds: configuration.settings.spreadSeconds)
        delivery = ReminderDelivery(environment: configuration.environment, logger: logger, now: now, executor: executor)
    }

    /// Runs until its task is cancelled, with its executor as the task's executor: what it awaits
    /// outside the actor (the notifier, a continuation resumed from another thread) comes back
    /// to its thread, not to the cooperative pool.
    public func run() async {
        await withTaskExecutorPreference(executor) {
            let answers = Task(executorPreference: executor) { [self] in await self.logDoses(from: delivery.responses) }
            while !Task.isCancelled {
                let (notices, wake) = step()
                for notice in notices { await delivery.deliver(notice) }
                if let quiet = quietSources() { await delivery.announce(quiet, event: "quiet_source") }
                let left = Duration.milliseconds(max(wake - now().millis, 20))
                do { try await timer.sleep(for: min(left, recheck), isolation: self) } catch { break }
            }
            await delivery.close()
            answers.cancel()
        }
    }

    /// Logs the dose of each "Taken" pressed on a reminder, until `responses` ends.
    private func logDoses(from responses: AsyncStream<ReminderDelivery.Response>) async {
        for await response in responses {
            if case let .doseTaken(notice, at) = response, let id = notice.reminderID {
                logDose(reminder: id, at: at)
            }
        }
    }

    /// One wake-up: re-reads the zone, fires what is due, scores the days that ended. Returns
    /// the reminders to show and the next planned instant.
    func step() -> ([ReminderNotice], Int64) {
        let at = now()
        let fallback = at.millis + 60_000
        do {
            let journal = try currentJournal()
            let firings = try journal.reminderFirings()
            let scored = try journal.store.state(Self.scoredThroughKey).flatMap(CivilDate.init(parsing:))
            let plan = JournalPlan.plan(now: at.millis, zone: journal.zone, reminders: firings.reminders,
                                        lastFired: firings.lastFired, scoredThrough: scored, scoreDelayMillis: scoreDelayMillis)
            try journal.recordFired(plan.reminders.due.map(\.reminder.id), at: at)
            let notices = try plan.reminders.due.map { try journal.notice(for: $0) }
            if let last = plan.scoreDays.last {
                score(plan.scoreDays, with: journal)
                try journal.store.setState(Self.scoredThroughKey, last.description)
                scoreDelayMillis = Self.drawScoreDelay(spreadSeconds: configuration.settings.spreadSeconds)
            }
            logger.debug("journal: \(notices.count) reminder(s) due; next wake \(LocalDay.timestamp(plan.wake, in: journal.zone).iso8601Local)",
                         metadata: ["event": "journal"])
            return (notices, plan.wake)
        } catch {
            logger.error("journal scheduler: \(error); trying again in a minute", metadata: ["event": "journal"])
            return ([], fallback)
        }
    }

    /// The notification for the sources that went quiet since the last look (issue 43), each
    /// told once per quiet spell (`SourceFreshness.notifiedMillis`; an arrival clears it).
    func quietSources() -> NotificationRequest? {
        let at = now()
        do {
            let journal = try currentJournal()
            let store = journal.store
            let fresh = QuietSources.quiet(try store.freshness(), now: at.millis).filter { $0.notifiedMillis == nil }
            guard !fresh.isEmpty else { return nil }
            for f in fresh { try store.markNotified(f, at: at) }
            let lines = fresh.map { QuietSources.line($0, zone: journal.zone) }
            return NotificationRequest(summary: fresh.count == 1 ? "Health data stopped arriving" : "\(fresh.count) kinds of health data stopped arriving",
                                       body: NotificationRequest.escapeMarkup(lines.joined(separator: ". ") + "."), category: "device")
        } catch {
            logger.warning("could not look for sources that went quiet: \(error)", metadata: ["event": "quiet_source"])
            return nil
        }
    }

    /// A delay in [0, the spread window), at random (full jitter on the midnight send).
    static func drawScoreDelay(spreadSeconds: Int) -> Int64 {
        spreadSeconds <= 0 ? 0 : Int64.random(in: 0..<Int64(spreadSeconds) * 1000)
    }

    /// The journal in the zone in effect now, opened again when the zone changed.
    private func currentJournal() throws -> HealthJournal {
        let current = try ZoneInfo.current(environment: configuration.environment)
        if let journal, current == zone { return journal }
        if let zone {
            logger.notice("time zone changed from \(zone.name) to \(current.name): reminders and midnight planned anew",
                          metadata: ["event": "journal", "zone": "\(current.name)"])
        }
        let opened = HealthJournal(store: try SampleStore.connect(to: configuration), zone: current, configuration: configuration)
        opened.onQueued = announce
        (journal, zone) = (opened, current)
        return opened
    }

    /// Computes, stores and queues the scores of ended days (those already stored are kept).
    private func score(_ days: [CivilDate], with journal: HealthJournal) {
        let scoring = HealthJournal(store: journal.store, zone: journal.zone, configuration: configuration, clock: now)
        scoring.onQueued = announce
        for day in days {
            do {
                let scores = try scoring.scores(for: day)
                logger.info("journal: scores of \(day) stored (\(scores.count) categories and symptoms)",
                            metadata: ["event": "journal", "day": "\(day)"])
            } catch {
                logger.error("journal: cannot score \(day): \(error); it is scored when viewed",
                             metadata: ["event": "journal", "day": "\(day)"])
            }
        }
    }

    /// Logs the dose a reminder's "Taken" stands for.
    private func logDose(reminder id: Int64, at: Timestamp) {
        do {
            let (dose, medication) = try currentJournal().takeDose(fromReminder: id, at: at)
            logger.info("journal: dose \(dose.id) of \(medication.name) logged from reminder \(id)",
                        metadata: ["event": "dose", "reminder.id": "\(id)"])
        } catch {
            logger.error("journal: the dose from reminder \(id) was not logged: \(error); log it with healthspool med take",
                         metadata: ["event": "dose", "reminder.id": "\(id)"])
        }
    }
}
