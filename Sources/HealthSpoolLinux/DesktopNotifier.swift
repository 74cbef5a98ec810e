import CSystemd
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Desktop notifications through `org.freedesktop.Notifications` on the user's session bus,
/// and the notification daemon's answers (`events`).
///
/// The sd-bus connection (`BusConnection`) lives on a thread of the notifier's own: it is
/// opened, used and freed there, so no blocking sd-bus call ever runs on a Swift cooperative
/// thread, and every one is bounded by the timeout given to `connect`. `connect` and `notify`
/// run on their caller's executor (`nonisolated(nonsending)`) and are resumed from that thread:
/// a caller on a `ThreadExecutor` never waits for the cooperative pool. `close()` (or dropping
/// the notifier) ends the thread, which frees the connection and finishes `events`.
public final class DesktopNotifier: Sendable {
    /// The session bus address this notifier is connected to.
    public let address: String
    /// `ActionInvoked` and `NotificationClosed` as they arrive, for every notification on the
    /// bus (compare `id` with what `notify` returned). Finishes when the notifier is closed or
    /// the connection is lost. One consumer.
    public let events: AsyncStream<NotificationEvent>
    private let thread: NotifierThread

    private init(address: String, events: AsyncStream<NotificationEvent>, thread: NotifierThread) {
        self.address = address
        self.events = events
        self.thread = thread
    }

    deinit { thread.stop() }

