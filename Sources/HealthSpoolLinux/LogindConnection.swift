import CSystemd
import HealthSpoolCore
#if canImport(Glibc)
import Glibc
#endif

/// Why the session lock cannot be followed (the daemon then goes by the lock flag alone).
public enum LogindError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No system bus at `address`, or it refused us.
    case noSystemBus(address: String, reason: String)
    /// The system bus has no `org.freedesktop.login1` (a container, a server without logind).
    case noLogind(address: String)
    /// logind answered a call with an error, or not in time.
    case call(String, reason: String)
    /// The connection broke after it worked.
    case connectionLost(reason: String)

    public var description: String {
        switch self {
        case let .noSystemBus(address, reason): "no D-Bus system bus at \(address) (\(reason))"
        case let .noLogind(address): "no logind (org.freedesktop.login1) on the system bus at \(address)"
        case let .call(name, reason): "logind's \(name) failed: \(reason)"
        case let .connectionLost(reason): "the system bus connection was lost (\(reason))"
        }
    }
}

/// One sd-bus connection to the system bus, speaking to logind: the only owner of the
/// `sd_bus *` and of its match slots, freed in `deinit`. Not Sendable: `SessionLockWatcher`
/// makes it, uses it and lets it go on its own thread. Every call is bounded by `timeoutMicros`.
final class LogindConnection {
    static let service = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let userInterface = "org.freedesktop.login1.User"

    /// A signal that matters to the lock, decoded.
    enum Signal: Equatable {
        case lock, unlock
        /// `LockedHint` changed to this value; nil: it was invalidated (read it again).
        case lockedHint(Bool?)
        case prepareForSleep(Bool)
        /// A session came or went: the session to follow may have changed.
        case sessionsChanged
    }

    let address: String
    let timeoutMicros: UInt64
    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    private var onSignal: ((Signal) -> Void)?

