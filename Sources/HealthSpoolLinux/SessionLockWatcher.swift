import CSystemd
import HealthSpoolCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the session lock watcher reports, in order (its `events`).
public enum SessionLockEvent: Sendable, Equatable {
    /// Connected to logind and following this session (its id and `Type`).
    case following(session: String, type: String)
    /// The session lock cannot be followed (no system bus, no logind, no session to follow, the
    /// connection lost): the lock flag alone, until `following` again.
    case notFollowing(reason: String)
    /// The session is locked (`true`) or unlocked.
    case sessionLocked(Bool)
    /// The machine is about to sleep (`true`) or has resumed.
    case sleeping(Bool)
    /// The first state is known (once, after the events that tell it): following a session with
    /// its lock read, or not following.
    case settled
}

/// Follows the user's logind session lock and suspends on the system bus
/// (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`).
///
/// The sd-bus connection (`LogindConnection`) lives on a thread of the watcher's own, never on
/// Swift's cooperative pool, and every call on it is bounded by the timeout; the thread polls
/// the bus and an eventfd that `stop()` writes. When the bus or logind is missing, or the
/// connection breaks, it reports `notFollowing` and tries again after a backoff (1 s doubling
/// to 60 s); a session coming or going makes it choose the session again. What it sees is an
/// `AsyncSequence` (`events`), which its owner consumes; only changes are reported.
public final class SessionLockWatcher: Sendable {
    /// The system bus address the environment names.
    public static func systemBusAddress(environment: [String: String]) -> String {
        if let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty { return address }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    public let address: String
    /// Every change, in order; `.settled` once the first state is known. Ends at `stop()`.
    public let events: AsyncStream<SessionLockEvent>
    private let thread: SessionLockThread

    /// Starts following. `mode` must not be `off`.
    public init(mode: SessionFollow, environment: [String: String], timeout: Duration = .seconds(2)) throws {
        address = Self.systemBusAddress(environment: environment)
        let micros = UInt64(max(timeout.components.seconds, 0)) * 1_000_000 + UInt64(max(timeout.components.attoseconds, 0) / 1_000_000_000_000)
        let (events, continuation) = AsyncStream.makeStream(of: SessionLockEvent.self)
        self.events = events
        thread = try SessionLockThread(mode: mode, address: address, environmentSession: environment["XDG_SESSION_ID"],
                                       timeoutMicros: max(micros, 1000), events: continuation)
        thread.start()
    }

    deinit { thread.stop() }

    /// Ends the thread and `events`; no event is reported after the ones already queued.
    public func stop() { thread.stop() }
}

/// The watcher's thread and what it shares: the stop flag, an eventfd that wakes the thread's
/// poll, the events' continuation. The `LogindConnection` is a local of `run()`.
final class SessionLockThread: Sendable {
    let mode: SessionFollow
    let address: String
    let environmentSession: String?
    let timeoutMicros: UInt64
    let events: AsyncStream<SessionLockEvent>.Continuation
    private let stopping = Atomic<Bool>(false)
    /// Touched only by the thread: what was last reported, so that only changes are.
    private let reported = Mutex<(following: SessionLockEvent?, locked: Bool?, sleeping: Bool?, first: Bool)>((nil, nil, nil, false))
    private let wakeFD: Int32

    init(mode: SessionFollow, address: String, environmentSession: String?, timeoutMicros: UInt64,
         events: AsyncStream<SessionLockEvent>.Continuation) throws {
        self.mode = mode
        self.address = address
        self.environmentSession = environmentSession
        self.timeoutMicros = timeoutMicros
        self.events = events
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else { throw LogindError.connectionLost(reason: "eventfd: \(String(cString: strerror(errno)))") }
    }

    deinit { close(wakeFD) }

