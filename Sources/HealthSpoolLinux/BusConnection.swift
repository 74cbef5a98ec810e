import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// One sd-bus connection to a bus (or to a peer: `UserManager`): the only owner of the `sd_bus *` (and of the match
/// slot for the notification signals), both freed in `deinit`.
///
/// Not Sendable, and not meant to be: sd-bus objects are not thread-safe. `DesktopNotifier`
/// makes it, uses it and lets it go on its own thread. Every call that waits (the connection
/// handshake, AddMatch, Notify) is bounded by `timeoutMicros`. Methods throw `NotificationError`.
final class BusConnection {
    let address: String
    let timeoutMicros: UInt64
    let bus: OpaquePointer
    private var slot: OpaquePointer?
    private var onEvent: ((NotificationEvent) -> Void)?

    /// Connects to the bus at `address`: as a bus client (sends Hello when first used), or, with
    /// `busClient: false`, straight to a peer that is no bus (systemd's private socket).
    init(address: String, timeoutMicros: UInt64, busClient: Bool = true) throws {
        self.address = address
        self.timeoutMicros = timeoutMicros
        var made: OpaquePointer?
        var rc = sd_bus_new(&made)
        guard rc >= 0, let made else { throw NotificationError.noSessionBus(address: address, reason: Self.errnoText(rc)) }
        rc = sd_bus_set_address(made, address)
        if rc >= 0 { rc = sd_bus_set_bus_client(made, busClient ? 1 : 0) }
        if rc >= 0 { rc = sd_bus_set_method_call_timeout(made, timeoutMicros) }
        if rc >= 0 { rc = sd_bus_start(made) }
        guard rc >= 0 else {
            sd_bus_unref(made)
            throw NotificationError.noSessionBus(address: address, reason: Self.errnoText(rc))
        }
        bus = made
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// Subscribes to `ActionInvoked` and `NotificationClosed`; `handler` runs inside
    /// `processPending()`, on this connection's thread. This is the first round trip to the
    /// bus: a socket that is not a bus, or a bus that refuses us, fails here.
    func subscribe(_ handler: @escaping (NotificationEvent) -> Void) throws {
        onEvent = handler
        var made: OpaquePointer?
        let rc = sd_bus_match_signal(
            bus, &made, nil, NotificationRequest.objectPath, NotificationRequest.interface, nil,
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
                if let event = BusConnection.decodeSignal(message) { connection.onEvent?(event) }
                return 0
            },
            Unmanaged.passUnretained(self).toOpaque())
        guard rc >= 0 else {
            if rc == -ETIMEDOUT { throw NotificationError.timedOut(seconds: Double(timeoutMicros) / 1e6) }
            throw NotificationError.noSessionBus(address: address, reason: Self.errnoText(rc))
        }
        slot = made
    }

    /// Calls `org.freedesktop.Notifications.Notify` and returns the notification's id.
    func notify(_ request: NotificationRequest) throws -> UInt32 {
        var call: OpaquePointer?
        var rc = sd_bus_message_new_method_call(bus, &call, NotificationRequest.interface, NotificationRequest.objectPath,
                                                NotificationRequest.interface, "Notify")
        guard rc >= 0, let call else { throw failure(rc, nil) }
        defer { sd_bus_message_unref(call) }
        for value in request.arguments {
            rc = Self.append(value, to: call)
            guard rc >= 0 else { throw NotificationError.refused(name: "append", message: "cannot write \(value.signature): \(Self.errnoText(rc))") }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        rc = sd_bus_call(bus, call, timeoutMicros, &error, &reply)
        defer { if let reply { sd_bus_message_unref(reply) } }
        guard rc >= 0, let reply else { throw failure(rc, error) }
        var id: UInt32 = 0
        rc = sd_bus_message_read_basic(reply, Self.type("u"), &id)
        guard rc > 0 else { throw NotificationError.refused(name: "reply", message: "Notify answered without a notification id") }
        return id
    }

    /// The descriptor to poll, the events to poll it for, and how long poll may wait before
    /// `processPending()` is due (-1: no deadline).
    var pollRequest: (fd: Int32, events: Int16, timeoutMillis: Int32) {
        var deadline: UInt64 = 0
        var wait: Int32 = -1
        if sd_bus_get_timeout(bus, &deadline) > 0, deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicros = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            wait = deadline <= nowMicros ? 0 : Int32(min((deadline - nowMicros + 999) / 1000, 60_000))
        }
        return (sd_bus_get_fd(bus), Int16(truncatingIfNeeded: sd_bus_get_events(bus)), wait)
    }