    /// Connects to the session bus the environment names (`DBUS_SESSION_BUS_ADDRESS`, or
    /// `$XDG_RUNTIME_DIR/bus`) and subscribes to the notification signals.
    /// Throws `NotificationError.noSessionBus` when there is none or it does not answer.
    public nonisolated(nonsending) static func connect(environment: [String: String], timeout: Duration = .seconds(5)) async throws -> DesktopNotifier {
        guard let address = SessionBusAddress.resolve(environment: environment) else {
            throw NotificationError.noSessionBus(address: "(none)", reason: "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        }
        return try await connect(address: address, timeout: timeout)
    }

    /// Connects to the bus at `address` (`unix:path=…`) and subscribes to the notification signals.
    public nonisolated(nonsending) static func connect(address: String, timeout: Duration = .seconds(5)) async throws -> DesktopNotifier {
        let (events, sink) = AsyncStream<NotificationEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let micros = UInt64(max(timeout.components.seconds, 0)) * 1_000_000 + UInt64(max(timeout.components.attoseconds, 0) / 1_000_000_000_000)
        let thread = try NotifierThread(address: address, timeoutMicros: max(micros, 1000), sink: sink)
        try await withCheckedThrowingContinuation { (ready: CheckedContinuation<Void, any Error>) in
            thread.start(ready: ready)
        }
        return DesktopNotifier(address: address, events: events, thread: thread)
    }

    /// Shows a notification and returns its id. Throws `NotificationError`.
    public nonisolated(nonsending) func notify(_ request: NotificationRequest) async throws -> UInt32 {
        try await thread.submit(request)
    }

    /// Shows a notification from healthspool (`category` "reminder", `desktop-entry`
    /// "healthspool") with buttons `actions` (key, label) and returns its id.
    public nonisolated(nonsending) func notify(summary: String, body: String, actions: [NotificationRequest.Action] = [],
                       urgency: NotificationRequest.Urgency = .normal, appName: String = "healthspool") async throws -> UInt32 {
        try await notify(NotificationRequest(summary: summary, body: body, actions: actions, urgency: urgency, appName: appName))
    }

    /// Whether the connection still works (false once closed or lost).
    public var isConnected: Bool { thread.isRunning }

    /// Closes the connection: calls not yet made fail with `NotificationError.closed`, `events` finishes.
    public func close() { thread.stop() }
}

/// The notifier's thread and what it shares with other threads: queued Notify calls and the
/// stop flag behind a mutex, an eventfd that wakes the thread's poll. The `BusConnection` is a
/// local of `run()`, never shared.
final class NotifierThread: Sendable {
    private struct Call: Sendable {
        let request: NotificationRequest
        let reply: CheckedContinuation<UInt32, any Error>
    }

    private struct State {
        var calls: [Call] = []
        var stopping = false
        var ready: CheckedContinuation<Void, any Error>?
        /// Set when the thread has ended (or never started): new calls fail with it.
        var ended: NotificationError?
    }

    let address: String
    let timeoutMicros: UInt64
    private let sink: AsyncStream<NotificationEvent>.Continuation
    private let state = Mutex(State())
    private let wakeFD: Int32

    init(address: String, timeoutMicros: UInt64, sink: AsyncStream<NotificationEvent>.Continuation) throws {
        self.address = address
        self.timeoutMicros = timeoutMicros
        self.sink = sink
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else {
            sink.finish()
            throw NotificationError.connectionLost(reason: "eventfd: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(wakeFD) }

    var isRunning: Bool { state.withLock { $0.ended == nil && !$0.stopping } }

    /// Starts the thread; `ready` is resumed once connected and subscribed, or with the error.
    func start(ready: CheckedContinuation<Void, any Error>) {
        state.withLock { $0.ready = ready }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<NotifierThread>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<NotifierThread>.fromOpaque(context).release()
            finish(.connectionLost(reason: "cannot start the notifier thread: \(String(cString: strerror(rc)))"))
            return
        }
        pthread_detach(thread)
    }

    /// Queues a Notify call for the thread and waits for its answer.
    nonisolated(nonsending) func submit(_ request: NotificationRequest) async throws -> UInt32 {
        try await withCheckedThrowingContinuation { reply in
            let refusal: NotificationError? = state.withLock { state in
                if let ended = state.ended { return ended }
                if state.stopping { return .closed }
                state.calls.append(Call(request: request, reply: reply))
                return nil
            }
            if let refusal { reply.resume(throwing: refusal) } else { wake() }
        }
    }

    /// Asks the thread to end after the call it is making.
    func stop() {
        state.withLock { $0.stopping = true }
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    private func run() {
        let connection: BusConnection
        do {
            connection = try BusConnection(address: address, timeoutMicros: timeoutMicros)
            let sink = self.sink
            try connection.subscribe { sink.yield($0) }
        } catch {
            finish(error as? NotificationError ?? .connectionLost(reason: "\(error)"))
            return
        }
        state.withLock { state in
            state.ready?.resume()
            state.ready = nil
        }
        finish(serve(connection))
    }

    /// Makes the queued calls and dispatches signals until stopped or the connection breaks;
    /// returns why it ended.
    private func serve(_ connection: BusConnection) -> NotificationError {
        while true {
            let (calls, stopping) = state.withLock { state in
                defer { state.calls = [] }
                return (state.calls, state.stopping)
            }
            if stopping {
                for call in calls { call.reply.resume(throwing: NotificationError.closed) }
                return .closed
            }
            for call in calls {
                do { call.reply.resume(returning: try connection.notify(call.request)) } catch { call.reply.resume(throwing: error) }
            }
            do { try connection.processPending() } catch { return error as? NotificationError ?? .connectionLost(reason: "\(error)") }
            let request = connection.pollRequest
            var fds = [pollfd(fd: request.fd, events: request.events, revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let rc = poll(&fds, 2, request.timeoutMillis)
            if rc < 0 && errno != EINTR { return .connectionLost(reason: "poll: \(String(cString: strerror(errno)))") }
            if fds[1].revents & Int16(POLLIN) != 0 {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
            }
        }
    }

    /// The thread has ended (or never connected): fail what waits, finish the events.
    private func finish(_ reason: NotificationError) {
        let (calls, ready) = state.withLock { state in
            defer { state.calls = []; state.ready = nil }
            state.ended = reason
            return (state.calls, state.ready)
        }
        ready?.resume(throwing: reason)
        for call in calls { call.reply.resume(throwing: reason) }
        sink.finish()
    }
}