    init(address: String, timeoutMicros: UInt64) throws(LogindError) {
        self.address = address
        self.timeoutMicros = timeoutMicros
        var made: OpaquePointer?
        var rc = sd_bus_new(&made)
        guard rc >= 0, let made else { throw .noSystemBus(address: address, reason: Self.errnoText(rc)) }
        rc = sd_bus_set_address(made, address)
        if rc >= 0 { rc = sd_bus_set_bus_client(made, 1) }
        if rc >= 0 { rc = sd_bus_set_method_call_timeout(made, timeoutMicros) }
        if rc >= 0 { rc = sd_bus_start(made) }
        guard rc >= 0 else {
            sd_bus_unref(made)
            throw .noSystemBus(address: address, reason: Self.errnoText(rc))
        }
        bus = made
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    // MARK: Calls

    /// The user's object path, from `ListUsers` (a(uso)); nil when logind lists no such user
    /// (no session, no lingering). `ListUsers` rather than `GetUser`: one call for both cases.
    func userPath(uid: UInt32) throws(LogindError) -> String? {
        var call: OpaquePointer?
        var rc = sd_bus_message_new_method_call(bus, &call, Self.service, Self.managerPath, Self.managerInterface, "ListUsers")
        guard rc >= 0, let call else { throw .call("ListUsers", reason: Self.errnoText(rc)) }
        defer { sd_bus_message_unref(call) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        rc = sd_bus_call(bus, call, timeoutMicros, &error, &reply)
        defer { if let reply { sd_bus_message_unref(reply) } }
        guard rc >= 0, let reply else { throw failure("ListUsers", rc, error) }
        guard sd_bus_message_enter_container(reply, Self.type("a"), "(uso)") > 0 else {
            throw .call("ListUsers", reason: "answered without a list of users")
        }
        while sd_bus_message_enter_container(reply, Self.type("r"), "uso") > 0 {
            var id: UInt32 = 0
            var name: UnsafePointer<CChar>?, path: UnsafePointer<CChar>?
            if sd_bus_message_read_basic(reply, Self.type("u"), &id) > 0, sd_bus_message_read_basic(reply, Self.type("s"), &name) > 0,
               sd_bus_message_read_basic(reply, Self.type("o"), &path) > 0, id == uid, let path {
                return String(cString: path)
            }
            sd_bus_message_exit_container(reply)
        }
        return nil
    }

    /// The user's `Display` session id ("" when none) and `Sessions` (id, object path).
    func userSessions(userPath: String) throws(LogindError) -> (display: String, sessions: [(id: String, path: String)]) {
        var display = ""
        try property(userPath, Self.userInterface, "Display", "(so)") { reply in
            guard sd_bus_message_enter_container(reply, Self.type("r"), "so") > 0 else { return }
            var id: UnsafePointer<CChar>?
            if sd_bus_message_read_basic(reply, Self.type("s"), &id) > 0, let id { display = String(cString: id) }
        }
        var sessions: [(id: String, path: String)] = []
        try property(userPath, Self.userInterface, "Sessions", "a(so)") { reply in
            guard sd_bus_message_enter_container(reply, Self.type("a"), "(so)") > 0 else { return }
            while sd_bus_message_enter_container(reply, Self.type("r"), "so") > 0 {
                var id: UnsafePointer<CChar>?, path: UnsafePointer<CChar>?
                if sd_bus_message_read_basic(reply, Self.type("s"), &id) > 0, sd_bus_message_read_basic(reply, Self.type("o"), &path) > 0,
                   let id, let path {
                    sessions.append((String(cString: id), String(cString: path)))
                }
                sd_bus_message_exit_container(reply)
            }
        }
        return (display, sessions)
    }

    /// A string property (a session's `Type`).
    func string(_ path: String, _ interface: String, _ name: String) throws(LogindError) -> String {
        var value = ""
        try property(path, interface, name, "s") { reply in
            var text: UnsafePointer<CChar>?
            if sd_bus_message_read_basic(reply, Self.type("s"), &text) > 0, let text { value = String(cString: text) }
        }
        return value
    }

    /// A boolean property (`LockedHint`, `PreparingForSleep`).
    func bool(_ path: String, _ interface: String, _ name: String) throws(LogindError) -> Bool {
        var value: Int32 = 0
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        let rc = sd_bus_get_property_trivial(bus, Self.service, path, interface, name, &error, Self.type("b"), &value)
        guard rc >= 0 else { throw failure(name, rc, error) }
        return value != 0
    }

    /// Reads a property; `read` gets the reply positioned inside the variant.
    private func property(_ path: String, _ interface: String, _ name: String, _ signature: String,
                          _ read: (OpaquePointer) -> Void) throws(LogindError) {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let rc = sd_bus_get_property(bus, Self.service, path, interface, name, &error, &reply, signature)
        defer { if let reply { sd_bus_message_unref(reply) } }
        guard rc >= 0, let reply else { throw failure(name, rc, error) }
        read(reply)
    }

    // MARK: Signals

    /// Subscribes to the session's `Lock`, `Unlock` and `PropertiesChanged`, and the manager's
    /// `PrepareForSleep`, `SessionNew` and `SessionRemoved`; `handler` runs inside
    /// `processPending()`, on this connection's thread.
    func subscribe(sessionPath: String, _ handler: @escaping (Signal) -> Void) throws(LogindError) {
        onSignal = handler
        let matches: [(String, String, String?)] = [
            (sessionPath, Self.sessionInterface, "Lock"),
            (sessionPath, Self.sessionInterface, "Unlock"),
            (sessionPath, "org.freedesktop.DBus.Properties", "PropertiesChanged"),
            (Self.managerPath, Self.managerInterface, "PrepareForSleep"),
            (Self.managerPath, Self.managerInterface, "SessionNew"),
            (Self.managerPath, Self.managerInterface, "SessionRemoved"),
        ]
        for (path, interface, member) in matches {
            var slot: OpaquePointer?
            let rc = sd_bus_match_signal(
                bus, &slot, Self.service, path, interface, member,
                { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    let connection = Unmanaged<LogindConnection>.fromOpaque(userdata).takeUnretainedValue()
                    if let signal = LogindConnection.decode(message) { connection.onSignal?(signal) }
                    return 0
                },
                Unmanaged.passUnretained(self).toOpaque())
            guard rc >= 0, let slot else { throw .call("AddMatch", reason: Self.errnoText(rc)) }
            slots.append(slot)
        }
    }

    /// A logind signal as a `Signal`; nil for anything that does not concern the lock.
    static func decode(_ message: OpaquePointer) -> Signal? {
        guard let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else { return nil }
        switch member {
        case "Lock": return .lock
        case "Unlock": return .unlock
        case "SessionNew", "SessionRemoved": return .sessionsChanged
        case "PrepareForSleep":
            var value: Int32 = 0
            guard sd_bus_message_read_basic(message, type("b"), &value) > 0 else { return nil }
            return .prepareForSleep(value != 0)
        case "PropertiesChanged":
            var interface: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type("s"), &interface) > 0, let interface,
                  String(cString: interface) == sessionInterface,
                  sd_bus_message_enter_container(message, type("a"), "{sv}") > 0 else { return nil }
            var found: Signal?
            while sd_bus_message_enter_container(message, type("e"), "sv") > 0 {
                var key: UnsafePointer<CChar>?
                guard sd_bus_message_read_basic(message, type("s"), &key) > 0, let key else { return found }
                if String(cString: key) == "LockedHint", sd_bus_message_enter_container(message, type("v"), "b") > 0 {
                    var value: Int32 = 0
                    if sd_bus_message_read_basic(message, type("b"), &value) > 0 { found = .lockedHint(value != 0) }
                    sd_bus_message_exit_container(message)
                } else {
                    sd_bus_message_skip(message, "v")
                }
                sd_bus_message_exit_container(message)
            }
            sd_bus_message_exit_container(message)
            if found != nil { return found }
            guard sd_bus_message_enter_container(message, type("a"), "s") > 0 else { return nil }
            var name: UnsafePointer<CChar>?
            while sd_bus_message_read_basic(message, type("s"), &name) > 0, let name {
                if String(cString: name) == "LockedHint" { return .lockedHint(nil) }
            }
            return nil
        default:
            return nil
        }
    }

    // MARK: The loop

    /// The descriptor to poll, the events to poll it for, and how long poll may wait (-1: no deadline).
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

    /// Reads and dispatches whatever has arrived; throws `connectionLost` when the bus went away.
    func processPending() throws(LogindError) {
        while true {
            let rc = sd_bus_process(bus, nil)
            if rc < 0 { throw .connectionLost(reason: Self.errnoText(rc)) }
            if rc == 0 { break }
        }
        if sd_bus_is_open(bus) <= 0 { throw .connectionLost(reason: "the bus closed the connection") }
    }

    private func failure(_ name: String, _ rc: Int32, _ error: sd_bus_error) -> LogindError {
        let errorName = error.name.map { String(cString: $0) }
        // The last line: a service written in Python answers with its traceback.
        let message = error.message.map { String(cString: $0) }.flatMap { $0.split(separator: "\n").last.map(String.init) }
            ?? Self.errnoText(rc)
        switch errorName {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .noLogind(address: address)
        case "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NoServer":
            return .connectionLost(reason: message)
        case nil where rc != -ETIMEDOUT:
            return .connectionLost(reason: message)
        default:
            return .call(name, reason: message)
        }
    }

    static func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }

    static func errnoText(_ rc: Int32) -> String { String(cString: strerror(-rc)) }
}