    /// Reads and dispatches whatever has arrived (signals reach the `subscribe` handler);
    /// throws `connectionLost` when the bus went away.
    func processPending() throws {
        while true {
            let rc = sd_bus_process(bus, nil)
            if rc < 0 { throw NotificationError.connectionLost(reason: Self.errnoText(rc)) }
            if rc == 0 { break }
        }
        if sd_bus_is_open(bus) <= 0 { throw NotificationError.connectionLost(reason: "the bus closed the connection") }
    }

    /// A failed call as a `NotificationError`.
    private func failure(_ rc: Int32, _ error: sd_bus_error?) -> NotificationError {
        let name = error?.name.map { String(cString: $0) }
        let message = error?.message.map { String(cString: $0) } ?? Self.errnoText(rc)
        return Self.failure(rc: rc, errorName: name, message: message, address: address, timeoutSeconds: Double(timeoutMicros) / 1e6)
    }

    /// What a failed call means: no notification daemon, a timeout, a lost connection (the bus
    /// went away: `Disconnected`, or an errno with no D-Bus error), or the daemon's refusal.
    static func failure(rc: Int32, errorName name: String?, message: String, address: String, timeoutSeconds: Double) -> NotificationError {
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .noNotificationDaemon(address: address)
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            return .timedOut(seconds: timeoutSeconds)
        case "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NoServer":
            // sd-bus names a connection the peer reset so: the bus is gone, not refusing.
            return .connectionLost(reason: message)
        case let name?:
            return .refused(name: name, message: message)
        case nil:
            if rc == -ETIMEDOUT { return .timedOut(seconds: timeoutSeconds) }
            return .connectionLost(reason: message)
        }
    }

    /// Writes one value into a message being built.
    static func append(_ value: BusValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .byte(var byte): return sd_bus_message_append_basic(message, type("y"), &byte)
        case .int32(var number): return sd_bus_message_append_basic(message, type("i"), &number)
        case .uint32(var number): return sd_bus_message_append_basic(message, type("u"), &number)
        case .string(let text): return text.withCString { sd_bus_message_append_basic(message, type("s"), $0) }
        case .boolean(let flag):
            var value: Int32 = flag ? 1 : 0
            return sd_bus_message_append_basic(message, type("b"), &value)
        case .objectPath(let path): return path.withCString { sd_bus_message_append_basic(message, type("o"), $0) }
        case .bytes(let bytes): return bytes.withUnsafeBytes { sd_bus_message_append_array(message, type("y"), $0.baseAddress, $0.count) }
        case .structure(let members):
            return container(message, "r", members.signature) { members.lazy.map { append($0, to: message) }.first { $0 < 0 } ?? 0 }
        case .array(let element, let items):
            return container(message, "a", element) { items.lazy.map { append($0, to: message) }.first { $0 < 0 } ?? 0 }
        case .dictEntry(let key, let item):
            return container(message, "e", key.signature + item.signature) {
                let rc = append(key, to: message)
                return rc < 0 ? rc : append(item, to: message)
            }
        case .variant(let inner):
            return container(message, "v", inner.signature) { append(inner, to: message) }
        }
    }

    private static func container(_ message: OpaquePointer, _ kind: Unicode.Scalar, _ contents: String, _ body: () -> Int32) -> Int32 {
        var rc = sd_bus_message_open_container(message, type(kind), contents)
        if rc >= 0 { rc = body() }
        return rc < 0 ? rc : sd_bus_message_close_container(message)
    }

    /// `ActionInvoked (u, s)` or `NotificationClosed (u, u)` as an event; nil for anything else.
    static func decodeSignal(_ message: OpaquePointer) -> NotificationEvent? {
        guard let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else { return nil }
        var id: UInt32 = 0
        switch member {
        case "ActionInvoked":
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type("u"), &id) > 0,
                  sd_bus_message_read_basic(message, type("s"), &key) > 0, let key else { return nil }
            return .actionInvoked(id: id, action: String(cString: key))
        case "NotificationClosed":
            var reason: UInt32 = 0
            guard sd_bus_message_read_basic(message, type("u"), &id) > 0,
                  sd_bus_message_read_basic(message, type("u"), &reason) > 0 else { return nil }
            return .closed(id: id, reason: .init(code: reason))
        default:
            return nil
        }
    }

    static func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }

    static func errnoText(_ rc: Int32) -> String { String(cString: strerror(-rc)) }
}