    func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<SessionLockThread>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<SessionLockThread>.fromOpaque(context).release()
            report(.notFollowing(reason: "cannot start the session lock thread: \(String(cString: strerror(rc)))"), settled: true)
            return
        }
        pthread_detach(thread)
    }

    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        events.finish()
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func run() {
        var backoff: Int32 = 1000
        while !isStopping {
            let outcome = follow()
            if isStopping { return }
            switch outcome {
            case .resolveAgain:
                backoff = 1000
                pause(millis: 200)
            case let .failed(reason, afterWorking):
                report(.notFollowing(reason: reason), settled: true)
                if afterWorking { backoff = 1000 }
                pause(millis: backoff)
                backoff = min(backoff * 2, 60_000)
            }
        }
    }

    private enum Outcome {
        /// The sessions changed: choose again at once.
        case resolveAgain
        /// Not following, why, and whether it had been (the backoff starts anew).
        case failed(String, afterWorking: Bool)
    }

    /// Connects, chooses the session, reads its lock and serves its signals until the
    /// connection breaks, the sessions change or the thread is stopped.
    private func follow() -> Outcome {
        let connection: LogindConnection
        let sessionPath: String
        var resolveAgain = false
        var readHint = false
        do {
            connection = try LogindConnection(address: address, timeoutMicros: timeoutMicros)
            guard let user = try connection.userPath(uid: getuid()) else {
                return .failed("logind lists no session of this user (lock.follow_session = \(mode.rawValue))", afterWorking: false)
            }
            let (display, listed) = try connection.userSessions(userPath: user)
            var sessions: [SessionChoice.Session] = []
            for session in listed {
                sessions.append(.init(id: session.id, type: (try? connection.string(session.path, LogindConnection.sessionInterface, "Type")) ?? ""))
            }
            guard let chosen = SessionChoice.choose(mode, environmentSession: environmentSession, display: display, sessions: sessions),
                  let path = listed.first(where: { $0.id == chosen.id })?.path else {
                let what = mode == .auto ? "no graphical logind session of this user" : "no logind session of this user"
                return .failed("\(what) (lock.follow_session = \(mode.rawValue))", afterWorking: false)
            }
            sessionPath = path
            try connection.subscribe(sessionPath: sessionPath) { [self] signal in
                switch signal {
                case .lock: report(.sessionLocked(true))
                case .unlock: report(.sessionLocked(false))
                case let .lockedHint(value?): report(.sessionLocked(value))
                case .lockedHint(nil): readHint = true
                case let .prepareForSleep(value): report(.sleeping(value))
                case .sessionsChanged: resolveAgain = true
                }
            }
            let locked = try connection.bool(sessionPath, LogindConnection.sessionInterface, "LockedHint")
            let sleeping = (try? connection.bool(LogindConnection.managerPath, LogindConnection.managerInterface, "PreparingForSleep")) ?? false
            report(.following(session: chosen.id, type: chosen.type))
            report(.sleeping(sleeping))
            report(.sessionLocked(locked), settled: true)
        } catch {
            return .failed("\(error)", afterWorking: false)
        }
        while !isStopping {
            do {
                try connection.processPending()
                if readHint {
                    readHint = false
                    report(.sessionLocked(try connection.bool(sessionPath, LogindConnection.sessionInterface, "LockedHint")))
                }
            } catch {
                return .failed("\(error)", afterWorking: true)
            }
            if resolveAgain { return .resolveAgain }
            let request = connection.pollRequest
            var fds = [pollfd(fd: request.fd, events: request.events, revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let rc = poll(&fds, 2, request.timeoutMillis)
            if rc < 0 && errno != EINTR { return .failed("poll: \(String(cString: strerror(errno)))", afterWorking: true) }
            drainWake(fds[1].revents)
        }
        return .resolveAgain
    }

    /// Waits `millis`, or less when stopped.
    private func pause(millis: Int32) {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, millis)
        drainWake(fds[0].revents)
    }

    private func drainWake(_ revents: Int16) {
        guard revents & Int16(POLLIN) != 0, !isStopping else { return }
        var count: UInt64 = 0
        _ = read(wakeFD, &count, 8)
    }

    /// Yields `event` when it changes what was last reported; `settled` marks the first state as
    /// known (`.settled` follows, once).
    private func report(_ event: SessionLockEvent, settled: Bool = false) {
        let (send, first) = reported.withLock { last -> (Bool, Bool) in
            var send: Bool
            switch event {
            case .following, .notFollowing:
                send = last.following != event
                last.following = event
                if case .notFollowing = event { last.locked = nil; last.sleeping = nil }
            case let .sessionLocked(value):
                send = last.locked != value
                last.locked = value
            case let .sleeping(value):
                send = last.sleeping != value
                last.sleeping = value
            case .settled:
                send = false
            }
            let first = settled && !last.first
            if settled { last.first = true }
            return (send, first)
        }
        if send { events.yield(event) }
        if first { events.yield(.settled) }
    }
}
