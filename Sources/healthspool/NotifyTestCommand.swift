import ArgumentParser
import Dispatch
import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `healthspool notify-test`: one reminder through the daemon's delivery code, to check that
/// the desktop shows healthspool's notifications.
struct NotifyTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-test",
        abstract: "Diagnostic: show one reminder notification on the desktop, as the daemon would.",
        discussion: """
            Sends one notification through org.freedesktop.Notifications on your session bus \
            (DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus) and writes the reminder's journal entry, \
            exactly as the daemon does for a due reminder. Without a session bus or a notification daemon it \
            says so and exits 0: the daemon then writes reminders to the journal only. With --wait-action it \
            waits for your answer and prints it ("Taken" on a medication reminder is logged as a dose).
            """
    )

    @Argument(help: "The reminder's name, shown as the notification's title.")
    var text = "healthspool notification test"
    @Option(help: "Make it a medication reminder with a \"Taken\" button.")
    var medication: String?
    @Option(help: "The dose shown with --medication.")
    var dose: String?
    @Flag(help: "Wait for the answer (a button, or the notification closing) and print it.")
    var waitAction = false
    @Option(help: "Seconds --wait-action waits before giving up (exit status 1).")
    var timeout: Int = 60

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout takes a number of seconds above 0") }
        if dose != nil && medication == nil { throw ValidationError("--dose needs --medication") }
    }

    func run() throws {
        let logger = makeLogger("healthspool")
        let now = RealTimeClock.now()
        let reminder = ReminderNotice(name: text, time: String(now.iso8601Local.dropFirst(11).prefix(5)),
                                   medication: medication.map { ReminderNotice.Medication(name: $0, dose: dose) })
        let delivery = ReminderDelivery(environment: ProcessEnvironment.current, logger: logger, executor: try ThreadExecutor(name: "notify"))
        let seconds = timeout
        let wait = waitAction
        let code = runBlocking { () async -> Int32 in
            let outcome = await delivery.deliver(reminder)
            guard case .shown(let id) = outcome else {
                writeOut("not shown: reminders go to the journal only until a session bus and a notification daemon are there\n")
                return 0
            }
            writeOut("shown: notification \(id)\n")
            guard wait else { return 0 }
            let answer = await firstResponse(delivery, within: seconds)
            await delivery.close()
            switch answer {
            case .doseTaken(let r, let at)?: writeOut("action: \(ReminderNotice.takeAction) (dose of \(r.medication?.name ?? "") taken at \(at.iso8601Local))\n")
            case .action(_, let key)?: writeOut("action: \(key)\n")
            case .closed(_, let reason)?: writeOut("closed: \(reason)\n")
            case nil:
                writeOut("no answer within \(seconds) s\n")
                return 1
            }
            return 0
        }
        if code != 0 { throw ExitCode(code) }
    }
}

/// The first of `delivery`'s responses, or nil after `seconds`.
private func firstResponse(_ delivery: ReminderDelivery, within seconds: Int) async -> ReminderDelivery.Response? {
    await withTaskGroup(of: ReminderDelivery.Response?.self) { group in
        group.addTask {
            for await response in delivery.responses { return response }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        await delivery.close()
        return first
    }
}

/// Writes to stdout at once (a test reads the notification id while the command waits).
private func writeOut(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 { return }
        offset += n
    }
}

/// Runs `work` on the cooperative pool and waits for it on this (the main, not a cooperative) thread.
private func runBlocking(_ work: @escaping @Sendable () async -> Int32) -> Int32 {
    let result = Mutex<Int32>(0)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 }
}
